// The page: a search box, the view the address names, and a live note when the graph
// changes (the server watches the project's files and tells the page over server-sent
// events; the open view asks its question again).

import { get } from './api';
import { h, replace } from './dom';
import { current, go, link } from './route';
import { errorBox } from './views/common';
import { depsView, neighborsView, pathView } from './views/drawn';
import { impactView } from './views/impact';
import { searchView } from './views/search';
import { symbolView } from './views/symbol';
import { treeView } from './views/tree';

type View = (view: HTMLElement, params: URLSearchParams) => Promise<void>;

const VIEWS: Record<string, View> = {
  search: searchView,
  symbol: symbolView,
  callers: (view, params) => treeView(view, params, 'callers'),
  callees: (view, params) => treeView(view, params, 'callees'),
  impact: impactView,
  path: pathView,
  neighbors: neighborsView,
  deps: depsView,
};

function element(id: string): HTMLElement {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the page has no #${id}`);
  return found;
}

/**
 * Shows the view the address names. Each showing draws into an element of its own, put in
 * place at once: a slower answer to an older address lands in an element no longer shown.
 */
let rendering = 0;
async function render(): Promise<void> {
  const ticket = ++rendering;
  const route = current();
  const view = element('view');
  const show = VIEWS[route.view];
  const search = element('search') as HTMLInputElement;
  if (route.view === 'search' && document.activeElement !== search) search.value = route.params.get('q') ?? '';
  view.dataset.view = route.view || 'home';
  view.dataset.ready = 'false';
  const body = h('div', { class: 'view-body' });
  replace(view, body);
  if (!show) {
    replace(body, h('h1', {}, 'Look at the code graph'),
      h('p', {}, 'Search for a symbol above, then open its callers, callees, impact, neighbourhood or a path to another symbol. Every view has its own address: bookmark it or share it within this session.'));
  } else {
    try {
      await show(body, route.params);
    } catch (error) {
      replace(body, errorBox(error));
    }
  }
  if (ticket === rendering) view.dataset.ready = 'true';
}

/** Search as you type: each keystroke (after a short pause) replaces the search view. */
function wireSearch(): void {
  const search = element('search') as HTMLInputElement;
  let timer: number | undefined;
  search.addEventListener('input', () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => {
      const params = current().view === 'search' ? current().params : new URLSearchParams();
      params.set('q', search.value);
      const replaceHistory = current().view === 'search';
      go(`#/search?${params}`, replaceHistory);
    }, 120);
  });
  search.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      const first = document.querySelector<HTMLAnchorElement>('#results a.symbol');
      if (first) go(first.getAttribute('href') ?? link('search'));
    }
  });
}

/** A short description of a graph update. */
function describe(update: Record<string, unknown>): string {
  const list = (name: string) => (Array.isArray(update[name]) ? (update[name] as unknown[]) : []);
  switch (update.kind) {
    case 'edit': {
      const files = list('paths').join(', ');
      const counts = [
        ['nodesAdded', 'nodes added'], ['nodesRemoved', 'removed'], ['nodesChanged', 'changed'],
        ['edgesAdded', 'edges added'], ['edgesRemoved', 'removed'],
      ].map(([name, label]) => `${list(name!).length} ${label}`).join(', ');
      return `${files} changed: ${counts}`;
    }
    case 'sync':
      return `the project was compared with the store (${list('because').join(', ')}): ${list('added').length} files added, ${list('changed').length} changed, ${list('removed').length} removed`;
    case 'failed':
      return `an update failed (the graph of before stays): ${String(update.message)}`;
    default:
      return 'the graph changed';
  }
}

/** Follows the server's updates: a note of what changed, and the view asked again. */
function wireLive(): void {
  const note = element('note');
  const live = element('live');
  const events = new EventSource('/api/events');
  let updates = 0;
  events.addEventListener('open', () => (live.textContent = 'live'));
  events.addEventListener('error', () => {
    // A refused stream (the server restarted: a new session) is not retried by the browser.
    live.textContent = events.readyState === EventSource.CLOSED
      ? 'not live: start tsgraph ui again and open the address it prints'
      : 'reconnecting…';
  });
  // Updates in a burst (a save touching several files) show the view once.
  let pending: number | undefined;
  const refresh = (text: string) => {
    updates += 1;
    note.hidden = false;
    note.dataset.updates = String(updates);
    replace(note, h('b', {}, 'Graph updated: '), text, ' — the view shows the new graph.');
    window.clearTimeout(pending);
    pending = window.setTimeout(() => void render(), 150);
  };
  events.addEventListener('update', (event) => {
    let update: Record<string, unknown> = {};
    try {
      update = JSON.parse((event as MessageEvent<string>).data);
    } catch {
      // An update we cannot read still means the graph changed.
    }
    refresh(describe(update));
  });
  events.addEventListener('lagged', () => refresh('several updates arrived at once'));
}

async function start(): Promise<void> {
  wireSearch();
  wireLive();
  window.addEventListener('hashchange', () => void render());
  try {
    const info = await get<{ name: string; root: string }>('/api/info');
    const project = element('project');
    project.textContent = info.name;
    project.title = info.root;
    document.title = `tsgraph — ${info.name}`;
  } catch {
    // The views say what is wrong.
  }
  await render();
}

void start();
