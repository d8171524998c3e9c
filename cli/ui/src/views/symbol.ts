// A symbol's page: what it is, where, its source lines, and the ways on to the other views.

import { get } from '../api';
import { h, replace } from '../dom';
import { link } from '../route';
import { errorBox, kindLetter, symbolLink } from './common';

interface TypeUses {
  total: number;
  listed: Array<{ id: string; name: string; kind: string; edge: string }>;
}

interface SymbolDetails {
  symbol: {
    id: string; name: string; kind: string; file: string; startLine: number; endLine: number;
    signature: string; module: string; package: string; exported: boolean;
  };
  source: { first: number; lines: string[]; cut: boolean; error?: string };
  callers: number;
  callees: number;
  supertypes: TypeUses;
  subtypes: TypeUses;
}

function typeList(title: string, uses: TypeUses): HTMLElement | null {
  if (uses.total === 0) return null;
  return h('section', { class: 'types' },
    h('h2', {}, `${title} (${uses.total})`),
    h('ul', {}, ...uses.listed.map((use) => h('li', {}, symbolLink(use), h('span', { class: 'edge' }, use.edge)))),
    uses.total > uses.listed.length ? h('p', { class: 'more' }, `${uses.total - uses.listed.length} more not listed`) : null,
  );
}

/** The source lines with their numbers. */
function sourceBlock(details: SymbolDetails): HTMLElement {
  const { first, lines, cut, error } = details.source;
  if (error) return h('section', {}, h('h2', {}, 'Source'), h('p', { class: 'error' }, `The source cannot be read now: ${error}`));
  const code = h('pre', { class: 'source', id: 'source' });
  lines.forEach((line, i) => {
    code.append(h('span', { class: 'line' }, h('span', { class: 'number' }, String(first + i)), line), '\n');
  });
  return h('section', {},
    h('h2', {}, 'Source'),
    code,
    cut ? h('p', { class: 'more' }, `the first ${lines.length} lines of ${details.symbol.endLine - first + 1}`) : null,
  );
}

/** Renders a symbol's page into `view`. */
export async function symbolView(view: HTMLElement, params: URLSearchParams): Promise<void> {
  const id = params.get('id') ?? '';
  try {
    const details = await get<SymbolDetails>('/api/symbol', { id });
    const s = details.symbol;
    const actions = h('nav', { class: 'actions' },
      h('a', { href: link('callers', { id: s.id }), id: 'to-callers' }, `Callers (${details.callers})`),
      h('a', { href: link('callees', { id: s.id }), id: 'to-callees' }, `Callees (${details.callees})`),
      h('a', { href: link('impact', { id: s.id }), id: 'to-impact' }, 'Impact'),
      h('a', { href: link('neighbors', { id: s.id }), id: 'to-neighbors' }, 'Neighbourhood'),
      h('a', { href: link('path', { from: s.id }), id: 'to-path' }, 'Path from here'),
      s.package ? h('a', { href: link('deps', { package: s.package }), id: 'to-deps' }, `Package ${s.package}`) : null,
    );
    replace(view,
      h('h1', { class: 'symbol-title' }, h('span', { class: `kind kind-${s.kind}` }, kindLetter(s.kind)), s.name,
        h('span', { class: 'kind-name' }, s.kind)),
      h('p', { class: 'id' }, s.id),
      s.signature ? h('p', { class: 'signature' }, h('code', {}, `${s.name}${s.signature}`)) : null,
      h('dl', { class: 'facts' },
        h('dt', {}, 'File'), h('dd', {}, `${s.file}, lines ${s.startLine}–${s.endLine}`),
        h('dt', {}, 'Package'), h('dd', {}, s.package || '(none)'),
        h('dt', {}, 'Module'), h('dd', {}, s.module),
        h('dt', {}, 'Exported'), h('dd', {}, s.exported ? 'yes' : 'no'),
      ),
      actions,
      typeList('Supertypes', details.supertypes),
      typeList('Subtypes', details.subtypes),
      sourceBlock(details),
    );
  } catch (error) {
    replace(view, errorBox(error));
  }
}
