// Shared by the addon's tests: a fresh copy of a fixture project per test.

import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const workspace = resolve(packageDir, '..', '..');

/** A copy of tests/fixtures/<name> in a temporary folder, removed after the test. */
export function fixture(t, name = 'lsp-editor') {
  const dir = mkdtempSync(join(tmpdir(), 'tsgraph-node-'));
  cpSync(join(workspace, 'tests', 'fixtures', name), dir, { recursive: true });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The direct callers' IDs of a JSON callers answer. */
export function directCallers(answer) {
  return answer.nodes
    .filter((node) => node.depth === 1)
    .map((node) => node.id)
    .sort();
}

/** The next `delta` event of `project` that `accept` takes, or a failure after `ms`. */
export function nextDelta(project, accept, ms = 10_000) {
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      project.off('delta', listener);
      reject(new Error(`no matching delta within ${ms} ms`));
    }, ms);
    function listener(delta) {
      if (!accept(delta)) return;
      clearTimeout(timer);
      project.off('delta', listener);
      resolvePromise(delta);
    }
    project.on('delta', listener);
  });
}
