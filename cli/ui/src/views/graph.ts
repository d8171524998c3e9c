// Graph drawings with Cytoscape.js: nodes coloured by kind, edges labelled by kind, may-call
// edges dashed; a click on a symbol opens its page.

import cytoscape from 'cytoscape';
import { h } from '../dom';
import { go, link } from '../route';

/** A node to draw. */
export interface DrawNode {
  id: string;
  label: string;
  kind: string;
  /** Marks the nodes the question named (a path's ends, a neighbourhood's center). */
  focus?: boolean;
  /** Whether a click opens a symbol page (packages have none). */
  symbol?: boolean;
  /** Hops from the focus: the ring it is drawn on in a concentric layout (default 1). */
  level?: number;
}

/** An edge to draw. */
export interface DrawEdge {
  source: string;
  target: string;
  kind: string;
  mayCall?: boolean;
  label?: string;
}

const KIND_COLOURS: Record<string, string> = {
  File: '#8d99ae', Function: '#2a9d8f', Class: '#e76f51', Method: '#f4a261', Interface: '#6a4c93',
  TypeAlias: '#9d4edd', Variable: '#457b9d', Property: '#a8dadc', Enum: '#bc6c25', Package: '#264653',
  External: '#adb5bd',
};

/** How a drawing is laid out: in levels along the edges (paths), or in rings of hops around the focus. */
export type Layout = 'breadthfirst' | 'concentric';

function layoutOptions(layout: Layout): cytoscape.LayoutOptions {
  switch (layout) {
    case 'breadthfirst':
      return { name: 'breadthfirst', directed: true, spacingFactor: 1.2 };
    case 'concentric':
      return {
        name: 'concentric',
        concentric: (node: cytoscape.NodeSingular) => 100 - Number(node.data('level')),
        levelWidth: () => 1,
        minNodeSpacing: 40,
      };
  }
}

/** Draws a graph into a new element and returns it. */
export function drawGraph(nodes: DrawNode[], edges: DrawEdge[], layout: Layout): HTMLElement {
  const container = h('div', { class: 'graph', id: 'graph', 'data-nodes': nodes.length, 'data-edges': edges.length });
  const known = new Set(nodes.map((n) => n.id));
  // Cytoscape measures its container: draw once it is in the document.
  requestAnimationFrame(() => {
    const cy = cytoscape({
      container,
      elements: [
        ...nodes.map((n) => ({ data: { id: n.id, label: n.label, colour: KIND_COLOURS[n.kind] ?? '#555', symbol: n.symbol !== false, level: n.focus ? 0 : (n.level ?? 1) }, classes: n.focus ? 'focus' : '' })),
        ...edges
          .filter((e) => known.has(e.source) && known.has(e.target))
          .map((e, i) => ({ data: { id: `e${i}`, source: e.source, target: e.target, label: e.label ?? e.kind }, classes: e.mayCall ? 'may-call' : '' })),
      ],
      style: [
        { selector: 'node', style: { 'background-color': 'data(colour)', label: 'data(label)', 'font-size': 11, color: '#222', 'text-valign': 'bottom', 'text-margin-y': 4, width: 18, height: 18 } },
        { selector: 'node.focus', style: { 'border-width': 3, 'border-color': '#111', width: 26, height: 26 } },
        { selector: 'edge', style: { width: 1.5, 'line-color': '#999', 'target-arrow-color': '#999', 'target-arrow-shape': 'triangle', 'curve-style': 'bezier', label: 'data(label)', 'font-size': 8, color: '#666', 'text-rotation': 'autorotate' } },
        { selector: 'edge.may-call', style: { 'line-style': 'dashed' } },
      ],
      layout: layoutOptions(layout),
      // A few nodes are not blown up to fill the box.
      maxZoom: 1.6,
    });
    cy.on('tap', 'node', (event) => {
      const node = event.target;
      if (node.data('symbol')) go(link('symbol', { id: node.id() }));
    });
    container.dataset.drawn = 'true';
  });
  return container;
}
