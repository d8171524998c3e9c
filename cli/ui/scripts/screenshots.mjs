// Takes the screenshots in docs/ui/: each view of `tsgraph ui` on a real project, in
// Debian's Chromium. The project is the sources of @react-spectrum/s2 1.7.1 from npm (its
// src/ and style/ folders and package.json; bench/fetch-corpus.sh fetches the package), and
// the views' symbols below are that project's.
//
//   node scripts/screenshots.mjs PROJECT [OUT]     (OUT defaults to docs/ui)

import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { startUi, workspace } from '../test/support.mjs';

const [project, out = join(workspace, 'docs', 'ui')] = process.argv.slice(2);
if (!project) {
  console.error('usage: node scripts/screenshots.mjs PROJECT [OUT]');
  process.exit(64);
}

const id = (text) => encodeURIComponent(text);
const SHOTS = [
  ['search', '#/search?q=Button&kinds=Function,Variable', '#results .result-list'],
  ['symbol', `#/symbol?id=${id('src/useSpectrumContextProps.ts:useSpectrumContextProps')}`, '#source'],
  ['callers', `#/callers?id=${id('style/runtime.ts:mergeStyles')}`, '#tree[data-ready="true"]'],
  ['callees', `#/callees?id=${id('src/Picker.tsx:Picker')}`, '#tree[data-ready="true"]'],
  ['impact', `#/impact?id=${id('style/runtime.ts:mergeStyles')}`, '#impact[data-ready="true"]'],
  ['path', `#/path?from=${id('src/Picker.tsx:Picker')}&to=${id('style/runtime.ts:mergeStyles')}&k=3`, '#graph[data-drawn="true"]'],
  ['neighbors', `#/neighbors?id=${id('src/Picker.tsx:Picker')}&distance=2&direction=out`, '#graph[data-drawn="true"]'],
  ['deps', `#/deps?package=${id('@react-spectrum/s2')}`, '#graph[data-drawn="true"]'],
];

mkdirSync(out, { recursive: true });
const ui = await startUi(resolve(project));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await page.goto(ui.url);
  const origin = new URL(ui.url).origin;
  for (const [name, fragment, ready] of SHOTS) {
    await page.goto(`${origin}/${fragment}`);
    await page.waitForSelector(ready, { timeout: 30_000 });
    // A drawing's layout settles after it is drawn.
    await page.waitForTimeout(600);
    await page.screenshot({ path: join(out, `${name}.png`) });
    console.log(`${name}.png`);
  }
} finally {
  await browser.close();
  ui.stop();
}
