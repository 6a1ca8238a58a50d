// @ts-ignore: a .wasm file, inlined as its bytes by the bundler (esbuild's binary loader, the vitest plugin); tsc cannot type it
import benHopWasm from '../../codecs/wasm/benhop.wasm';
import { holdMemory, instantiate, lazyModule } from '../../codecs/wasm/module.js';
import { CHECKPOINT_EVERY, Hop, hopFrames } from './headerWalk.js';

/** `benhop.wat`'s exports. */
interface HopExports {
  readonly memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  readonly hop: (p: number, limit: number, streamLimit: number, maxFrames: number, room: number, mode: number) => number;
}

/** Where the pieces a walk reads live in the module's memory: after the page the hop writes its results to. */
const BASE = 65536;
/** The hop's answer after `maxFrames` frames (its others are Hop's values). */
const MAX_FRAMES = 4;
/** Lengths and sample rooms are u32 inside the module. */
const U32_MAX = 0xffffffff;

const compiled = lazyModule(benHopWasm as Uint8Array);

/**
 * One instance of the WebAssembly header hop, with room for pieces of up to `capacity` bytes in
 * its memory. A walk holds one for its whole run (`takeHopper`): walks of one worker interleave at
 * their awaits, and each piece must stay as it was read until its walk is done with it.
 */
export class Hopper {
  private readonly heap: Uint8Array;
  private readonly out: Int32Array;

  private constructor(
    private readonly exports: HopExports,
    readonly capacity: number,
  ) {
    const need = BASE + capacity - exports.memory.buffer.byteLength;
    if (need > 0) exports.memory.grow(Math.ceil(need / 65536));
    this.heap = new Uint8Array(exports.memory.buffer);
    this.out = new Int32Array(exports.memory.buffer, 0, 6);
  }

  /** A hopper whose memory holds `capacity` bytes of pieces, or null where WebAssembly is missing. */
  static create(capacity: number): Hopper | null {
    const m = compiled();
    return m ? new Hopper(instantiate<HopExports>(m), capacity) : null;
  }

  /** The bytes of its memory. */
  get bytes(): number {
    return this.heap.byteLength;
  }

  /** The buffer to read the next piece into (`length` ≤ capacity): hopping over it then copies nothing. */
  view(length: number): Uint8Array {
    return this.heap.subarray(BASE, BASE + length);
  }

  /**
   * `hopFrames` in WebAssembly, with its arguments and answers: the same frames taken, the same
   * stops, checkpoints and TwoDelta anchors. A piece not read into `view` is copied in first; one
   * larger than the memory, or a walk standing outside the piece, goes to `hopFrames`.
   */
  readonly hopFrames: typeof hopFrames = (buf, bufOffset, variant, s, streamEnd, stopIndex, stopSample, onCheckpoint) => {
    const inside = s.offset >= bufOffset && s.offset - bufOffset <= buf.length;
    if (!inside || (buf.buffer !== this.heap.buffer && buf.length > this.capacity))
      return hopFrames(buf, bufOffset, variant, s, streamEnd, stopIndex, stopSample, onCheckpoint);
    let base = buf.byteOffset;
    if (buf.buffer !== this.heap.buffer) {
      this.heap.set(buf, BASE);
      base = BASE;
    }
    const limit = base + buf.length;
    const streamLimit = Math.min(base + (streamEnd - bufOffset), U32_MAX);
    const mode = (variant === 'two_delta' ? 1 : 0) | (variant === 'standard' ? 0 : 2);
    for (;;) {
      const maxFrames = Math.max(0, Math.min(stopIndex - s.index, CHECKPOINT_EVERY - (s.index % CHECKPOINT_EVERY)));
      const room = Math.max(0, Math.min(stopSample - (s.firstSample - 1), U32_MAX));
      const r = this.exports.hop(base + (s.offset - bufOffset), limit, streamLimit, maxFrames, room, mode | (s.index === 0 ? 4 : 0));
      const o = this.out;
      const frames = o[1]!;
      if (o[3]! >= 0) s.setAnchor(s.index + o[3]!, bufOffset + (o[4]! - base), s.firstSample + o[5]!);
      s.index += frames;
      s.offset = bufOffset + ((o[0]! >>> 0) - base);
      s.firstSample += o[2]!;
      if (r !== MAX_FRAMES) return r as Hop;
      if (frames > 0 && s.index % CHECKPOINT_EVERY === 0) onCheckpoint(s);
      if (s.index >= stopIndex) return Hop.Stopped;
    }
  };
}

/** Hoppers no walk holds: a walk after a walk reuses the memory, and its pages are warm. */
const idle: Hopper[] = [];
/** Idle hoppers kept: walks in parallel are a page read beside a background count. */
const KEEP = 2;
/** The memory budget counts the idle ones and can let them go; a walk's own lives as long as the walk. */
holdMemory({ bytes: () => idle.reduce((n, h) => n + h.bytes, 0), drop: () => void idle.splice(0) });

/** A hopper for one walk, given back with `releaseHopper`; null where WebAssembly is missing. */
export function takeHopper(capacity: number): Hopper | null {
  const i = idle.findIndex((h) => h.capacity >= capacity);
  return i >= 0 ? idle.splice(i, 1)[0]! : Hopper.create(capacity);
}

export function releaseHopper(h: Hopper | null): void {
  if (h && idle.length < KEEP) idle.push(h);
}
