// The npm packages as a user gets them: packed from the build (scripts/pack.mjs), installed
// from their tarballs into a clean temporary project with npm (offline: nothing may come
// from the registry), then `npx tsgraph` and the Node API used from there, and the types
// checked by TypeScript's compiler. TSGRAPH_PROFILE names the cargo profile built (test.sh
// sets it; default debug).

import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { packageDir, workspace } from './helpers.mjs';

/** The TypeScript release the declarations are checked with, Node's types for it, and VS
 * Code's API for the README's extension example. */
const TYPESCRIPT = ['typescript@5.9.3', '@types/node@20.19.43', '@types/vscode@1.140.0'];

function npm(args, cwd) {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** An environment without the development overrides: the installed packages must be found. */
function userEnvironment() {
  const env = { ...process.env };
  delete env.TSGRAPH_NATIVE;
  delete env.TSGRAPH_BINARY;
  return env;
}

test('the packages install from their tarballs and answer there', async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'tsgraph-npm-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  const profile = process.env.TSGRAPH_PROFILE ?? 'debug';
  const packed = execFileSync(
    process.execPath,
    [join(packageDir, 'scripts', 'pack.mjs'), '--profile', profile, '--out', join(home, 'packed')],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const tarballs = packed.trim().split('\n');
  assert.equal(tarballs.length, 3, packed);

  const app = join(home, 'app');
  cpSync(join(workspace, 'tests', 'fixtures', 'lsp-editor'), app, { recursive: true });
  npm(['install', '--offline', '--no-audit', '--no-fund', ...tarballs], app);

  const env = userEnvironment();
  const callers = spawnSync('npx', ['--no-install', 'tsgraph', 'callers', 'format', '--project', '.'], { cwd: app, env, encoding: 'utf8' });
  assert.equal(callers.status, 0, callers.stderr);
  assert.ok(callers.stdout.startsWith('callers: "src/util.ts:format"'), callers.stdout);
  assert.ok(callers.stdout.includes('"src/main.ts:main"'), callers.stdout);
  // The launcher passes the executable's exit code on: 2 for an unknown symbol.
  const unknown = spawnSync('npx', ['--no-install', 'tsgraph', 'callers', 'fromat'], { cwd: app, env, encoding: 'utf8' });
  assert.equal(unknown.status, 2, unknown.stderr);
  assert.match(unknown.stderr, /no symbol matches `fromat`/);

  writeFileSync(
    join(app, 'use.js'),
    `const { Project } = require('tsgraph');
(async () => {
  const project = await Project.open('.');
  const answer = await project.callers('label');
  await project.applyEdit('src/main.ts', [{ range: { start: { line: 5, character: 2 }, end: { line: 5, character: 2 } }, text: 'label("x");\\n  ' }]);
  const after = await project.callers('label');
  await project.close();
  console.log(JSON.stringify([answer.nodes.length, after.nodes.map((node) => node.id)]));
})().catch((err) => { console.error(err); process.exit(1); });
`,
  );
  const used = spawnSync(process.execPath, ['use.js'], { cwd: app, env, encoding: 'utf8' });
  assert.equal(used.status, 0, used.stderr);
  const [before, after] = JSON.parse(used.stdout);
  assert.ok(before >= 1, used.stdout);
  assert.ok(after.includes('src/main.ts:main'), used.stdout);

  // The declarations: a consumer that uses them right compiles, one that does not fails.
  npm(['install', '--no-audit', '--no-fund', '--no-save', ...TYPESCRIPT], app);
  writeFileSync(
    join(app, 'consumer.ts'),
    `import { Project, TsgraphError, type EditDelta } from 'tsgraph';
export async function use(): Promise<string> {
  const project = await Project.open('.', { db: '.tsgraph/graph.redb' });
  project.on('delta', (delta) => { if (delta.kind === 'edit') console.log(delta.edgesAdded.length); });
  const answer = await project.callers('format', { maxDepth: 2, edgeKinds: ['CALLS'] });
  const toon: string = await project.neighbors('report', { format: 'toon', direction: 'in' });
  const path = await project.path('main', 'label', { k: 2 });
  const edit: EditDelta = await project.applyEdit('src/main.ts', [{ text: '' }]);
  try { await project.impact('x'); } catch (err) { if (err instanceof TsgraphError) return err.code + err.exitCode; }
  await project.watch();
  await project.close();
  return String(answer.query) + String(path.query) + toon + edit.relinked.join();
}
`,
  );
  const tsc = join(app, 'node_modules', 'typescript', 'bin', 'tsc');
  const flags = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--types', 'node'];
  const good = spawnSync(process.execPath, [tsc, ...flags, 'consumer.ts'], { cwd: app, encoding: 'utf8' });
  assert.equal(good.status, 0, good.stdout + good.stderr);
  // The README's VS Code extension compiles against the package and VS Code's API.
  writeFileSync(join(app, 'extension.ts'), readmeExtension());
  const extension = spawnSync(process.execPath, [tsc, ...flags, '--types', 'node,vscode', 'extension.ts'], { cwd: app, encoding: 'utf8' });
  assert.equal(extension.status, 0, extension.stdout + extension.stderr);

  // Misspelt options, a text answer used as an object, a wrong argument: type errors.
  const mistakes = [
    ['an unknown option', "p.callers('f', { depth: 2 })", /depth/],
    ['a misspelt option beside a right one', "p.callers('f', { maxDepht: 2, format: 'json' })", /maxDepht/],
    ['text used as an object', "p.callers('f', { format: 'toon' }).then((a) => a.nodes)", /nodes/],
    ['a path without its end', "p.path('a', { k: 2 })", /./],
  ];
  for (const [what, call, message] of mistakes) {
    writeFileSync(join(app, 'wrong.ts'), `import { Project } from 'tsgraph';\nexport const run = Project.open('.').then((p) => ${call});\n`);
    const wrong = spawnSync(process.execPath, [tsc, ...flags, 'wrong.ts'], { cwd: app, encoding: 'utf8' });
    assert.notEqual(wrong.status, 0, `${what} is a type error`);
    assert.match(wrong.stdout, message, what);
  }
});

/** The TypeScript block of the README's "Use from a VS Code extension" section. */
function readmeExtension() {
  const readme = readFileSync(join(workspace, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Use from a VS Code extension'));
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  assert.ok(block, 'the README has the extension example');
  return block[1];
}
