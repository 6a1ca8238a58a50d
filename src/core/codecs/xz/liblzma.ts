/**
 * liblzma (the library xz and the reference ben tools use) compiled to WebAssembly, from the
 * node-liblzma package. One build serves Node and the browser worker; DESIGN.md has the numbers
 * that chose it. This file only loads it and speaks its C API: `lzma_stream` lives in WASM
 * memory and is read and written through the heap.
 */
import { holdMemory } from '../wasm/module.js';

/** The C functions of liblzma this codec calls, and the WASM heap. */
export interface LiblzmaModule {
  readonly HEAPU8: Uint8Array;
  _malloc(size: number): number;
  _free(ptr: number): void;
  _lzma_stream_decoder(strm: number, memlimit: bigint, flags: number): number;
  _lzma_easy_encoder(strm: number, preset: number, check: number): number;
  _lzma_code(strm: number, action: number): number;
  _lzma_stream_buffer_encode(
    filters: number,
    check: number,
    allocator: number,
    inPtr: number,
    inSize: number,
    outPtr: number,
    outPosPtr: number,
    outSize: number,
  ): number;
  _lzma_end(strm: number): void;
}

let loading: Promise<LiblzmaModule> | undefined;
/** The module once loaded and its heap's first size; the streams open. */
let loaded: { m: LiblzmaModule; first: number } | undefined;
let openStreams = 0;

/**
 * The module, instantiated once. Its glue and inlined bytes (220 KB) are imported only here, so
 * code that merely names the codec (a standard BEN's document, `info` on it) never loads them.
 */
export function liblzma(): Promise<LiblzmaModule> {
  loading ??= import('./liblzmaModule.js')
    .then((m) => m.instantiateLiblzma())
    .then((m) => {
      loaded = { m, first: m.HEAPU8.byteLength };
      return m;
    });
  return loading;
}

// The heap a large job grew (an encoder's dictionary, a 64 MiB one's decoder) never shrinks: once
// no stream is open, the budget has the module made again on next use (module.ts wasmMemory).
holdMemory({
  bytes: () => (loaded ? loaded.m.HEAPU8.byteLength - loaded.first : 0),
  drop() {
    if (!loaded || openStreams > 0 || loaded.m.HEAPU8.byteLength === loaded.first) return;
    loaded = loading = undefined;
  },
});

/** liblzma return codes (lzma/base.h). */
export const LZMA_OK = 0;
export const LZMA_STREAM_END = 1;
export const LZMA_MEM_ERROR = 5;
export const LZMA_MEMLIMIT_ERROR = 6;
export const LZMA_FORMAT_ERROR = 7;
export const LZMA_OPTIONS_ERROR = 8;
export const LZMA_DATA_ERROR = 9;
export const LZMA_BUF_ERROR = 10;

export const LZMA_RUN = 0;
export const LZMA_FINISH = 3;
/** Decoder flag: read concatenated .xz streams and stream padding, as `xz -d` does. */
export const LZMA_CONCATENATED = 0x08;

/** `lzma_stream` on wasm32: pointers and size_t are 4 bytes, uint64 fields 8-aligned. */
const STREAM_BYTES = 96;
const NEXT_IN = 0;
const AVAIL_IN = 4;
const TOTAL_IN = 8;
const NEXT_OUT = 16;
const AVAIL_OUT = 20;

/**
 * One `lzma_stream` with an input and an output buffer in WASM memory. The heap may grow (and
 * its ArrayBuffer change) during any call into liblzma, so views are taken fresh each time.
 */
export class LzmaStream {
  readonly ptr: number;
  private readonly inPtr: number;
  private readonly outPtr: number;
  private freed = false;

  constructor(
    private readonly m: LiblzmaModule,
    readonly inCapacity: number,
    readonly outCapacity: number,
  ) {
    this.ptr = this.alloc(STREAM_BYTES);
    openStreams++;
    this.m.HEAPU8.fill(0, this.ptr, this.ptr + STREAM_BYTES);
    this.inPtr = this.alloc(inCapacity);
    this.outPtr = this.alloc(outCapacity);
  }

  private alloc(n: number): number {
    const p = this.m._malloc(n);
    if (p === 0) throw new Error(`liblzma: cannot allocate ${n} bytes of WASM memory`);
    return p;
  }

  private u32(at: number): number {
    const h = this.m.HEAPU8;
    const p = this.ptr + at;
    return (h[p]! | (h[p + 1]! << 8) | (h[p + 2]! << 16) | (h[p + 3]! << 24)) >>> 0;
  }

  private setU32(at: number, v: number): void {
    const h = this.m.HEAPU8;
    const p = this.ptr + at;
    h[p] = v & 0xff;
    h[p + 1] = (v >>> 8) & 0xff;
    h[p + 2] = (v >>> 16) & 0xff;
    h[p + 3] = (v >>> 24) & 0xff;
  }

  /** Copies `bytes` (at most `inCapacity`) in as the next input. */
  setInput(bytes: Uint8Array): void {
    this.m.HEAPU8.set(bytes, this.inPtr);
    this.setU32(NEXT_IN, this.inPtr);
    this.setU32(AVAIL_IN, bytes.length);
  }

  get availIn(): number {
    return this.u32(AVAIL_IN);
  }

  /** Input bytes consumed since the stream was initialised. */
  get totalIn(): number {
    return this.u32(TOTAL_IN) + this.u32(TOTAL_IN + 4) * 2 ** 32;
  }

  /**
   * Runs lzma_code once with an empty output buffer; returns the code and a copy of the output,
   * or with `borrow` a view of the output buffer itself, which the next call overwrites.
   */
  code(action: number, borrow = false): { ret: number; out: Uint8Array } {
    this.setU32(NEXT_OUT, this.outPtr);
    this.setU32(AVAIL_OUT, this.outCapacity);
    const ret = this.m._lzma_code(this.ptr, action);
    const end = this.outPtr + this.outCapacity - this.u32(AVAIL_OUT);
    return { ret, out: borrow ? this.m.HEAPU8.subarray(this.outPtr, end) : this.m.HEAPU8.slice(this.outPtr, end) };
  }

  free(): void {
    if (this.freed) return;
    this.freed = true;
    openStreams--;
    this.m._lzma_end(this.ptr);
    this.m._free(this.inPtr);
    this.m._free(this.outPtr);
    this.m._free(this.ptr);
  }
}
