import createLZMA from 'node-liblzma/wasm/liblzma.js';
// @ts-ignore: a .wasm file, inlined as its bytes by the bundler (esbuild's binary loader, the vitest plugin); tsc cannot type it
import wasmBinary from 'node-liblzma/wasm/liblzma.wasm';
import { withBulkMemory } from './bulkMemory.js';
import type { LiblzmaModule } from './liblzma.js';

/** Instantiates liblzma's WebAssembly from the bytes inlined in the bundle. */
export function instantiateLiblzma(): Promise<LiblzmaModule> {
  // locateFile stops the glue from looking for the .wasm beside itself: the bytes are inlined.
  const load = (bytes: Uint8Array) => createLZMA({ wasmBinary: bytes, locateFile: (name: string) => name }) as unknown as Promise<LiblzmaModule>;
  // With the byte-loop memcpy and zero-fill replaced by bulk ones (bulkMemory.ts); the module as shipped
  // if the patched one should ever fail to compile.
  return load(withBulkMemory(wasmBinary as Uint8Array).bytes).catch(() => load(wasmBinary as Uint8Array));
}
