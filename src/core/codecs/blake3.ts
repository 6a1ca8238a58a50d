import { createBLAKE3, type IHasher } from 'hash-wasm';
import { nativeCodecs } from './native.js';

/**
 * Keyed BLAKE3 (the 32-byte MAC mode): the host's native hasher where it lends one
 * (`codecs/native.ts`), else hash-wasm's WebAssembly build, the fastest of the pure JS/WASM
 * candidates measured (DESIGN.md, "Xorb"). The WebAssembly instance starts asynchronously once
 * per key; after that, hashing is a synchronous call.
 */
export type KeyedHash = (data: Uint8Array) => Uint8Array;

const hashers = new Map<string, Promise<KeyedHash>>();

export function keyedBlake3(key: Uint8Array): Promise<KeyedHash> {
  if (key.length !== 32) throw new RangeError(`a BLAKE3 key has 32 bytes, not ${key.length}`);
  const id = key.join(',');
  let ready = hashers.get(id);
  if (!ready) {
    const portable = createBLAKE3(256, key).then(
      (h: IHasher): KeyedHash =>
        (data) => {
          // One synchronous init/update/digest: no other caller can interleave on this instance.
          h.init();
          h.update(data);
          return h.digest('binary');
        },
    );
    ready = portable.then((wasm) => {
      const native = nativeCodecs().keyedBlake3?.(key);
      if (!native) return wasm;
      return (data) => {
        // The same bytes either way; a native failure (none is known) only costs speed.
        try {
          return native(data);
        } catch {
          return wasm(data);
        }
      };
    });
    hashers.set(id, ready);
  }
  return ready;
}
