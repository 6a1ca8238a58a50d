import { FormatError } from '../../../errors.js';
import { RunBuffer, type Plan } from '../plan.js';

/**
 * A reference plan from a file: a JSON list of district labels (node i → district), a JSON
 * object with an `assignment` list (one line of cat's JSONL), or a JSONL file of exactly one such
 * line. Labels are integers 0..65535, as BEN stores them.
 */
export function parseReferencePlan(text: string, field = 'reference'): Plan {
  return new RunBuffer().fromAssignment(referenceAssignment(text, field));
}

/** The list parseReferencePlan reads, checked. */
function referenceAssignment(text: string, field: string): number[] {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  // Several lines that each open an object are JSONL plans (a pretty-printed object's do not all).
  if (lines.length > 1 && lines.every((l) => l.trim().startsWith('{')))
    throw new FormatError('corrupt', `${lines.length} plans; a reference is one plan`, { field });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new FormatError('corrupt', `not JSON (${e instanceof Error ? e.message : String(e)})`, { field });
  }
  const list = Array.isArray(value)
    ? value
    : value !== null && typeof value === 'object' && Array.isArray((value as { assignment?: unknown }).assignment)
      ? (value as { assignment: unknown[] }).assignment
      : undefined;
  if (!list) throw new FormatError('corrupt', 'neither a list of districts nor an object with an "assignment" list', { field });
  list.forEach((v, i) => district(v, `node ${i}`, `${field} assignment[${i}]`));
  return list as number[];
}

/** A district label as BEN stores it: an integer 0..65535 (a string of digits, as CSV and some graphs write it, too). */
function district(v: unknown, what: string, field: string): number {
  const n = typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
  if (!Number.isInteger(n) || (n as number) < 0 || (n as number) > 0xffff)
    throw new FormatError('corrupt', `district ${JSON.stringify(v)} of ${what} is not an integer 0..65535`, { field });
  return n as number;
}

/**
 * A reference plan from a file the user chose: JSON (parseReferencePlan), or CSV of `node,district`
 * rows (a header row allowed), where node is a node's `id` in the graph (GeoID-like ids as text)
 * or, for a graph without ids, its index. Every node must be given a district exactly once.
 */
export function parseReferenceFile(text: string, ids: readonly unknown[], field = 'reference'): Plan {
  const head = text.trimStart()[0];
  if (head === '[' || head === '{') return parseReferencePlan(text, field);
  const index = new Map<string, number>(ids.map((id, i) => [String(id ?? i), i]));
  const assignment = new Array<number>(ids.length).fill(-1);
  const rows = text
    .split(/\r?\n/)
    .map((l, i) => ({ l: l.trim(), line: i + 1 }))
    .filter((r) => r.l !== '');
  rows.forEach(({ l, line }, k) => {
    const cells = l.split(',').map((c) => c.trim().replace(/^"(.*)"$/, '$1'));
    if (cells.length < 2) throw new FormatError('corrupt', `not "node,district": ${JSON.stringify(l.slice(0, 40))}`, { field: `${field} line ${line}` });
    if (k === 0 && !/^\d+$/.test(cells[1]!)) return; // a header
    const i = index.get(cells[0]!);
    if (i === undefined) throw new FormatError('corrupt', `${JSON.stringify(cells[0])} is no node's id in the graph`, { field: `${field} line ${line}` });
    if (assignment[i] !== -1)
      throw new FormatError('corrupt', `node ${JSON.stringify(cells[0])} is given a district twice`, { field: `${field} line ${line}` });
    assignment[i] = district(cells[1], `node ${cells[0]}`, `${field} line ${line}`);
  });
  const missing = assignment.indexOf(-1);
  if (missing >= 0) throw new FormatError('corrupt', `node ${JSON.stringify(ids[missing] ?? missing)} (index ${missing}) has no district`, { field });
  return new RunBuffer().fromAssignment(assignment);
}

/** A reference plan held in a node attribute of the graph (an enacted plan's CD column). */
export function referenceFromAttribute(nodes: readonly unknown[], name: string, field = 'graph'): Plan {
  const assignment = nodes.map((node, i) => {
    const v = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[name] : undefined;
    if (v === undefined) throw new FormatError('corrupt', `attribute "${name}" is missing on node ${i}`, { field: `${field} nodes[${i}].${name}` });
    return district(v, `node ${i}`, `${field} nodes[${i}].${name}`);
  });
  return new RunBuffer().fromAssignment(assignment);
}
