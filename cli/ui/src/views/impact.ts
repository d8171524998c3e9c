// Impact: everything that depends on a symbol, grouped by package and file, with totals.

import { queryJson, type GraphNode } from '../api';
import { h, replace } from '../dom';
import { numberParam } from '../route';
import { copyBar, errorBox, figure, shellWord, symbolLink } from './common';

interface ImpactAnswer {
  symbol: GraphNode;
  summary: { direct: number; transitive: number; files: number; packages: number; maxDepth: number };
  nodes: GraphNode[];
  complete: boolean;
  truncated: boolean;
}

/** Nodes grouped by package, then by file, each group sorted by name. */
function grouped(nodes: GraphNode[]): Map<string, Map<string, GraphNode[]>> {
  const packages = new Map<string, Map<string, GraphNode[]>>();
  for (const node of nodes) {
    const pkg = node.package || '(no package)';
    const files = packages.get(pkg) ?? new Map<string, GraphNode[]>();
    packages.set(pkg, files);
    const list = files.get(node.file) ?? [];
    files.set(node.file, list);
    list.push(node);
  }
  return new Map([...packages].sort(([a], [b]) => a.localeCompare(b)));
}

/** Renders the impact of the symbol into `view`. */
export async function impactView(view: HTMLElement, params: URLSearchParams): Promise<void> {
  const id = params.get('id') ?? '';
  const maxDepth = numberParam(params, 'depth', 100, 1, 1000);
  const body = h('div', { class: 'impact', id: 'impact' });
  replace(view, h('h1', {}, 'Impact'), body);
  try {
    const answer = await queryJson<ImpactAnswer>('impact', { symbol: id, maxDepth });
    const s = answer.summary;
    const sections = [...grouped(answer.nodes)].map(([pkg, files]) => {
      const count = [...files.values()].reduce((sum, list) => sum + list.length, 0);
      return h('details', { class: 'package-group', open: true },
        h('summary', {}, h('b', {}, pkg), ` ${count} symbols in ${files.size} files`),
        ...[...files].sort(([a], [b]) => a.localeCompare(b)).map(([file, list]) =>
          h('details', { class: 'file-group', open: files.size <= 20 },
            h('summary', {}, file, h('span', { class: 'count' }, ` ${list.length}`)),
            h('ul', {}, ...list
              .sort((a, b) => (a.depth ?? 0) - (b.depth ?? 0) || a.startLine - b.startLine)
              .map((node) => h('li', {}, symbolLink(node), h('span', { class: 'tier' }, `d${node.depth ?? '?'}`),
                h('span', { class: 'where' }, `line ${node.startLine}`)))),
          )),
      );
    });
    replace(body,
      h('p', {}, 'What may break if ', symbolLink(answer.symbol), ' changes:'),
      h('p', { class: 'summary' },
        figure(s.direct, 'direct'), figure(s.transitive, 'transitive'), figure(s.files, 'files'),
        figure(s.packages, 'packages'), figure(s.maxDepth, 'deepest'),
        answer.truncated ? h('span', { class: 'figure cut' }, 'cut at maxNodes: totals are lower bounds') : null,
      ),
      ...sections,
      copyBar({ kind: 'impact', args: { symbol: answer.symbol.id, maxDepth }, command: `tsgraph impact ${shellWord(answer.symbol.id)} --max-depth ${maxDepth}` }),
    );
    body.dataset.ready = 'true';
  } catch (error) {
    replace(body, errorBox(error));
  }
}
