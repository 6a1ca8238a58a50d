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

/** One shared instance of a module without imports, made on first call; null as for lazyModule. */
export function lazyInstance<Exports>(bytes: Uint8Array): () => Exports | null {
  const module = lazyModule(bytes);
  let instance: Exports | null | undefined;
  return () => {
    if (instance === undefined) {
      const m = module();
      instance = m ? instantiate<Exports>(m) : null;
    }
    return instance;
  };
}

function webAssembly(): WasmApi {
  return (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
}
