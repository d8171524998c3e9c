// What the browser tests need around the browser: the tsgraph executable, projects to serve
// (a copy of a fixture, a generated hub), the server's process, and plain HTTP requests
// with any headers (a browser will not send a foreign Host).

import { spawn, execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The workspace root. */
export const workspace = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The tsgraph executable under test. */
export const binary = process.env.TSGRAPH_BIN ?? join(workspace, 'target', 'debug', 'tsgraph');

/** A copy of `tests/fixtures/<name>` in a temporary folder (the server writes its store there). */
export function fixtureCopy(name) {
  const dir = join(mkdtempSync(join(tmpdir(), 'tsgraph-ui-')), name);
  cpSync(join(workspace, 'tests', 'fixtures', name), dir, {
    recursive: true,
    filter: (source) => !source.includes(`${name}/.tsgraph`),
  });
  return dir;
}

/**
 * A project with one function `hub` called by `callers` functions spread over files of 25,
 * each of them called by `each` functions of its own.
 */
export function hubProject(callers, each) {
  const dir = join(mkdtempSync(join(tmpdir(), 'tsgraph-ui-hub-')), 'hub');
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'hub', private: true }));
  writeFileSync(join(dir, 'src', 'hub.ts'), 'export function hub(): number {\n  return 1;\n}\n');
  const perFile = 25;
  for (let file = 0; file * perFile < callers; file += 1) {
    const lines = ['import { hub } from "./hub";', ''];
    for (let i = file * perFile; i < Math.min(callers, (file + 1) * perFile); i += 1) {
      lines.push(`export function caller${i}(): number {`, '  return hub();', '}');
      for (let j = 0; j < each; j += 1) lines.push(`export function user${i}x${j}(): number {`, `  return caller${i}();`, '}');
    }
    writeFileSync(join(dir, 'src', `callers${file}.ts`), `${lines.join('\n')}\n`);
  }
  return dir;
}

/** A project of the given files (path → text) in a temporary folder. */
export function writeProject(name, files) {
  const dir = join(mkdtempSync(join(tmpdir(), 'tsgraph-ui-')), name);
  for (const [path, text] of Object.entries({ 'package.json': JSON.stringify({ name, private: true }), ...files })) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/**
 * Starts `tsgraph ui` on `project` (with `args` after it, in `env`); resolves once it
 * printed its address.
 */
export function startUi(project, args = [], env = process.env) {
  const child = spawn(binary, ['ui', '--project', project, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let log = '';
  child.stderr.on('data', (chunk) => (log += chunk));
  return new Promise((resolvePromise, reject) => {
    const lines = createInterface({ input: child.stdout });
    const fail = (why) => reject(new Error(`tsgraph ui ${why}; its log:\n${log}`));
    child.on('error', (error) => fail(`did not start: ${error.message}`));
    child.on('exit', (code) => fail(`exited with ${code}`));
    lines.once('line', (url) => {
      if (!/^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{32}$/.test(url)) fail(`printed ${url}`);
      resolvePromise({ url, stop: () => child.kill('SIGTERM'), log: () => log });
    });
  });
}

/** The CLI's stdout for `args` on `project`. */
export function cliAnswer(project, args) {
  return execFileSync(binary, [...args, '--project', project], { encoding: 'utf8' });
}

/** A request to the server on 127.0.0.1:`port` with exactly these headers (Host included). */
export function requestRaw(port, path, headers = {}, method = 'GET') {
  return new Promise((resolvePromise, reject) => {
    const all = { Host: `127.0.0.1:${port}`, ...headers };
    // An undefined Host: none is sent at all.
    const sent = Object.fromEntries(Object.entries(all).filter(([, value]) => value !== undefined));
    const req = request({ host: '127.0.0.1', port: Number(port), path, method, headers: sent, setHost: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolvePromise({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
