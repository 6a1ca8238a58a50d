import { constants } from 'node:buffer';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as Crypto from 'node:crypto';
import type * as Zlib from 'node:zlib';
import type { NativeCodecs } from '../codecs/native.js';

/**
 * zlib and crypto are loaded on first use, not at start: together they cost the CLI ~10 ms of
 * CPU per process (bench/RESULTS.md, CLI start), and `info` on most files needs neither.
 */
const here = typeof __dirname === 'string' ? __dirname : process.cwd();
const load = createRequire(join(here, 'index.js'));
let zlib: typeof Zlib | undefined;
let crypto: typeof Crypto | undefined;

/**
 * What Binlens uses of @napi-rs/blake-hash's addon (the blake3 crate through Node-API). The
 * project depends on the Linux x64 build only (optionalDependencies): the registry holds no
 * 1.3.6 build for the other platforms its wrapper package lists, which `npm ci` refuses.
 */
interface Blake3Addon {
  Blake3Hasher: { newKeyed(key: Buffer): { reset(): void; update(data: Uint8Array): unknown; digestBuffer(): Buffer } };
}

/** Where a packaged extension carries the addon, relative to the bundle (scripts/build.mjs copies it). */
const BLAKE3_ADDON = 'native/blake3.node';

let addon: Blake3Addon | null | undefined;

/**
 * The BLAKE3 addon beside the bundle (a packaged extension), else from node_modules (the CLI
 * and tests in a checkout); null where neither loads (another platform, a musl system), and
 * then the portable hasher serves.
 */
function blake3Addon(): Blake3Addon | null {
  if (addon !== undefined) return addon;
  for (const id of [join(here, BLAKE3_ADDON), '@napi-rs/blake-hash-linux-x64-gnu']) {
    try {
      addon = load(id) as Blake3Addon;
      if (typeof addon.Blake3Hasher?.newKeyed === 'function') return addon;
    } catch {
      // try the next place
    }
  }
  return (addon = null);
}

/**
 * Node's native codecs for the pure TypeScript ones (`codecs/native.ts`): zlib's inflate, with
 * its output capped by `maxOutputLength` so a decompression bomb stops there, and BLAKE3 from
 * the blake3 crate where its addon loads.
 */
export const nodeCodecs: NativeCodecs = {
  keyedBlake3(key) {
    // Loaded on first use, not at start: most sessions never hash.
    const h = blake3Addon()?.Blake3Hasher.newKeyed(Buffer.from(key));
    if (!h) return undefined;
    return (data) => {
      h.reset(); // back to the keyed initial state
      h.update(data);
      return new Uint8Array(h.digestBuffer());
    };
  },
  sha256() {
    const h = (crypto ??= load('node:crypto') as typeof Crypto).createHash('sha256');
    return {
      update: (data) => void h.update(data),
      digest: () => new Uint8Array(h.digest()),
    };
  },
  inflateRaw(data, maxOutput) {
    const out = (zlib ??= load('node:zlib') as typeof Zlib).inflateRawSync(data, { maxOutputLength: Math.max(1, Math.min(maxOutput, constants.MAX_LENGTH)) });
    // A plain Uint8Array view (no copy): Buffer's slice() would not copy, and callers may rely on it.
    return new Uint8Array(out.buffer, out.byteOffset, out.length);
  },
};
