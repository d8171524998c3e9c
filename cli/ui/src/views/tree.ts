// Callers and callees as expandable trees: one level per depth tier, each node with the
// count of its own branch, may-call edges marked, cycles not expanded again, and the call
// sites the graph could not resolve listed under the tree.

import { get, queryJson, type GraphNode } from '../api';
import { h, replace } from '../dom';
import { link, numberParam } from '../route';
import { copyBar, errorBox, figure, place, shellWord, symbolLink } from './common';

/** A node of `/api/tree`'s answer. */
interface TreeNode {
  id: string; name: string; kind: string; file: string; startLine: number; endLine: number;
  signature: string;
  total: number;
  children?: TreeNode[];
  edge?: string;
  lines?: number[];
  mayCall?: boolean;
  cycle?: boolean;
}

interface TreeAnswer {
  direction: 'callers' | 'callees';
  depth: number;
  limit: number;
  nodes: number;
  cut: string | null;
  root: TreeNode;
}

interface UnresolvedSite {
  file: string; line: number; call: string; caller: string; candidates?: string[]; candidateCount?: number;
}

interface TraversalAnswer {
  symbol: GraphNode;
  summary: {
    direct: number; transitive: number; files: number; packages: number; maxDepth: number;
    unresolved?: number; unresolvedSites?: UnresolvedSite[];
  };
  complete: boolean;
  truncated: boolean;
  deeperThan?: number;
}

/** The depth one answer of the tree expands. */
const TREE_DEPTH = 2;

/** One node's row and, below it, its children (`shallow`: the row only, the children later). */
function nodeItem(node: TreeNode, tier: number, direction: TreeAnswer['direction'], limit: number, shallow = false): HTMLElement {
  const noun = direction === 'callers' ? 'caller' : 'callee';
  const item = h('li', { class: `node tier-${Math.min(tier, 6)}`, 'data-id': node.id, 'data-tier': tier });
  const childrenList = h('ul', { class: 'children' });
  const expandable = node.total > 0 && !node.cycle;
  const toggle = h('button', {
    type: 'button', class: 'toggle', 'aria-label': 'expand', disabled: !expandable,
    'aria-expanded': node.children ? 'true' : 'false',
  }, expandable ? (node.children ? '▾' : '▸') : '·');
  toggle.addEventListener('click', async () => {
    if (item.dataset.loaded === 'true' || node.children) {
      const open = toggle.getAttribute('aria-expanded') !== 'true';
      toggle.setAttribute('aria-expanded', String(open));
      toggle.textContent = open ? '▾' : '▸';
      childrenList.hidden = !open;
      return;
    }
    toggle.textContent = '…';
    try {
      const answer = await get<TreeAnswer>('/api/tree', { symbol: node.id, direction, depth: 1, limit });
      fillChildren(childrenList, answer.root, tier + 1, direction, limit);
      item.dataset.loaded = 'true';
      toggle.setAttribute('aria-expanded', 'true');
      toggle.textContent = '▾';
    } catch (error) {
      toggle.textContent = '▸';
      childrenList.replaceChildren(h('li', {}, errorBox(error)));
    }
  });
  const row = h('div', { class: 'row' },
    toggle,
    h('span', { class: 'tier', title: `depth ${tier}` }, `d${tier}`),
    symbolLink(node),
    h('span', { class: 'where' }, place(node)),
    node.lines && node.lines.length > 0
      ? h('span', { class: 'sites', title: 'the lines of the calls' }, `${node.edge === 'INCLUDES' ? 'renders' : 'calls'} at ${node.lines.join(', ')}`)
      : null,
    node.edge && node.edge !== 'CALLS' ? h('span', { class: 'edge' }, node.edge) : null,
    node.mayCall ? h('span', { class: 'may-call', title: 'the call may happen: dispatch to an override or implementation, or a table entry called by a computed key' }, 'may call') : null,
    node.cycle ? h('span', { class: 'cycle', title: 'already on the way up: not expanded again' }, 'cycle') : null,
    h('span', { class: 'count', title: `${noun}s of ${node.name}` }, `${node.total} ${noun}${node.total === 1 ? '' : 's'}`),
  );
  item.append(row, childrenList);
  if (node.children && !shallow) fillChildren(childrenList, node, tier + 1, direction, limit);
  return item;
}

/** Lists `parent`'s children into `list`, with a note of those not listed. */
function fillChildren(list: HTMLElement, parent: TreeNode, tier: number, direction: TreeAnswer['direction'], limit: number): void {
  const fragment = document.createDocumentFragment();
  for (const child of parent.children ?? []) fragment.append(nodeItem(child, tier, direction, limit));
  list.replaceChildren(fragment);
  appendNotListed(list, parent, limit);
}

function appendNotListed(list: HTMLElement, parent: TreeNode, limit: number): void {
  const listed = parent.children?.length ?? 0;
  if (parent.total > listed) {
    list.append(h('li', { class: 'more' }, `${parent.total - listed} more not listed (at most ${limit} per node)`));
  }
}

/** Nodes built per task when a large tree is shown: the page stays responsive meanwhile. */
const NODES_PER_TASK = 300;

/** Nodes in a subtree. */
function size(node: TreeNode): number {
  return 1 + (node.children ?? []).reduce((sum, child) => sum + size(child), 0);
}

/**
 * Like `fillChildren`, for a tree of any size: the children are appended a slice at a time,
 * one task each, so no single task builds thousands of rows.
 */
async function fillChildrenInSlices(list: HTMLElement, parent: TreeNode, tier: number, direction: TreeAnswer['direction'], limit: number): Promise<void> {
  list.replaceChildren();
  let fragment = document.createDocumentFragment();
  let built = 0;
  for (const child of parent.children ?? []) {
    fragment.append(nodeItem(child, tier, direction, limit));
    built += size(child);
    if (built >= NODES_PER_TASK) {
      list.append(fragment);
      fragment = document.createDocumentFragment();
      built = 0;
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }
  list.append(fragment);
  appendNotListed(list, parent, limit);
}
function unresolvedList(sites: UnresolvedSite[] | undefined, count: number | undefined): HTMLElement | null {
  if (!count) return null;
  return h('section', { class: 'unresolved', id: 'unresolved' },
    h('h2', {}, `Unresolved call sites that may reach it (${count})`),
    h('ul', {}, ...(sites ?? []).map((site) => h('li', {},
      h('code', {}, site.call), ` at ${site.file}:${site.line} in `,
      h('a', { href: link('symbol', { id: site.caller }) }, site.caller),
      site.candidateCount ? h('span', { class: 'where' }, ` (${site.candidateCount} candidates)`) : null,
    ))),
  );
}

/** Renders the callers or callees tree of the symbol into `view`. */
export async function treeView(view: HTMLElement, params: URLSearchParams, direction: TreeAnswer['direction']): Promise<void> {
  const id = params.get('id') ?? '';
  const limit = numberParam(params, 'limit', 1000, 1, 10000);
  const body = h('div', { class: 'tree', id: 'tree' });
  replace(view, h('h1', {}, direction === 'callers' ? 'Callers' : 'Callees'), body);
  try {
    const [tree, traversal] = await Promise.all([
      get<TreeAnswer>('/api/tree', { symbol: id, direction, depth: TREE_DEPTH, limit }),
      queryJson<TraversalAnswer>(direction, { symbol: id, maxDepth: TREE_DEPTH, maxTokens: 400 }),
    ]);
    const s = traversal.summary;
    const rootItem = nodeItem(tree.root, 0, direction, limit, true);
    const rootList = h('ul', { class: 'root' }, rootItem);
    replace(body,
      h('p', { class: 'summary' },
        figure(s.direct, 'direct'), figure(s.transitive, `within depth ${TREE_DEPTH}`), figure(s.files, 'files'),
        figure(s.packages, 'packages'),
        traversal.deeperThan ? h('span', { class: 'figure' }, `more lie deeper than ${traversal.deeperThan}: expand a node`) : null,
        traversal.truncated ? h('span', { class: 'figure cut' }, 'cut at maxNodes') : null,
      ),
      tree.cut ? h('p', { class: 'cut' }, tree.cut) : null,
      rootList,
      unresolvedList(s.unresolvedSites, s.unresolved),
      copyBar({
        kind: direction,
        args: { symbol: tree.root.id, maxDepth: TREE_DEPTH },
        command: `tsgraph ${direction} ${shellWord(tree.root.id)} --max-depth ${TREE_DEPTH}`,
      }),
    );
    const children = rootItem.querySelector<HTMLElement>(':scope > ul.children');
    if (children) await fillChildrenInSlices(children, tree.root, 1, direction, limit);
    body.dataset.ready = 'true';
  } catch (error) {
    replace(body, errorBox(error));
  }
}
