/** One open document's caches as the budget sees them. */
export interface DocMemory {
  /** The document's full id in its engine (the pool's lease prefix included). */
  readonly doc: string;
  readonly bytes: number;
  /** When a client last asked anything of it: a counter, larger = more recent. */
  readonly lastUse: number;
}

/**
 * The documents that give back their caches so that all of them together fit `budget` bytes:
 * the least recently used first, until the rest fit. The one in use goes last, and only when it
 * alone is over the budget: a document's caches are bounded anyway (a 96 MiB IDV block cache,
 * a 4 MiB page cache), so that happens only with a budget set below them.
 */
export function planTrims(docs: readonly DocMemory[], budget: number): string[] {
  let total = docs.reduce((n, d) => n + d.bytes, 0);
  const trims: string[] = [];
  for (const d of [...docs].sort((a, b) => a.lastUse - b.lastUse)) {
    if (total <= budget) break;
    if (d.bytes === 0) continue;
    trims.push(d.doc);
    total -= d.bytes;
  }
  return trims;
}
