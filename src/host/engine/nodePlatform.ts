import { MemorySource } from '../../core/io/byteSource.js';
import { nodeCodecs } from '../../core/io/nodeCodecs.js';
import { openFile } from '../../core/io/nodeFile.js';
import { writeAtomically } from '../../core/io/nodeOutput.js';
import { createScratchSpace } from '../../core/io/nodeScratch.js';
import type { Platform } from './engine.js';

/** The engine's platform in Node: positioned file reads, atomic outputs, scratch files on disk, zlib. */
export const nodePlatform: Platform = {
  openPath: openFile,
  openBytes: (bytes) => new MemorySource(new Uint8Array(bytes)),
  writeOutput: writeAtomically,
  scratch: createScratchSpace,
  codecs: nodeCodecs,
};
