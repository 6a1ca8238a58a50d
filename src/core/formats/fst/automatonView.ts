import { throwIfAborted } from '../../errors.js';
import type { AutomatonPanelData } from '../../views.js';
import { inputLabel, nodeFields, transitions } from './inspect.js';
import { parseKey } from './keyText.js';
import { type FstNode, NodeKind } from './node.js';
import type { FstReader } from './reader.js';

/**
 * The automaton as a picture. Small automatons (≤ 2 000 states) are drawn whole; larger ones
 * as the path of a chosen key with every transition leaving it (their targets drawn but not
 * expanded), since a picture of a million states shows nothing. Layout: states sorted by
 * address descending are a topological order (every edge points to a lower address), so one
 * pass gives each state its longest distance from the root as its column.
 */
export const MAX_DRAWN_STATES = 2000;
/** Transitions of one path state drawn in the large view; the rest are counted. */
const MAX_FANOUT = 24;

interface Drawn {
  node: FstNode;
  mark?: 'selected' | 'path';
  hidden: number;
}

/** The reachable states, or undefined when there are more than `limit`. */
async function reachable(reader: FstReader, limit: number, signal?: AbortSignal): Promise<Map<number, FstNode> | undefined> {
  const states = new Map<number, FstNode>();
  const stack = [reader.root];
  while (stack.length) {
    const addr = stack.pop()!;
    if (states.has(addr)) continue;
    if (states.size >= limit) return undefined;
    if ((states.size & 255) === 0) throwIfAborted(signal);
    const node = await reader.node(addr);
    states.set(addr, node);
    for (let i = node.ntrans - 1; i >= 0; i--) stack.push(node.target(i));
  }
  return states;
}

export async function automatonView(reader: FstReader, params: { key?: string; state?: string | number }, signal?: AbortSignal): Promise<AutomatonPanelData> {
  const whole = await reachable(reader, MAX_DRAWN_STATES, signal);
  const drawn = new Map<number, Drawn>();
  const edges: AutomatonPanelData['edges'][number][] = [];
  let note: string;
  const keyText = params.key === undefined ? '' : String(params.key);
  const path = keyText === '' && whole ? undefined : await reader.path(parseKey(keyText, { field: 'key' }));
  const onPath = new Set<string>();
  if (path) {
    for (let d = 0; d + 1 < path.nodes.length; d++) onPath.add(`${path.nodes[d]!.addr}>${path.nodes[d + 1]!.addr}`);
  }
  if (whole) {
    for (const [addr, node] of whole) drawn.set(addr, { node, hidden: 0 });
    for (const node of whole.values()) {
      for (const t of transitions(node)) edges.push(edge(node.addr, t.target, t.input, t.output, onPath));
    }
    note = `${whole.size} states`;
  } else {
    const nodes = path!.nodes;
    for (const node of nodes) drawn.set(node.addr, { node, mark: 'path', hidden: 0 });
    for (const node of nodes) {
      const list = transitions(node);
      const shown = list.slice(0, MAX_FANOUT);
      // Keep the path's own transition even past the fan-out limit.
      const next = nodes[nodes.indexOf(node) + 1];
      if (next && !shown.some((t) => t.target === next.addr)) {
        const onIt = list.find((t) => t.target === next.addr);
        if (onIt) shown.push(onIt);
      }
      drawn.get(node.addr)!.hidden = list.length - shown.length;
      for (const t of shown) {
        if (!drawn.has(t.target)) {
          const target = await reader.node(t.target);
          drawn.set(t.target, { node: target, hidden: target.ntrans });
        }
        edges.push(edge(node.addr, t.target, t.input, t.output, onPath));
      }
    }
    note =
      keyText === ''
        ? `more than ${MAX_DRAWN_STATES} states: showing the root; enter a key to draw its path`
        : `more than ${MAX_DRAWN_STATES} states: showing the path of the key (${path!.matched} of ${parseKey(keyText).length} bytes exist)${path!.matched === parseKey(keyText).length && path!.nodes[path!.nodes.length - 1]!.isFinal ? ', a key' : ''}`;
  }
  if (path && whole) note += `; the key's path is highlighted (${path.matched} bytes exist)`;

  const selected = params.state === undefined || params.state === '' ? reader.root : Number(params.state);
  let details: AutomatonPanelData['details'];
  if (Number.isSafeInteger(selected)) {
    const node = drawn.get(selected)?.node ?? (await reader.node(selected));
    details = nodeFields(node, reader.version);
    const d = drawn.get(selected);
    if (d) d.mark = 'selected';
  }

  const place = path && !whole ? pathLayout(path.nodes, edges) : treeLayout(reader.root, drawn, edges);
  const states = [...drawn.keys()].map((addr) => {
    const d = drawn.get(addr)!;
    const n = d.node;
    const at = place.get(addr) ?? { layer: 0, row: 0 };
    return {
      id: String(addr),
      label: String(addr),
      layer: at.layer,
      row: at.row,
      final: n.isFinal,
      mark: d.mark,
      offset: n.kind === NodeKind.EmptyFinal ? undefined : n.start,
      length: n.kind === NodeKind.EmptyFinal ? undefined : n.size,
      hidden: d.hidden || undefined,
    };
  });
  return { kind: 'automaton', states, edges, selectParam: 'state', note, details };
}

type Place = Map<number, { layer: number; row: number }>;

/**
 * Whole automaton: the column of a state is its longest distance from the root (addresses
 * descend along edges, so address order is a topological order); its row is the row of the
 * depth-first branch that first reached it, so a chain of single transitions stays on one line.
 */
function treeLayout(root: number, drawn: Map<number, Drawn>, edges: AutomatonPanelData['edges']): Place {
  const out = new Map<number, number[]>();
  for (const e of edges) {
    const list = out.get(Number(e.from)) ?? [];
    list.push(Number(e.to));
    out.set(Number(e.from), list);
  }
  const layer = new Map<number, number>([[root, 0]]);
  for (const addr of [...drawn.keys()].sort((a, b) => b - a)) {
    const l = layer.get(addr) ?? 0;
    for (const to of out.get(addr) ?? []) layer.set(to, Math.max(layer.get(to) ?? 0, l + 1));
  }
  const row = new Map<number, number>([[root, 0]]);
  let rows = 0;
  const visit = (addr: number) => {
    let first = true;
    for (const to of out.get(addr) ?? []) {
      if (row.has(to)) continue;
      row.set(to, first ? row.get(addr)! : ++rows);
      first = false;
      visit(to);
    }
  };
  visit(root);
  // Two states may land on one cell (a shared state placed far right): move the later one down.
  const used = new Set<string>();
  const place: Place = new Map();
  for (const addr of drawn.keys()) {
    const l = layer.get(addr) ?? 0;
    let r = row.get(addr) ?? ++rows;
    while (used.has(`${l}:${r}`)) r = ++rows;
    used.add(`${l}:${r}`);
    place.set(addr, { layer: l, row: r });
  }
  return place;
}

/** A key's path along the top row; each path state's other targets in the next column below it. */
function pathLayout(nodes: readonly FstNode[], edges: AutomatonPanelData['edges']): Place {
  const place: Place = new Map();
  nodes.forEach((n, d) => place.set(n.addr, { layer: d, row: 0 }));
  const next = new Map<number, number>();
  for (const e of edges) {
    const to = Number(e.to);
    if (place.has(to)) continue;
    const layer = place.get(Number(e.from))!.layer + 1;
    const row = (next.get(layer) ?? 0) + 1;
    next.set(layer, row);
    place.set(to, { layer, row });
  }
  return place;
}

function edge(from: number, to: number, input: number, output: string, onPath: Set<string>): AutomatonPanelData['edges'][number] {
  return {
    from: String(from),
    to: String(to),
    label: `${inputLabel(input)}${output === '0' ? '' : `/${output}`}`,
    path: onPath.has(`${from}>${to}`) || undefined,
  };
}
