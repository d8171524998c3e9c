// The addon through its JavaScript API (index.js), on a copy of tests/fixtures/lsp-editor.
// Needs TSGRAPH_NATIVE to name a built addon (test.sh builds it and sets it).

import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';

import { directCallers, fixture, nextDelta, packageDir } from './helpers.mjs';

const require = createRequire(import.meta.url);
const { Project, TsgraphError } = require(packageDir);

assert.ok(process.env.TSGRAPH_NATIVE, 'TSGRAPH_NATIVE names the built addon (run test.sh)');

test('a project opens off the main thread and answers as JSON or as text', async (t) => {
  const project = await Project.open(fixture(t));
  t.after(() => project.close());
  const answer = await project.callers('format');
  assert.equal(answer.query, 'callers');
  assert.deepEqual(directCallers(answer), ['src/main.ts:main', 'src/report.ts:report']);
  const toon = await project.callers('format', { format: 'toon' });
  assert.equal(typeof toon, 'string');
  assert.ok(toon.startsWith('callers: "src/util.ts:format"'), toon);
  assert.match(project.storePath, /\.tsgraph[/\\]graph\.redb$/);
});

test('every query kind answers', async (t) => {
  const project = await Project.open(fixture(t));
  t.after(() => project.close());
  const asked = {
    search: await project.search('Circle'),
    topic: await project.topic('shapes area'),
    callees: await project.callees('demo', { maxDepth: 1 }),
    impact: await project.impact('src/shapes.ts:Shape'),
    path: await project.path('main', 'label'),
    neighbors: await project.neighbors('report', { distance: 1, direction: 'out' }),
    fileSymbols: await project.fileSymbols('shapes.ts'),
    deps: await project.packageDeps('lsp-editor'),
  };
  assert.equal(asked.search.nodes[0].id, 'src/shapes.ts:Circle');
  assert.ok(asked.topic.nodes.length > 0);
  assert.ok(asked.callees.nodes.some((node) => node.id === 'src/report.ts:report'));
  assert.ok(asked.impact.nodes.some((node) => node.id === 'src/shapes.ts:Base'));
  assert.deepEqual(
    asked.path.paths[0].nodes.map((node) => node.id ?? node),
    ['src/main.ts:main', 'src/report.ts:demo', 'src/report.ts:report', 'src/util.ts:label'],
  );
  assert.ok(asked.neighbors.nodes.some((node) => node.id === 'src/report.ts:sum'));
  assert.ok(asked.fileSymbols.nodes.some((node) => node.id === 'src/shapes.ts:Square.area'));
  assert.equal(asked.deps.query, 'deps');
});

test('unsaved edits count, with UTF-16 columns, and each is a delta event', async (t) => {
  const dir = fixture(t);
  const project = await Project.open(dir);
  t.after(() => project.close());
  // report.ts line 5 has non-ASCII text (two-byte, three-byte and astral characters) before
  // the call to format: a column counted in bytes or code points would miss it.
  const line = readFileSync(join(dir, 'src/report.ts'), 'utf8').split('\n')[4];
  const start = line.indexOf('format(sum(shapes))');
  const end = start + 'format'.length;
  const seen = nextDelta(project, (delta) => delta.kind === 'edit');
  const outcome = await project.applyEdit('src/report.ts', [
    { range: { start: { line: 4, character: start }, end: { line: 4, character: end } }, text: 'String' },
  ]);
  assert.deepEqual(await seen, outcome);
  assert.ok(
    outcome.edgesRemoved.some(
      (edge) => edge.source === 'src/report.ts:report' && edge.kind === 'CALLS' && edge.target === 'src/util.ts:format',
    ),
    JSON.stringify(outcome),
  );
  assert.ok(outcome.relinked.includes('src/report.ts'));
  assert.deepEqual(directCallers(await project.callers('format')), ['src/main.ts:main']);

  // The whole text, then the file closed: the disk's text counts again.
  await project.setFileText('src/util.ts', 'export function format(value: number): string {\n  return label(String(value));\n}\n\nexport function label(name: string): string {\n  return name.trim();\n}\n');
  assert.deepEqual(directCallers(await project.callers('label')), ['src/report.ts:report', 'src/util.ts:format']);
  await project.closeFile('src/util.ts');
  assert.deepEqual(directCallers(await project.callers('label')), ['src/report.ts:report']);
});

test('failures are TsgraphErrors with the CLI codes and their details', async (t) => {
  const project = await Project.open(fixture(t));
  t.after(() => project.close());
  const ambiguous = await project.callers('area').catch((err) => err);
  assert.ok(ambiguous instanceof TsgraphError, String(ambiguous));
  assert.equal(ambiguous.code, 'ambiguous');
  assert.equal(ambiguous.exitCode, 2);
  assert.ok(ambiguous.candidates.some((c) => c.id === 'src/shapes.ts:Circle.area'));

  const missing = await project.callers('fromat').catch((err) => err);
  assert.equal(missing.code, 'not_found');
  assert.deepEqual(missing.suggestions, ['format']);

  await assert.rejects(project.callers('format', { depth: 2 }), (err) => {
    assert.equal(err.code, 'invalid_argument');
    assert.equal(err.exitCode, 64);
    assert.match(err.message, /^callers: unknown field `depth`/);
    return true;
  });
  await assert.rejects(project.neighbors('report', { distance: 0 }), /distance must be 1 to/);
  await assert.rejects(project.callers(42), (err) => err.exitCode === 64 && /symbol must be a string/.test(err.message));
  await assert.rejects(project.applyEdit('src/util.ts', 'x'), (err) => err.exitCode === 64 && /changes must be an array/.test(err.message));
  await assert.rejects(
    project.applyEdit('src/report.ts', [{ range: { start: { line: 99, character: 0 }, end: { line: 99, character: 1 } }, text: 'x' }]),
    (err) => err instanceof TsgraphError && err.exitCode === 1,
  );
  await assert.rejects(Project.open(join(fixture(t), 'nowhere')), (err) => err instanceof TsgraphError && err.exitCode === 1);
  await project.close();
  await assert.rejects(project.setFileText('src/util.ts', ''), /closed/);
  await assert.rejects(project.callers('format'), /closed/);
});

test('watching turns changes on disk into delta events', async (t) => {
  const dir = fixture(t);
  const project = await Project.open(dir);
  t.after(() => project.close());
  assert.equal(await project.watch(), project);
  const seen = nextDelta(project, (delta) => delta.kind === 'edit' && (delta.paths ?? []).includes('src/extra.ts'));
  writeFileSync(join(dir, 'src/extra.ts'), 'import { label } from "./util";\nexport function extra(): string {\n  return label("x");\n}\n');
  const delta = await seen;
  assert.ok(delta.nodesAdded.some((node) => node.id === 'src/extra.ts:extra'));
  assert.ok(directCallers(await project.callers('label')).includes('src/extra.ts:extra'));

  // After unwatch, no delta from the watcher, though the graph is still asked.
  await project.unwatch();
  let late = 0;
  project.on('delta', () => late++);
  writeFileSync(join(dir, 'src/later.ts'), 'export function later(): number { return 1; }\n');
  await new Promise((done) => setTimeout(done, 600));
  assert.equal(late, 0, 'no delta after unwatch');
  assert.equal((await project.search('later')).nodes.length, 0, 'the change on disk was not followed');
});

test('edits apply in the order they are asked for, and a query sees those asked before it', async (t) => {
  const project = await Project.open(fixture(t));
  t.after(() => project.close());
  // One character at a time, none awaited, as an editor sends keystrokes: line 2 of
  // util.ts ("  return value.toFixed(2);") grows a call to label before its text.
  const typed = 'label("k");';
  const edits = [...typed].map((char, at) =>
    project.applyEdit('src/util.ts', [
      { range: { start: { line: 1, character: 2 + at }, end: { line: 1, character: 2 + at } }, text: char },
    ]),
  );
  const callers = await project.callers('label');
  const outcomes = await Promise.all(edits);
  assert.equal(outcomes.length, typed.length);
  assert.deepEqual(directCallers(callers), ['src/report.ts:report', 'src/util.ts:format']);
  // The same text set whole gives the same graph.
  const whole = readFileSync(join(project.root, 'src/util.ts'), 'utf8').replace('  return value', `  ${typed}return value`);
  const set = await project.setFileText('src/util.ts', whole);
  assert.deepEqual([set.edgesAdded, set.edgesRemoved], [[], []]);
});

test('queries run side by side with an edit', async (t) => {
  const project = await Project.open(fixture(t));
  t.after(() => project.close());
  const queries = Array.from({ length: 16 }, () => project.callers('format'));
  // The edit drops main's call to format, so an answer tells which state it read.
  const edit = project.setFileText('src/main.ts', 'export function main(): void {\n  console.log(2);\n}\n');
  const later = project.callers('format');
  const answers = await Promise.all(queries);
  await edit;
  const before = ['src/main.ts:main', 'src/report.ts:report'];
  for (const answer of answers) {
    // Asked before the edit: each answer is of the state before it.
    assert.deepEqual(directCallers(answer), before);
  }
  assert.deepEqual(directCallers(await later), ['src/report.ts:report'], 'a query asked after the edit sees it');
});
