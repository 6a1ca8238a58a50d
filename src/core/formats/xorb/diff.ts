/**
 * Xorb diff: chunks by their BLAKE3 hash, as xet deduplicates them. A chunk of B whose hash A
 * also has is shared (B's upload after A would skip it); the rest are added, A's chunks B lacks
 * removed. The dedupe overlap is B's bytes in shared chunks. Every chunk is decoded and checked
 * (checkedChunks, strict) before its hash counts: a damaged chunk stops the diff.
 */
import { FormatError } from '../../errors.js';
import type { Difference, DiffSpec, DiffSummary, FormatDocument, TaskContext } from '../../model.js';
import { DiffSideError, onSide, Tally, type DiffSide } from '../../ops/diffKit.js';
import { hashToString } from './hash.js';
import { checkedChunks } from './integrity.js';
import type { XorbFile } from './xorbFile.js';

/** One distinct chunk of a xorb: its first index, decoded size, and how often it occurs. */
interface ChunkEntry {
  readonly index: number;
  readonly size: number;
  count: number;
}

export class XorbDiff implements DiffSpec {
  constructor(private readonly x: XorbFile) {}

  async *run(other: FormatDocument, ctx: TaskContext): AsyncGenerator<Difference, DiffSummary> {
    const theirs = other.diff;
    if (!(theirs instanceof XorbDiff)) throw new DiffSideError('B', new FormatError('unsupported', 'not a xorb'));
    // A hash per chunk, not its bytes: the chunk count is bounded by the xorb's 64 MiB.
    const a = await chunkHashes('A', this.x, ctx);
    const b = await chunkHashes('B', theirs.x, ctx);
    const tally = new Tally();
    let sharedBytes = 0;
    let shared = 0;
    for (const [hash, e] of a) {
      if (b.has(hash)) continue;
      tally.add('chunk-removed');
      yield { kind: 'chunk-removed', at: `chunk ${hash}`, text: `removed (A chunk ${e.index}, ${e.size} bytes)`, data: { hash, index: e.index, size: e.size } };
    }
    for (const [hash, e] of b) {
      if (a.has(hash)) {
        shared++;
        sharedBytes += e.size * e.count;
        continue;
      }
      tally.add('chunk-added');
      yield { kind: 'chunk-added', at: `chunk ${hash}`, text: `added (B chunk ${e.index}, ${e.size} bytes)`, data: { hash, index: e.index, size: e.size } };
    }
    if (tally.summary().differences === 0 && !sameOrder(a, b)) {
      tally.add('chunk-order');
      yield { kind: 'chunk-order', at: 'chunks', text: 'the same chunks in another order or number', data: {} };
    }
    tally.note('chunks-shared', shared);
    tally.note('shared-bytes', sharedBytes);
    tally.note('bytes-b', total(b));
    return tally.summary();
  }
}

async function chunkHashes(side: DiffSide, x: XorbFile, ctx: TaskContext): Promise<Map<string, ChunkEntry>> {
  return onSide(side, async () => {
    const out = new Map<string, ChunkEntry>();
    for await (const c of checkedChunks(x, { signal: ctx.signal })) {
      const hash = hashToString(c.hash);
      const e = out.get(hash);
      if (e) e.count++;
      else out.set(hash, { index: c.index, size: c.bytes.length, count: 1 });
    }
    return out;
  });
}

/** Same distinct chunks, first met in the same order and as often: then the xorbs hold the same bytes. */
function sameOrder(a: Map<string, ChunkEntry>, b: Map<string, ChunkEntry>): boolean {
  if (a.size !== b.size) return false;
  const ea = [...a];
  const eb = [...b];
  return ea.every(([hash, e], i) => hash === eb[i]![0] && e.index === eb[i]![1].index && e.count === eb[i]![1].count);
}

function total(m: Map<string, ChunkEntry>): number {
  let n = 0;
  for (const e of m.values()) n += e.size * e.count;
  return n;
}
