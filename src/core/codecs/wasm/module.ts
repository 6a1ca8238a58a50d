import type { CacheMemory } from '../../model.js';

/**
 * The WebAssembly API the hand-written modules beside this file need, typed here because the
 * extension's tsconfig (Node types, no DOM lib) does not declare it.
 */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}

/**
 * Compiles a module's bytes on first call and keeps the result. The modules are small, so they
 * compile synchronously (allowed off the browser's main thread, where the engine runs) and the
 * codecs stay synchronous calls. Null where WebAssembly, or a feature the module uses (SIMD), is
 * missing: the callers then run their TypeScript path.
 */
export function lazyModule(bytes: Uint8Array): () => object | null {
  let compiled: object | null | undefined;
  return () => {
    if (compiled === undefined) {
      try {
        compiled = new (webAssembly().Module)(bytes);
      } catch {
        compiled = null;
      }
    }
    return compiled;
  };
}

/** A new instance of a compiled module, with its imports. */
export function instantiate<Exports>(module: object, imports: object = {}): Exports {
  return new (webAssembly().Instance)(module, imports).exports as Exports;
}

/** The WebAssembly memories a worker holds for every document (the codecs'), each reporting its growth. */
const held = new Set<CacheMemory>();

/**
 * The worker's WebAssembly memories beyond the size they started at (liblzma's heap, the LZ4
 * decoder's): what a large job left behind. A WebAssembly memory never shrinks, so `drop` lets
 * go of a grown instance and the next use makes a fresh one (issue 21). The memory budget counts
 * it beside the documents' caches.
 */
export const wasmMemory: CacheMemory = {
  bytes: () => [...held].reduce((n, m) => n + m.bytes(), 0),
  drop: () => held.forEach((m) => m.drop()),
};

/** Adds a worker-wide WebAssembly memory to `wasmMemory`: `bytes` is its growth, `drop` lets it go. */
export function holdMemory(memory: CacheMemory): void {
  held.add(memory);
}

/** Owned memories whose owner was collected (a closed file's): no longer counted. */
const forget = new FinalizationRegistry<CacheMemory>((m) => held.delete(m));

/**
 * Adds a WebAssembly memory that belongs to `owner` rather than to the worker (the FST walk's, one
 * instance per open file, as its imports call back into that file's walk) to `wasmMemory`, held
 * weakly: a closed file's instance stops counting once its owner is collected, and is not kept alive
 * by being counted. `bytes` and `drop` are asked of the owner while it lives.
 */
export function holdMemoryOf<Owner extends object>(owner: Owner, bytes: (owner: Owner) => number, drop: (owner: Owner) => void): void {
  const ref = new WeakRef(owner);
  const memory: CacheMemory = {
    bytes: () => {
      const o = ref.deref();
      return o ? bytes(o) : 0;
    },
    drop: () => {
      const o = ref.deref();
      if (o) drop(o);
    },
  };
  held.add(memory);
  forget.register(owner, memory);
}

/**
 * One shared instance of a module without imports, made on first call; null as for lazyModule.
 * Its memory, once grown, is counted in `wasmMemory`, and dropped the instance is made again on
 * the next call (a caller keeps using the one it holds).
 */
export function lazyInstance<Exports extends { readonly memory?: { readonly buffer: ArrayBuffer } }>(bytes: Uint8Array): () => Exports | null {
  const module = lazyModule(bytes);
  let instance: Exports | null | undefined;
  let first = 0;
  const grown = () => (instance?.memory ? instance.memory.buffer.byteLength - first : 0);
  holdMemory({
    bytes: grown,
    drop: () => {
      if (grown() > 0) instance = undefined;
    },
  });
  return () => {
    if (instance === undefined) {
      const m = module();
      instance = m ? instantiate<Exports>(m) : null;
      first = instance?.memory?.buffer.byteLength ?? 0;
    }
    return instance;
  };
}

function webAssembly(): WasmApi {
  return (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
}
