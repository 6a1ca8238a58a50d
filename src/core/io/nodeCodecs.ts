import { constants } from 'node:buffer';
import { inflateRawSync } from 'node:zlib';
import type { NativeCodecs } from '../codecs/native.js';

/**
 * Node's native codecs for the pure TypeScript ones (`codecs/native.ts`): zlib's inflate, with
 * its output capped by `maxOutputLength` so a decompression bomb stops there.
 */
export const nodeCodecs: NativeCodecs = {
  inflateRaw(data, maxOutput) {
    const out = inflateRawSync(data, { maxOutputLength: Math.max(1, Math.min(maxOutput, constants.MAX_LENGTH)) });
    // A plain Uint8Array view (no copy): Buffer's slice() would not copy, and callers may rely on it.
    return new Uint8Array(out.buffer, out.byteOffset, out.length);
  },
};
