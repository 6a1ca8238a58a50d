import { hexBytes, range } from '../../describe.js';
import { type FormatError, rethrowUnlessFormatError } from '../../errors.js';
import type { Field, LazyChildren, StructNode } from '../../model.js';
import type { FieldsPanelData } from '../../views.js';
import { escapeKey } from './keyText.js';
import { type FstNode, KIND_NAMES, NodeKind, toDecimal, u64 } from './node.js';
import type { FstReader } from './reader.js';

/**
 * Nodes as people inspect them: the fields of one node (what `fst node ADDR` prints, plus
 * where each byte is), the automaton as a lazily expanded tree, and Graphviz `dot` in the
 * form `fst dot` writes.
 */
export interface TransitionInfo {
  readonly index: number;
  readonly input: number;
  readonly output: string;
  readonly target: number;
}

export function transitions(node: FstNode): TransitionInfo[] {
  const out: TransitionInfo[] = [];
  for (let i = 0; i < node.ntrans; i++) {
    node.output(i);
    const output = toDecimal(u64.hi, u64.lo);
    out.push({ index: i, input: node.input(i), output, target: node.target(i) });
  }
  return out;
}

export function inputLabel(b: number): string {
  return escapeKey(Uint8Array.of(b));
}

export function nodeSummary(node: FstNode): string {
  if (node.kind === NodeKind.EmptyFinal) return 'EMPTY (final, no transitions; never stored)';
  const parts = [KIND_NAMES[node.kind], node.isFinal ? 'final' : undefined, `${node.ntrans} transition${node.ntrans === 1 ? '' : 's'}`];
  if (node.isFinal && (node.finalHi || node.finalLo)) parts.push(`final output ${toDecimal(node.finalHi, node.finalLo)}`);
  return parts.filter(Boolean).join(', ');
}

/** The inspector: every field of one node, with the bytes it came from. */
export function nodeFields(node: FstNode, version: number): FieldsPanelData['groups'] {
  if (node.kind === NodeKind.EmptyFinal) {
    return [{ title: 'node @0', fields: [{ name: 'kind', value: 'EMPTY: address 0 is the final node with no transitions; it is never written' }] }];
  }
  const at = (offset: number, length: number) => ({ offset, length });
  const fields = [
    { name: 'address (state byte)', value: `${node.addr} (0x${node.addr.toString(16)})`, ...at(node.addr, 1) },
    { name: 'kind', value: `${KIND_NAMES[node.kind]} (state byte 0x${node.raw()[node.size - 1]!.toString(16).padStart(2, '0')})`, ...at(node.addr, 1) },
    { name: 'first byte', value: String(node.start) },
    { name: 'size', value: `${node.size} bytes`, ...at(node.start, node.size) },
    { name: 'final', value: node.isFinal ? 'yes' : 'no' },
    { name: 'final output', value: toDecimal(node.finalHi, node.finalLo) },
    { name: 'transitions', value: String(node.ntrans) },
  ];
  if (node.kind !== NodeKind.OneTransNext) {
    fields.push({
      name: 'packed sizes',
      value: `delta ${node.tsize} byte${node.tsize === 1 ? '' : 's'}, output ${node.osize} byte${node.osize === 1 ? '' : 's'}`,
    });
  }
  if (node.kind === NodeKind.AnyTrans) {
    fields.push({
      name: 'index',
      value: node.indexAt >= 0 ? `256 bytes at ${node.indexAt}` : version >= 2 ? 'none (32 transitions or fewer)' : 'none (format version 1)',
    });
  }
  fields.push({ name: 'raw bytes', value: hexBytes(node.raw(), 512), ...at(node.start, node.size) });
  const trans = transitions(node).map((t) => ({
    name: `${t.index}: ${inputLabel(t.input)} (0x${t.input.toString(16).padStart(2, '0')})`,
    value: `→ ${t.target === 0 ? '0 (EMPTY)' : t.target}${t.output === '0' ? '' : `, output ${t.output}`}`,
  }));
  return [
    { title: `node @${node.addr}`, fields },
    { title: 'transitions', fields: trans },
  ];
}

/**
 * A node as a tree entry whose children are its transitions, each opening its target, down to
 * `depth` levels: the tree (and the text dump, which expands every level) stays small however
 * many keys the fst holds; deeper states are for the Automaton and Node views.
 */
export function nodeTree(reader: FstReader, node: FstNode, label: string, depth = 2): StructNode {
  const children: LazyChildren = {
    lazy: true,
    count: () => node.ntrans,
    load: async (from, count) => {
      const out: StructNode[] = [];
      for (const t of transitions(node).slice(from, from + count)) {
        const target = await reader.node(t.target);
        const edge = `${inputLabel(t.input)}${t.output === '0' ? '' : ` /${t.output}`} → @${t.target}`;
        out.push(
          depth > 1
            ? nodeTree(reader, target, edge, depth - 1)
            : { label: edge, value: nodeSummary(target), range: target.kind === NodeKind.EmptyFinal ? undefined : range(target.start, target.size) },
        );
      }
      return out;
    },
  };
  return {
    label,
    value: nodeSummary(node),
    range: node.kind === NodeKind.EmptyFinal ? undefined : range(node.start, node.size),
    children: node.ntrans ? children : undefined,
  };
}

/** Fields for the summary and info. */
export function nodeSummaryField(name: string, node: FstNode): Field {
  return {
    name,
    value: node.addr,
    display: `@${node.addr}: ${nodeSummary(node)}`,
    range: node.kind === NodeKind.EmptyFinal ? undefined : range(node.start, node.size),
  };
}

// ---- Graphviz ----

/** Escapes an input byte the way Rust's `ascii::escape_default` does (fst dot labels). */
function dotInput(b: number): string {
  if (b === 0x09) return '\\t';
  if (b === 0x0a) return '\\n';
  if (b === 0x0d) return '\\r';
  if (b === 0x5c) return '\\\\';
  if (b === 0x27) return "\\'";
  if (b === 0x22) return '\\"';
  if (b >= 0x20 && b <= 0x7e) return String.fromCharCode(b);
  return `\\x${b.toString(16).padStart(2, '0')}`;
}

const DOT_HEAD = '\n    digraph automaton {\n        labelloc="l";\n        labeljust="l";\n        rankdir="LR";\n    \n';

/**
 * Writes the automaton as `fst dot` does, byte for byte: states in depth-first order (last
 * transition first), `peripheries=2` for final states, edges labelled `input/output`.
 */
export async function writeDot(
  reader: FstReader,
  write: (text: string) => Promise<void> | void,
  signal?: AbortSignal,
  /** Salvage (converters): a state that does not decode is reported here and left out; without it, it throws. */
  onDamaged?: (e: FormatError, addr: number) => void,
): Promise<number> {
  let text = DOT_HEAD;
  const stack = [reader.root];
  const seen = new Set<number>();
  while (stack.length) {
    const addr = stack.pop()!;
    if (seen.has(addr)) continue;
    seen.add(addr);
    if (seen.size % 4096 === 0) {
      if (signal?.aborted) break;
      await write(text);
      text = '';
    }
    let node: FstNode;
    let edges: TransitionInfo[];
    try {
      node = await reader.node(addr);
      edges = transitions(node);
    } catch (e) {
      if (onDamaged === undefined) throw e;
      rethrowUnlessFormatError(e, 'cancelled');
      onDamaged(e, addr);
      continue;
    }
    text += `    ${addr} [label=""${node.isFinal ? ',peripheries=2' : ''}];\n`;
    for (const t of edges) {
      text += `    ${addr} -> ${t.target} [label="${dotInput(t.input)}${t.output === '0' ? '' : `/${t.output}`}"];\n`;
      stack.push(t.target);
    }
  }
  await write(`${text}}\n`);
  return seen.size;
}
