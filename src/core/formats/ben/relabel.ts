import { FormatError } from '../../errors.js';
import { type Plan, RunBuffer } from './plan.js';

/**
 * District relabelling in first-appearance order (spec §7, `ben canonicalize`): walking the nodes,
 * the first district met becomes 1, the next new one 2, and so on, so [2,3,1,4,5,5,3,4,2] becomes
 * [1,2,3,4,5,5,2,4,1]. Numbering starts at 1 as the library function does (the CLI help's "0" is
 * the ambiguity the spec notes). The partition is unchanged; only the names move, and a chain
 * whose steps swap names then repeats the same values, which xz finds.
 *
 * One plan at a time into a reused buffer: memory is a 64 Ki table, whatever the ensemble's size.
 */
export class CanonicalLabels {
  private readonly out = new RunBuffer();
  /** New label per old value, valid where `stamp` holds the current plan's number. */
  private readonly label = new Uint16Array(1 << 16);
  private readonly stamp = new Uint32Array(1 << 16);
  private plan = 0;

  /** The relabelled plan; valid until the next call. `sample` names the plan in an error. */
  apply(p: Plan, sample: number): Plan {
    // A fresh stamp per plan instead of clearing 64 Ki entries each time; on wrap-around, clear once.
    if (++this.plan === 0x100000000) (this.stamp.fill(0), (this.plan = 1));
    const out = this.out;
    out.clear();
    out.reserve(p.runs);
    let next = 0;
    for (let i = 0; i < p.runs; i++) {
      const v = p.values[i]!;
      if (this.stamp[v] !== this.plan) {
        // Labels 1..65535 fit u16; a 65536th distinct district has no canonical label (upstream refuses it too).
        if (next === 0xffff) throw new FormatError('limit', 'more than 65535 distinct districts in one plan', { field: `sample ${sample}` });
        this.stamp[v] = this.plan;
        this.label[v] = ++next;
      }
      out.values[i] = this.label[v]!;
      out.lengths[i] = p.lengths[i]!;
    }
    out.runs = p.runs;
    out.nodes = p.nodes;
    return out;
  }
}
