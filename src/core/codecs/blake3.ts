import type { IHasher } from 'hash-wasm';
import { hexString } from '../describe.js';
import { nativeCodecs, type NativeCodecs } from './native.js';

/**
 * Keyed BLAKE3 (the 32-byte MAC mode): the host's native hasher where it lends one
 * (`codecs/native.ts`), else hash-wasm's WebAssembly build, the fastest of the pure JS/WASM
 * candidates measured (DESIGN.md, "Xorb"). The WebAssembly instance starts asynchronously once
 * per key; after that, hashing is a synchronous call.
 */
export type KeyedHash = (data: Uint8Array) => Uint8Array;

const hashers = new Map<string, Promise<KeyedHash>>();

// b3sum's keyed test vector (key "whats the Elvish word for friend", 1025 bytes of i mod 251).
const CHECK_KEY = new TextEncoder().encode('whats the Elvish word for friend');
const CHECK_INPUT = Uint8Array.from({ length: 1025 }, (_, i) => i % 251);
const CHECK_HASH = '357dc55de0c7e382c900fd6e320acc04146be01db6a8ce7210b7189bd664ea69';

/** Whether each native hasher factory a host installed gave the test vector. */
const vetted = new WeakMap<NonNullable<NativeCodecs['keyedBlake3']>, boolean>();

/**
 * The host's native hasher for `key`, if the host lends one that gives b3sum's test vector.
 * Only then is hash-wasm's instance never started: it cost 10 ms of a 64 MiB xorb's hashing.
 */
function nativeHasher(key: Uint8Array): KeyedHash | undefined {
  const make = nativeCodecs().keyedBlake3;
  if (!make) return undefined;
  let ok = vetted.get(make);
  if (ok === undefined) {
    try {
      const check = make(CHECK_KEY);
      ok = check !== undefined && hexString(check(CHECK_INPUT)) === CHECK_HASH;
    } catch {
      ok = false;
    }
    vetted.set(make, ok);
  }
  return ok ? make(key) : undefined;
}

export function keyedBlake3(key: Uint8Array): Promise<KeyedHash> {
  if (key.length !== 32) throw new RangeError(`a BLAKE3 key has 32 bytes, not ${key.length}`);
  const id = key.join(',');
  let ready = hashers.get(id);
  if (!ready) {
    const native = nativeHasher(key);
    ready = native
      ? Promise.resolve(native)
      : import('./hashWasm.js')
          .then((m) => m.createBLAKE3(256, key))
          .then(
            (h: IHasher): KeyedHash =>
              (data) => {
                // One synchronous init/update/digest: no other caller can interleave on this instance.
                h.init();
                h.update(data);
                return h.digest('binary');
              },
          );
    hashers.set(id, ready);
  }
  return ready;
}
