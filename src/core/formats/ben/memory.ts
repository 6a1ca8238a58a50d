import type { CacheMemory } from '../../model.js';
import type { Ensemble } from './ensemble.js';

/**
 * A BEN document's memory as the budget sees it, beyond its file pages (the source's page cache,
 * counted by the engine) and its frame index (kept, and saved between opens): an XBEN decode
 * parked for the next page. Dropped, the decode and its xz stream end, so liblzma's heap can be
 * made again, and the next page decodes from the start.
 */
export function benMemory(ensemble: Ensemble): CacheMemory {
  return { bytes: () => ensemble.parkedBytes(), drop: () => void ensemble.release() };
}
