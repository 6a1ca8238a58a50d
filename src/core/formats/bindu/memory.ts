import type { CacheMemory } from '../../model.js';
import type { ChunkReader } from './columns.js';

/** A bindu document's decoded columns as the memory budget sees them: counted, and dropped to be decoded again when next read. */
export function binduMemory(reader: ChunkReader): CacheMemory {
  return { bytes: () => reader.cacheBytes(), drop: () => reader.dropCache() };
}
