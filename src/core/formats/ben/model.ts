/**
 * Types of the binary-ensemble family (spec ben.md): BEN streams (a 17-byte banner, then
 * frames), XBEN (an .xz file holding a re-expanded stream) and BENDL bundles.
 */

export const BANNER_BYTES = 17;

export type Variant = 'standard' | 'mkv_chain' | 'two_delta';

export const BANNERS: Record<string, Variant> = {
  'STANDARD BEN FILE': 'standard',
  'MKVCHAIN BEN FILE': 'mkv_chain',
  'TWODELTA BEN FILE': 'two_delta',
};

export const VARIANT_NAMES: Record<Variant, string> = {
  standard: 'Standard',
  mkv_chain: 'MkvChain',
  two_delta: 'TwoDelta',
};

/** Bit widths of values and run lengths are 1..16 (u16 on the wire). */
export const MAX_BITS = 16;

/** Header of a Standard/MkvChain frame (also a TwoDelta snapshot's body): all big-endian. */
export const FRAME_HEADER_BYTES = 6;
/** TwoDelta delta after its tag: pair_a u16, pair_b u16, lbits u8, n_bytes u32. */
export const DELTA_HEADER_BYTES = 9;
export const COUNT_BYTES = 2;

export type FrameKind = 'frame' | 'snapshot' | 'delta';

/** One frame located by its header; the payload is not read. */
export interface BenFrame {
  /** 0-based frame number. */
  readonly index: number;
  readonly offset: number;
  /** All bytes of the frame: tag, header, payload and count. */
  readonly length: number;
  readonly kind: FrameKind;
  /** Bits per value; absent for TwoDelta deltas (they store run lengths only). */
  readonly vbits?: number;
  readonly lbits: number;
  readonly payloadOffset: number;
  readonly payloadBytes: number;
  /** Repeat count (1 for Standard frames). */
  readonly count: number;
  /** The two district ids a delta swaps. */
  readonly pair?: readonly [number, number];
  /** 1-based number of the first sample this frame yields. */
  readonly firstSample: number;
}
