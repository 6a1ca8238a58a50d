/**
 * The one place the Bindu reader and writer reach the LZ4 frame codec. The codec itself is
 * `src/core/codecs/lz4.ts`, written for xorbs on another branch; until that branch is merged
 * this adapter holds `undefined`, and LZ4 stages are shown describe-only ("LZ4 codec not
 * available") instead of failing. After the merge, replace the `undefined` below with
 * `{ decodeLz4Frame, encodeLz4Frame }` imported from '../../codecs/lz4.js'.
 */
export interface Lz4FrameOptions {
  readonly maxSize: number;
  readonly expectedSize?: number;
  readonly offset?: number;
  readonly field?: string;
}

export interface Lz4FrameCodec {
  decodeLz4Frame(data: Uint8Array, opts: Lz4FrameOptions): Uint8Array;
  encodeLz4Frame(data: Uint8Array): Uint8Array;
}

export const lz4: Lz4FrameCodec | undefined = undefined;
