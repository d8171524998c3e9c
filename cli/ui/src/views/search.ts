// Search as you type: the `search` query with its filters, results linking to symbols.

import { queryJson, type GraphNode } from '../api';
import { h, replace } from '../dom';
import { go, link, numberParam } from '../route';
import { copyBar, errorBox, place, shellWord, symbolLink } from './common';

const KINDS = ['Function', 'Class', 'Method', 'Interface', 'TypeAlias', 'Variable', 'Property', 'Enum', 'File'];

interface SearchAnswer {
  total: number;
  offset: number;
  limit: number;
  nodes: Array<GraphNode & { match?: string }>;
}

/** The search's arguments from the view's parameters. */
function argsOf(params: URLSearchParams): Record<string, unknown> {
  const kinds = (params.get('kinds') ?? '').split(',').filter((k) => KINDS.includes(k));
  // Exported only, as `--exported` asks: the CLI has no way to ask for the others alone.
  return {
    query: params.get('q') ?? '',
    ...(kinds.length > 0 ? { kinds } : {}),
    ...(params.get('file') ? { file: params.get('file') } : {}),
    ...(params.get('exported') === 'true' ? { exported: true } : {}),
    limit: numberParam(params, 'limit', 50, 1, 1000),
  };
}

function commandOf(args: Record<string, unknown>): string {
  const words = ['tsgraph', 'search', shellWord(String(args.query))];
  for (const kind of (args.kinds as string[] | undefined) ?? []) words.push('--kind', kind.replace('TypeAlias', 'type-alias').toLowerCase());
  if (args.file) words.push('--file', shellWord(String(args.file)));
  if (args.exported === true) words.push('--exported');
  words.push('--limit', String(args.limit));
  return words.join(' ');
}

/** The filters row; changing one searches again. */
function filters(params: URLSearchParams): HTMLElement {
  const chosen = new Set((params.get('kinds') ?? '').split(',').filter(Boolean));
  const update = (change: (next: URLSearchParams) => void) => {
    const next = new URLSearchParams(params);
    change(next);
    go(`#/search?${next}`, true);
  };
  const kindBoxes = KINDS.map((kind) =>
    h('label', { class: 'kind-filter' },
      h('input', {
        type: 'checkbox', value: kind, checked: chosen.has(kind), 'data-kind': kind,
        onchange: (event: Event) => update((next) => {
          const box = event.target as HTMLInputElement;
          box.checked ? chosen.add(kind) : chosen.delete(kind);
          next.set('kinds', [...chosen].join(','));
        }),
      }),
      kind,
    ),
  );
  const file = h('input', {
    type: 'text', placeholder: 'file glob (src/db/**)', value: params.get('file') ?? '', id: 'file-filter',
    onchange: (event: Event) => update((next) => next.set('file', (event.target as HTMLInputElement).value)),
  });
  const exported = h('select', {
    id: 'exported-filter',
    onchange: (event: Event) => update((next) => next.set('exported', (event.target as HTMLSelectElement).value)),
  },
  h('option', { value: '' }, 'exported or not'),
  h('option', { value: 'true', selected: params.get('exported') === 'true' }, 'exported only'),
  );
  return h('div', { class: 'filters' }, ...kindBoxes, file, exported);
}

/** Renders the search view into `view`. */
export async function searchView(view: HTMLElement, params: URLSearchParams): Promise<void> {
  const args = argsOf(params);
  const results = h('div', { class: 'results', id: 'results' });
  replace(view, h('h1', {}, 'Search'), filters(params), results);
  if (!String(args.query).trim()) {
    replace(results, h('p', { class: 'hint' }, 'Type a name in the search box above.'));
    return;
  }
  try {
    const answer = await queryJson<SearchAnswer>('search', args);
    const rows = answer.nodes.map((node) =>
      h('li', { class: 'result' },
        symbolLink(node),
        h('span', { class: 'where' }, place(node)),
        node.package ? h('span', { class: 'package' }, node.package) : null,
        node.match && node.match !== 'exact' ? h('span', { class: 'match' }, node.match) : null,
      ),
    );
    const more = answer.total > answer.nodes.length
      ? h('p', { class: 'more' }, `${answer.nodes.length} of ${answer.total} shown; `,
        h('a', { href: link('search', { ...Object.fromEntries(params), limit: Math.min(1000, Number(args.limit) * 2) }) }, 'show more'))
      : null;
    replace(results,
      h('p', { class: 'summary' }, `${answer.total} match${answer.total === 1 ? '' : 'es'}`),
      h('ul', { class: 'result-list' }, ...rows),
      more,
      copyBar({ kind: 'search', args, command: commandOf(args) }),
    );
  } catch (error) {
    replace(results, errorBox(error));
  }
}
