/** The bytes of a `.wasm` file, inlined by the bundler (esbuild `binary` loader, the vitest plugin). */
declare module '*.wasm' {
  const bytes: Uint8Array;
  export default bytes;
}

/** The Emscripten glue of node-liblzma's WASM build of liblzma (untyped in the package). */
declare module 'node-liblzma/wasm/liblzma.js' {
  export interface LiblzmaModule {
    readonly HEAPU8: Uint8Array;
    _malloc(size: number): number;
    _free(ptr: number): void;
    _lzma_stream_decoder(strm: number, memlimit: bigint, flags: number): number;
    _lzma_easy_encoder(strm: number, preset: number, check: number): number;
    _lzma_code(strm: number, action: number): number;
    _lzma_end(strm: number): void;
    _lzma_version_string(): number;
  }
  const createLZMA: (options: { wasmBinary: Uint8Array; locateFile(name: string): string }) => Promise<LiblzmaModule>;
  export default createLZMA;
}
