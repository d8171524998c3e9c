// The drawn views: a path between two symbols (k paths), a symbol's neighbourhood, and a
// package's dependencies.

import { queryJson, type GraphEdge, type GraphNode } from '../api';
import { h, replace } from '../dom';
import { go, link, numberParam } from '../route';
import { copyBar, errorBox, figure, shellWord, symbolLink } from './common';
import { drawGraph, type DrawEdge, type DrawNode } from './graph';

interface PathAnswer {
  from: GraphNode;
  to: GraphNode;
  found: boolean;
  paths: Array<{ nodes: GraphNode[]; edges: Array<GraphEdge & { mayCall?: boolean }> }>;
  complete: boolean;
  truncated: boolean;
}

interface NeighborAnswer {
  center: GraphNode;
  distance: number;
  nodes: GraphNode[];
  edges: Array<GraphEdge & { mayCall?: boolean }>;
  complete: boolean;
  truncated: boolean;
}

interface DepsAnswer {
  package: string;
  direction: 'in' | 'out';
  summary: { direct: number; transitive: number; packages: number; external: number; files: number };
  packages: Array<{ name: string; external: boolean; depth: number; via: string; imports: number }>;
  complete: boolean;
  truncated: boolean;
}

function symbolNodes(nodes: GraphNode[], focus: Set<string>): DrawNode[] {
  const seen = new Map<string, DrawNode>();
  for (const n of nodes) {
    seen.set(n.id, { id: n.id, label: n.kind === 'File' ? n.id : n.name, kind: n.kind, focus: focus.has(n.id), level: n.distance ?? 1 });
  }
  return [...seen.values()];
}

/** A form whose submit goes to a view with the fields' values. */
function form(view: string, fields: Array<{ name: string; label: string; value: string; size?: number }>, extra: Record<string, string> = {}): HTMLElement {
  const inputs = fields.map((f) => h('input', { name: f.name, value: f.value, size: f.size ?? 40, id: `field-${f.name}`, spellcheck: 'false' }));
  return h('form', {
    class: 'question',
    onsubmit: (event: Event) => {
      event.preventDefault();
      const values: Record<string, string> = { ...extra };
      inputs.forEach((input) => (values[input.name] = input.value.trim()));
      go(link(view, values));
    },
  }, ...fields.flatMap((f, i) => [h('label', { for: `field-${f.name}` }, f.label), inputs[i]!]),
  h('button', { type: 'submit', id: `${view}-go` }, 'Show'));
}

/** Renders the k shortest paths between two symbols into `view`. */
export async function pathView(view: HTMLElement, params: URLSearchParams): Promise<void> {
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const k = numberParam(params, 'k', 3, 1, 20);
  const body = h('div', { class: 'path', id: 'path' });
  replace(view, h('h1', {}, 'Path'),
    form('path', [{ name: 'from', label: 'From', value: from }, { name: 'to', label: 'To', value: to }, { name: 'k', label: 'Paths', value: String(k), size: 3 }]),
    body);
  if (!from || !to) {
    replace(body, h('p', { class: 'hint' }, 'Give both ends: node IDs or names.'));
    return;
  }
  try {
    const answer = await queryJson<PathAnswer>('path', { from, to, k });
    const nodes = symbolNodes(answer.paths.flatMap((p) => p.nodes), new Set([answer.from.id, answer.to.id]));
    const edges: DrawEdge[] = answer.paths.flatMap((p) => p.edges.map((e) => ({ ...e })));
    replace(body,
      h('p', {}, symbolLink(answer.from), ' → ', symbolLink(answer.to), ': ',
        answer.found ? `${answer.paths.length} path${answer.paths.length === 1 ? '' : 's'}` : 'no path within the bounds',
        answer.truncated ? h('span', { class: 'cut' }, ' (the search was cut at maxNodes)') : null),
      answer.found ? drawGraph(nodes, edges, 'breadthfirst') : null,
      h('ol', { class: 'paths' }, ...answer.paths.map((p) => h('li', {}, ...p.nodes.flatMap((n, i) => [i > 0 ? ' → ' : '', symbolLink(n)])))),
      copyBar({ kind: 'path', args: { from: answer.from.id, to: answer.to.id, k }, command: `tsgraph path ${shellWord(answer.from.id)} ${shellWord(answer.to.id)} --k ${k}` }),
    );
    body.dataset.ready = 'true';
  } catch (error) {
    replace(body, errorBox(error));
  }
}

/** Renders the neighbourhood of a symbol into `view`. */
export async function neighborsView(view: HTMLElement, params: URLSearchParams): Promise<void> {
  const id = params.get('id') ?? '';
  const distance = numberParam(params, 'distance', 1, 1, 5);
  const direction = ['in', 'out', 'both'].includes(params.get('direction') ?? '') ? params.get('direction')! : 'both';
  const maxNodes = numberParam(params, 'maxNodes', 300, 1, 5000);
  const body = h('div', { class: 'neighbors', id: 'neighbors' });
  replace(view, h('h1', {}, 'Neighbourhood'), body);
  try {
    const answer = await queryJson<NeighborAnswer>('neighbors', { symbol: id, distance, direction, maxNodes });
    const nodes = symbolNodes([answer.center, ...answer.nodes], new Set([answer.center.id]));
    const choose = (name: string, values: string[], chosen: string) => h('select', {
      id: `neighbors-${name}`,
      onchange: (event: Event) => go(link('neighbors', { id: answer.center.id, distance, direction, maxNodes, [name]: (event.target as HTMLSelectElement).value })),
    }, ...values.map((v) => h('option', { value: v, selected: v === chosen }, v)));
    replace(body,
      h('p', {}, 'Around ', symbolLink(answer.center), ' — distance ', choose('distance', ['1', '2', '3', '4', '5'], String(distance)),
        ' direction ', choose('direction', ['both', 'in', 'out'], direction)),
      h('p', { class: 'summary' }, figure(answer.nodes.length, 'nodes'), figure(answer.edges.length, 'edges'),
        answer.truncated ? h('span', { class: 'figure cut' }, `cut at ${maxNodes} nodes`) : null),
      drawGraph(nodes, answer.edges, 'concentric'),
      copyBar({ kind: 'neighbors', args: { symbol: answer.center.id, distance, direction, maxNodes }, command: `tsgraph neighbors ${shellWord(answer.center.id)} --distance ${distance} --direction ${direction} --max-nodes ${maxNodes}` }),
    );
    body.dataset.ready = 'true';
  } catch (error) {
    replace(body, errorBox(error));
  }
}

/** Renders a package's dependencies into `view`. */
export async function depsView(view: HTMLElement, params: URLSearchParams): Promise<void> {
  const pkg = params.get('package') ?? '';
  const direction = params.get('direction') === 'in' ? 'in' : 'out';
  const body = h('div', { class: 'deps', id: 'deps' });
  replace(view, h('h1', {}, 'Package dependencies'),
    form('deps', [{ name: 'package', label: 'Package', value: pkg }], { direction }), body);
  if (!pkg) {
    replace(body, h('p', { class: 'hint' }, 'Name a package (its package.json name).'));
    return;
  }
  try {
    const answer = await queryJson<DepsAnswer>('packageDeps', { package: pkg, direction });
    const nodes: DrawNode[] = [
      { id: answer.package, label: answer.package, kind: 'Package', focus: true, symbol: false },
      ...answer.packages.map((p) => ({ id: p.name, label: p.name, kind: p.external ? 'External' : 'Package', symbol: false, level: p.depth })),
    ];
    const edges: DrawEdge[] = answer.packages.map((p) => direction === 'out'
      ? { source: p.via, target: p.name, kind: 'IMPORTS', label: `${p.imports}` }
      : { source: p.name, target: p.via, kind: 'IMPORTS', label: `${p.imports}` });
    const s = answer.summary;
    replace(body,
      h('p', {}, h('a', { href: link('deps', { package: pkg, direction: direction === 'out' ? 'in' : 'out' }), id: 'deps-flip' },
        direction === 'out' ? 'Show who depends on it' : 'Show what it depends on')),
      h('p', { class: 'summary' }, figure(s.direct, 'direct'), figure(s.transitive, 'transitive'),
        figure(s.external, 'outside'), figure(s.files, 'files importing')),
      drawGraph(nodes, edges, 'concentric'),
      copyBar({ kind: 'packageDeps', args: { package: answer.package, direction }, command: `tsgraph deps ${shellWord(answer.package)} --direction ${direction}` }),
    );
    body.dataset.ready = 'true';
  } catch (error) {
    replace(body, errorBox(error));
  }
}
