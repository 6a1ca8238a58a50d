/**
 * Faster implementations a host may lend to the pure TypeScript codecs. `src/core` runs in Node
 * and in a browser worker, so it cannot import Node's zlib; the Node hosts (the engine worker,
 * the CLI, the benchmarks) install `nodeCodecs` from `io/nodeCodecs.ts` through the engine's
 * `Platform` (or directly, for the CLI). Without them every codec works the same, only slower.
 *
 * Each function here only has to be right on valid input: the codecs fall back to their own
 * implementation whenever a native one throws, so errors (kinds, offsets, texts) are the
 * portable implementation's and do not depend on the host.
 */
export interface NativeCodecs {
  /**
   * Raw DEFLATE (RFC 1951) of `data`, refusing (by throwing) to produce more than `maxOutput`
   * bytes. Node's zlib: ~4× fflate on IDV blocks (DESIGN.md, Performance).
   */
  readonly inflateRaw?: (data: Uint8Array, maxOutput: number) => Uint8Array;
  /**
   * Keyed BLAKE3 (32-byte key, 32-byte hash): a hasher per key, called synchronously, or
   * undefined when the host cannot give one after all (its addon does not load here). The
   * native blake3 crate (SIMD chosen at run time): ~10× hash-wasm on xorb chunks (DESIGN.md).
   * Unlike the other codecs it has no invalid input to fall back on: it is checked once against
   * b3sum's test vector and used only if it gives it; an error it throws later is a real error.
   */
  readonly keyedBlake3?: (key: Uint8Array) => ((data: Uint8Array) => Uint8Array) | undefined;
  /**
   * An incremental SHA-256: Node's OpenSSL, for the GB a brief dump hashes (dumpBrief.ts): 6.7 s
   * instead of 24.6 s with hash-wasm for a 2.2 GB BEN on the 2-core test machine. Same digest as
   * `codecs/sha256.ts`.
   */
  readonly sha256?: () => { update(data: Uint8Array): void; digest(): Uint8Array };
}

let installed: NativeCodecs = {};

/** Called once by a host at start; later calls add to or replace what earlier ones gave. */
export function installNativeCodecs(codecs: NativeCodecs): void {
  installed = { ...installed, ...codecs };
}

export function nativeCodecs(): NativeCodecs {
  return installed;
}
