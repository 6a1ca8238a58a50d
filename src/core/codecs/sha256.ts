import type { IHasher } from 'hash-wasm';

/**
 * SHA-256 (FIPS 180-4) through hash-wasm: WebAssembly, so it runs in Node and in a browser
 * worker, streams (a file checksum over many GB never holds the file) and is fast on the many
 * tiny inputs a Bloom filter hashes (DESIGN.md, "Bindu": measured against @noble/hashes and
 * WebCrypto, which has no incremental form and pays a promise per digest).
 */
export interface Sha256 {
  update(data: Uint8Array): Sha256;
  digest(): Uint8Array;
}

/**
 * Instantiating the WebAssembly module costs milliseconds, so finished hashers are kept for the
 * next stream instead of being made anew for every file checksum.
 */
const idle: IHasher[] = [];

/** hash-wasm is imported when first needed, so a CLI run that hashes nothing never loads it. */
async function createSHA256(): Promise<IHasher> {
  return (await import('./hashWasm.js')).createSHA256();
}

/** A fresh incremental hash. Each stream has its own instance until it is digested, so interleaved async work cannot mix states. */
export async function sha256Stream(): Promise<Sha256> {
  const h = (idle.pop() ?? (await createSHA256())).init();
  let done = false;
  const stream: Sha256 = {
    update(data) {
      if (done) throw new Error('sha256 stream used after digest');
      h.update(data);
      return stream;
    },
    digest() {
      if (done) throw new Error('sha256 stream digested twice');
      done = true;
      const out = h.digest('binary');
      idle.push(h);
      return out;
    },
  };
  return stream;
}

let shared: Promise<IHasher> | undefined;

/**
 * A one-shot hasher for hot loops (Bloom probes, Merkle nodes): one instance, used synchronously
 * from start to digest, so no other caller can interleave.
 */
export async function sha256Digester(): Promise<(...parts: Uint8Array[]) => Uint8Array> {
  const h = await (shared ??= createSHA256());
  return (...parts) => {
    h.init();
    for (const p of parts) h.update(p);
    return h.digest('binary');
  };
}
