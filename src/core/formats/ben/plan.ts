import { FormatError } from '../../errors.js';

/**
 * A district plan (one sample) as runs in node order: `values[i]` repeated `lengths[i]` times.
 * Run lengths fit u16 as on the wire (a longer stretch is several runs with the same value), so
 * a plan copies into any frame format without re-splitting. N, the node count, is the sum.
 */
export interface Plan {
  readonly values: Uint16Array;
  readonly lengths: Uint16Array;
  readonly runs: number;
  readonly nodes: number;
}

/** More nodes than any census geography has blocks; a frame claiming more is refused before allocating. */
export const MAX_NODES = 1 << 26;
export const MAX_RUN = 0xffff;

/**
 * A growable run list that decoders fill and reuse frame after frame, so decoding a stream
 * allocates only when a plan is larger than every plan before it.
 */
export class RunBuffer implements Plan {
  values = new Uint16Array(1024);
  lengths = new Uint16Array(1024);
  runs = 0;
  nodes = 0;

  clear(): void {
    this.runs = 0;
    this.nodes = 0;
  }

  reserve(runs: number): void {
    if (runs <= this.values.length) return;
    const size = Math.max(runs, this.values.length * 2);
    const v = new Uint16Array(size);
    v.set(this.values.subarray(0, this.runs));
    const l = new Uint16Array(size);
    l.set(this.lengths.subarray(0, this.runs));
    this.values = v;
    this.lengths = l;
  }

  /** Appends a run of any length, split at 65535 as the reference writer does. */
  push(value: number, length: number): void {
    while (length > 0) {
      const n = Math.min(length, MAX_RUN);
      if (this.runs === this.values.length) this.reserve(this.runs + 1);
      this.values[this.runs] = value;
      this.lengths[this.runs] = n;
      this.runs++;
      this.nodes += n;
      length -= n;
    }
  }

  /** The runs of an assignment (node i → district). */
  fromAssignment(a: ArrayLike<number>, n = a.length): this {
    this.clear();
    let i = 0;
    while (i < n) {
      const v = a[i]!;
      let j = i + 1;
      while (j < n && a[j] === v && j - i < MAX_RUN) j++;
      if (this.runs === this.values.length) this.reserve(this.runs + 1);
      this.values[this.runs] = v;
      this.lengths[this.runs] = j - i;
      this.runs++;
      i = j;
    }
    this.nodes = n;
    return this;
  }

  copyFrom(p: Plan): this {
    this.reserve(p.runs);
    this.values.set(p.values.subarray(0, p.runs));
    this.lengths.set(p.lengths.subarray(0, p.runs));
    this.runs = p.runs;
    this.nodes = p.nodes;
    return this;
  }

  /** An independent copy, for callers that keep a plan past the next decode step. */
  snapshot(): Plan {
    return { values: this.values.slice(0, this.runs), lengths: this.lengths.slice(0, this.runs), runs: this.runs, nodes: this.nodes };
  }
}

/** Expands a plan into `out` (grown when too small); returns the array holding the N values. */
export function expand(p: Plan, out?: Uint16Array): Uint16Array {
  const a = out && out.length >= p.nodes ? out : new Uint16Array(p.nodes);
  let at = 0;
  for (let i = 0; i < p.runs; i++) {
    const n = p.lengths[i]!;
    if (n === 1) a[at] = p.values[i]!;
    else a.fill(p.values[i]!, at, at + n);
    at += n;
  }
  return a;
}

/** True when two plans assign every node the same district; walks both run lists, however they are split. */
export function samePlan(a: Plan, b: Plan): boolean {
  if (a.nodes !== b.nodes) return false;
  let i = 0;
  let j = 0;
  let left = 0;
  let right = 0;
  while (i < a.runs || j < b.runs) {
    if (left === 0) left = a.lengths[i]!;
    if (right === 0) right = b.lengths[j]!;
    if (a.values[i] !== b.values[j]) return false;
    const n = Math.min(left, right);
    left -= n;
    right -= n;
    if (left === 0) i++;
    if (right === 0) j++;
  }
  return true;
}

export function checkNodes(nodes: number, offset: number, field: string): void {
  if (nodes > MAX_NODES) throw new FormatError('limit', `a plan of more than ${MAX_NODES} nodes`, { offset, field });
}

/** Bits needed for `x`, at least 1 (spec §3: vbits and lbits are never 0). */
export function bitWidth(x: number): number {
  return Math.max(1, 32 - Math.clz32(x));
}
