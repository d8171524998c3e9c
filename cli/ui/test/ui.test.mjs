// End-to-end tests of `tsgraph ui` in a real browser: Debian's Chromium, driven by
// playwright-core (no browser download). The server runs on a copy of the `basic` fixture;
// the page is driven as a person would: search, open a symbol, expand callers, draw a path,
// edit a file on disk and see the view follow. The refusals (no token, a spent token, a
// foreign Host, a file outside the project) are asked over plain HTTP.
//
// TSGRAPH_BIN names the tsgraph executable (default: the workspace's target/debug build);
// CHROMIUM the browser (default /usr/bin/chromium). Without a browser the tests are skipped
// with a message, unless TSGRAPH_REQUIRE_BROWSER=1 (CI), where that is a failure.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { chmodSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { cliAnswer, fixtureCopy, hubProject, requestRaw, startUi, writeProject } from './support.mjs';

const browserPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const haveBrowser = existsSync(browserPath);
if (!haveBrowser && process.env.TSGRAPH_REQUIRE_BROWSER === '1') {
  throw new Error(`no browser at ${browserPath}: install Debian's chromium (CI needs it)`);
}
const skip = haveBrowser ? false : `no browser at ${browserPath}: install Debian's chromium to run the web UI's tests`;

/** Chromium as this machine's closed network needs it (no background connections). */
async function launch() {
  return chromium.launch({
    executablePath: browserPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

/** A page whose CSP violations, script errors and long tasks are recorded. */
async function newPage(browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // A failed request is recorded with its address below.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      problems.push(`console error: ${message.text()}`);
    }
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  await page.addInitScript(() => {
    window.__csp = [];
    window.__longTasks = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  return { context, page, problems };
}

async function ready(page, selector) {
  await page.waitForSelector(`${selector}[data-ready="true"]`, { timeout: 15_000 });
}

describe('tsgraph ui on the basic fixture', { skip }, () => {
  let project;
  let ui;
  let browser;
  let session;

  before(async () => {
    project = fixtureCopy('basic');
    // Files the page must never serve: a link to a file outside the project, a secret.
    writeFileSync(join(project, '..', 'secret.ts'), 'export const secret = "outside";\n');
    symlinkSync(join(project, '..', 'secret.ts'), join(project, 'src', 'leak.ts'));
    writeFileSync(join(project, '.env'), 'TOKEN=secret\n');
    ui = await startUi(project);
    browser = await launch();
    session = await newPage(browser);
    await session.page.goto(ui.url);
  });

  after(async () => {
    await browser?.close();
    ui?.stop();
  });

  test('the token is exchanged for a cookie and leaves the address', async () => {
    const { page, context } = session;
    assert.equal(new URL(page.url()).search, '', 'the token is not left in the address bar');
    const cookies = await context.cookies();
    const cookie = cookies.find((c) => c.name === `tsgraph_ui_${new URL(ui.url).port}`);
    assert.ok(cookie, 'session cookie set');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Strict');
    await page.waitForFunction(() => document.getElementById('project')?.textContent !== '');
  });

  test('requests without the cookie, with a spent token or a foreign Host are refused', async () => {
    const base = new URL(ui.url);
    for (const path of ['/api/info', '/', '/assets/app.js', '/api/events', '/api/query/search?args=%7B%22query%22%3A%22x%22%7D']) {
      const plain = await requestRaw(base.port, path);
      assert.equal(plain.status, 401, `${path} without the session: ${plain.body}`);
    }
    const spent = await requestRaw(base.port, `/${base.search}`);
    assert.equal(spent.status, 403, 'a token works once');
    assert.match(spent.body, /works once/);
    const cookie = (await session.context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    for (const host of [`attacker.example:${base.port}`, `LOCALHOST:${base.port}`, `127.0.0.1.:${base.port}`,
      `[::1]:${base.port}`, '127.0.0.1', `127.0.0.1:${Number(base.port) + 1}`, undefined]) {
      const rebound = await requestRaw(base.port, '/api/info', { Host: host, Cookie: cookie });
      assert.equal(rebound.status, 403, `DNS rebinding: Host ${host} is refused`);
    }
    const fromElsewhere = await requestRaw(base.port, '/api/info', { Cookie: cookie, 'Sec-Fetch-Site': 'same-site', Origin: 'http://127.0.0.1:1' });
    assert.equal(fromElsewhere.status, 403, 'a page on another port of the host is refused');
    const posted = await requestRaw(base.port, '/api/query/callers', { Cookie: cookie }, 'POST');
    assert.equal(posted.status, 405, 'the API only reads');
    const admitted = await requestRaw(base.port, '/api/info', { Cookie: cookie });
    assert.equal(admitted.status, 200);
    const policy = admitted.headers['content-security-policy'];
    assert.match(policy, /script-src 'self'/);
    assert.doesNotMatch(policy, /unsafe-eval|unsafe-inline/);
  });

  test('no file outside the project is read', async () => {
    // A page of its own: the refusals' console messages are not the main page's errors.
    const page = await session.context.newPage();
    await page.goto(new URL(ui.url).origin);
    const statuses = await page.evaluate(async () => {
      const ask = (file) => fetch(`/api/source?file=${encodeURIComponent(file)}`).then((r) => r.status);
      return [await ask('../outside.ts'), await ask('/etc/passwd'), await ask('src/../../basic/src/main.ts'), await ask('src/main.ts'),
        await ask('src/leak.ts'), await ask('.env'), await ask('.tsgraph/graph.redb')];
    });
    // A link out of the project, a file the graph does not index, the store: none is served.
    assert.deepEqual(statuses, [403, 403, 403, 200, 404, 404, 404]);
    const outside = await requestRaw(new URL(ui.url).port, '/assets/..%2F..%2F..%2FCargo.toml', {
      Cookie: (await session.context.cookies()).map((c) => `${c.name}=${c.value}`).join('; '),
    });
    assert.equal(outside.status, 404, 'assets come from the binary, never from disk');
    await page.close();
  });

  test('bad parameters get a 400 naming them', async () => {
    const page = await session.context.newPage();
    await page.goto(new URL(ui.url).origin);
    const answers = await page.evaluate(async () => {
      const ask = async (url) => {
        const r = await fetch(url);
        return [r.status, (await r.json()).error.message];
      };
      return [
        await ask('/api/tree?symbol=saveUser&depth=99'),
        await ask('/api/query/callers?args=%7B%22symbl%22%3A1%7D'),
        await ask('/api/query/callers?args=not-json'),
        await ask('/api/source?file=src/main.ts&count=0'),
        await ask('/api/symbol'),
      ];
    });
    for (const [status, message] of answers) assert.equal(status, 400, message);
    assert.match(answers[0][1], /depth must be 1 to 3/);
    assert.match(answers[1][1], /unknown field `symbl`/);
    await page.close();
  });

  test('search as you type, open a symbol, expand its callers two levels and one more', async () => {
    const { page } = session;
    await page.fill('#search', 'saveUs');
    const hit = page.locator('#results a.symbol[data-id="src/db/user.ts:saveUser"]');
    await hit.waitFor();
    assert.match(page.url(), /#\/search\?q=saveUs/, 'the search has a permalink');
    await page.check('input[data-kind="Method"]');
    await page.waitForFunction(() => !document.querySelector('#results a.symbol[data-id="src/db/user.ts:saveUser"]'));
    await page.uncheck('input[data-kind="Method"]');
    await hit.click();
    await ready(page, '#view[data-view="symbol"]');
    assert.match(await page.textContent('#source'), /export async function saveUser\(user: User\)/);
    assert.match(await page.textContent('.facts'), /basic-app/);
    assert.match(await page.textContent('.signature'), /saveUser\(user: User\): Promise<void>/);

    await page.click('#to-callers');
    await ready(page, '#tree');
    const tier1 = await page.$$eval('li.node[data-tier="1"]', (items) => items.map((i) => i.dataset.id));
    assert.deepEqual(tier1.sort(), ['src/main.ts:main', 'src/services/UserService.ts:UserService.save']);
    const tier2 = await page.$$eval('li.node[data-tier="2"]', (items) => items.map((i) => i.dataset.id));
    assert.ok(tier2.includes('src/api/handlers.ts:handlers.create'), tier2.join(', '));
    const count = await page.textContent('li.node[data-id="src/services/UserService.ts:UserService.save"] > .row .count');
    assert.equal(count, '2 callers', 'each branch says how many it has');

    // A third level, asked for on a click.
    const create = page.locator('li.node[data-id="src/api/handlers.ts:handlers.create"][data-tier="2"]');
    await create.locator('> .row .toggle').click();
    await create.locator('li.node[data-tier="3"][data-id="src/api/handlers.ts:route"]').waitFor();
  });

  test('the copy buttons give the CLI answer to the same question', async () => {
    const { page } = session;
    const id = (text) => encodeURIComponent(text);
    const views = [
      [`#/callers?id=${id('src/db/user.ts:saveUser')}`, '#tree', ['callers', 'src/db/user.ts:saveUser', '--max-depth', '2']],
      [`#/callees?id=${id('src/api/handlers.ts:route')}`, '#tree', ['callees', 'src/api/handlers.ts:route', '--max-depth', '2']],
      [`#/impact?id=${id('src/db/user.ts:saveUser')}`, '#impact', ['impact', 'src/db/user.ts:saveUser', '--max-depth', '100']],
      ['#/path?from=route&to=saveUser&k=2', '#path', ['path', 'src/api/handlers.ts:route', 'src/db/user.ts:saveUser', '--k', '2']],
      [`#/neighbors?id=${id('src/db/user.ts:saveUser')}&distance=2`, '#neighbors',
        ['neighbors', 'src/db/user.ts:saveUser', '--distance', '2', '--direction', 'both', '--max-nodes', '300']],
      ['#/deps?package=basic-app', '#deps', ['deps', 'basic-app', '--direction', 'out']],
      ['#/search?q=save*&kinds=Function,Method&exported=true', '#results .copybar',
        ['search', 'save*', '--kind', 'function', '--kind', 'method', '--exported', '--limit', '50']],
    ];
    const quoted = (word) => (/^[A-Za-z0-9_./:@-]+$/.test(word) ? word : `'${word}'`);
    for (const [fragment, readySelector, args] of views) {
      await page.goto(`${new URL(ui.url).origin}/${fragment}`);
      await page.waitForSelector(readySelector.includes(' ') ? readySelector : `${readySelector}[data-ready="true"]`);
      assert.equal(await page.textContent('.copybar .command'), ['tsgraph', ...args.map(quoted)].join(' '), `${fragment}: the command shown`);
      for (const format of ['toon', 'json', 'mermaid']) {
        await page.click(`button[data-format="${format}"]`);
        await page.waitForFunction((f) => document.getElementById('copy-status')?.textContent?.startsWith(f.toUpperCase()), format);
        const shown = await page.textContent('#copied');
        const cli = cliAnswer(project, [...args, '--format', format]);
        assert.equal(shown, cli, `${fragment}: copy as ${format} is the CLI's answer`);
      }
    }
  });

  test('two servers on one machine keep their own sessions', async () => {
    const other = await startUi(fixtureCopy('basic'));
    try {
      const { page } = session;
      const second = await session.context.newPage();
      await second.goto(other.url);
      await second.waitForFunction(() => document.getElementById('project')?.textContent !== '');
      const statuses = await Promise.all([page, second].map((p) => p.evaluate(() => fetch('/api/info').then((r) => r.status))));
      assert.deepEqual(statuses, [200, 200], 'neither cookie overwrote the other');
      await second.close();
    } finally {
      other.stop();
    }
  });

  test('a path between two symbols is drawn', async () => {
    const { page } = session;
    await page.goto(`${new URL(ui.url).origin}/#/symbol?id=${encodeURIComponent('src/api/handlers.ts:route')}`);
    await ready(page, '#view[data-view="symbol"]');
    await page.click('#to-path');
    await page.fill('#field-to', 'src/db/user.ts:saveUser');
    await page.click('#path-go');
    await ready(page, '#path');
    await page.waitForSelector('#graph[data-drawn="true"] canvas');
    assert.equal(await page.getAttribute('#graph', 'data-nodes'), '4');
    const steps = await page.$$eval('.paths li:first-child a.symbol', (links) => links.map((a) => a.dataset.id));
    assert.deepEqual(steps, ['src/api/handlers.ts:route', 'src/api/handlers.ts:handlers.create',
      'src/services/UserService.ts:UserService.save', 'src/db/user.ts:saveUser']);
  });

  test('impact, neighbourhood and package views answer', async () => {
    const { page } = session;
    const origin = new URL(ui.url).origin;
    await page.goto(`${origin}/#/impact?id=${encodeURIComponent('src/db/user.ts:saveUser')}`);
    await ready(page, '#impact');
    assert.match(await page.textContent('#impact .package-group summary'), /basic-app/);
    await page.goto(`${origin}/#/neighbors?id=${encodeURIComponent('src/db/user.ts:saveUser')}`);
    await ready(page, '#neighbors');
    await page.waitForSelector('#graph[data-drawn="true"] canvas');
    await page.goto(`${origin}/#/deps?package=basic-app`);
    await ready(page, '#deps');
    await page.goto(`${origin}/#/deps?package=no-such-package`);
    await page.waitForSelector('#deps .error');
    assert.match(await page.textContent('#deps .error'), /no package named `no-such-package`/);
    // That refusal was asked for: it is not one of the page's problems.
    const asked = session.problems.filter((p) => p.includes('no-such-package'));
    assert.equal(asked.length, 1, session.problems.join('\n'));
    session.problems.splice(session.problems.indexOf(asked[0]), 1);
  });

  test('an open view follows an edit on disk', async () => {
    const { page } = session;
    await page.goto(`${new URL(ui.url).origin}/#/callers?id=${encodeURIComponent('src/db/user.ts:saveUser')}`);
    await ready(page, '#tree');
    appendFileSync(join(project, 'src', 'db', 'user.ts'),
      '\nexport async function importUsers(users: User[]): Promise<void> {\n  for (const u of users) await saveUser(u);\n}\n');
    await page.waitForSelector('li.node[data-tier="1"][data-id="src/db/user.ts:importUsers"]', { timeout: 15_000 });
    assert.match(await page.textContent('#note'), /src\/db\/user\.ts changed/);
  });

  test('the page breaks no rule of its Content-Security-Policy and logs no error', async () => {
    const { page, problems } = session;
    assert.deepEqual(await page.evaluate(() => window.__csp), []);
    assert.deepEqual(problems, []);
  });
});

describe('a 500-caller hub', { skip }, () => {
  let ui;
  let browser;

  before(async () => {
    ui = await startUi(hubProject(500, 2));
    browser = await launch();
  });

  after(async () => {
    await browser?.close();
    ui?.stop();
  });

  test('its callers tree opens two levels deep in one click', async (t) => {
    const { page, problems } = await newPage(browser);
    await page.goto(ui.url);
    await page.goto(`${new URL(ui.url).origin}/#/symbol?id=${encodeURIComponent('src/hub.ts:hub')}`);
    await ready(page, '#view[data-view="symbol"]');
    const measured = await page.evaluate(async () => {
      window.__longTasks.length = 0;
      const start = performance.now();
      document.getElementById('to-callers').click();
      await new Promise((resolve) => {
        const check = () => (document.querySelector('#tree[data-ready="true"]') ? resolve() : requestAnimationFrame(check));
        check();
      });
      // The frame that shows it.
      await new Promise((resolve) => requestAnimationFrame(() => resolve()));
      const elapsed = performance.now() - start;
      await new Promise((resolve) => setTimeout(resolve, 100));
      const longest = Math.max(0, ...window.__longTasks.filter((e) => e.start >= start).map((e) => e.duration));
      return { elapsed, longest };
    });
    const tier1 = await page.locator('li.node[data-tier="1"]').count();
    const tier2 = await page.locator('li.node[data-tier="2"]').count();
    assert.equal(tier1, 500);
    assert.equal(tier2, 1000);
    assert.deepEqual(problems, []);
    // Measured, not asserted (timings live in the benchmarks): the targets are
    // 1 s to the expanded tree and no main-thread task over 200 ms.
    // The browser reports tasks over 50 ms only.
    const longest = measured.longest > 0 ? `${measured.longest.toFixed(0)} ms` : 'none over 50 ms';
    const line = `500-caller hub: tree of ${tier1}+${tier2} nodes shown ${measured.elapsed.toFixed(0)} ms after the click; longest main-thread task: ${longest}`;
    t.diagnostic(line);
    if (process.env.UI_MEASUREMENTS) appendFileSync(process.env.UI_MEASUREMENTS, `${line}\n`);
  });
});

describe('may-call edges and unresolved call sites', { skip }, () => {
  let ui;
  let browser;

  before(async () => {
    const project = writeProject('dispatch-demo', {
      'src/shapes.ts': [
        'export interface Shape {', '  area(): number;', '}',
        'export class Square implements Shape {', '  area(): number {', '    return 4;', '  }', '}',
        'export class Circle implements Shape {', '  area(): number {', '    return 3;', '  }', '}', '',
      ].join('\n'),
      'src/use.ts': [
        'import type { Shape } from "./shapes";',
        'export function total(shapes: Shape[]): number {', '  let sum = 0;',
        '  for (const shape of shapes) sum += shape.area();', '  return sum;', '}',
        'export function untyped(thing: any): number {', '  return thing.area();', '}', '',
      ].join('\n'),
    });
    ui = await startUi(project);
    browser = await launch();
  });

  after(async () => {
    await browser?.close();
    ui?.stop();
  });

  test('a call through the interface is marked, and the untyped call is listed', async () => {
    const { page, problems } = await newPage(browser);
    await page.goto(ui.url);
    await page.goto(`${new URL(ui.url).origin}/#/callers?id=${encodeURIComponent('src/shapes.ts:Square.area')}`);
    await ready(page, '#tree');
    const total = page.locator('li.node[data-tier="1"][data-id="src/use.ts:total"]');
    assert.equal(await total.locator('> .row .may-call').count(), 1, 'dispatch is marked may call');
    assert.match(await page.textContent('#unresolved'), /thing\.area at src\/use\.ts:8 in src\/use\.ts:untyped/);
    assert.deepEqual(problems, []);
  });
});

describe('tsgraph ui --open', () => {
  test('hands the address with its token to the browser', async () => {
    const dir = writeProject('open-demo', { 'src/a.ts': 'export function a(): void {}\n' });
    const opened = join(tmpdir(), `tsgraph-ui-opened-${process.pid}.txt`);
    const fake = join(dir, 'fake-browser.sh');
    writeFileSync(fake, `#!/bin/sh\necho "$1" > '${opened}'\n`);
    chmodSync(fake, 0o755);
    const ui = await startUi(dir, ['--open'], { ...process.env, BROWSER: fake });
    try {
      let text = '';
      for (let i = 0; i < 100 && !text; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        try {
          text = readFileSync(opened, 'utf8').trim();
        } catch {
          // Not yet.
        }
      }
      assert.equal(text, ui.url);
    } finally {
      ui.stop();
    }
  });
});
