// @ts-ignore: a .wasm file, inlined as its bytes by the bundler (esbuild's binary loader, the vitest plugin); tsc cannot type it
import bg4Wasm from '../../codecs/wasm/bg4.wasm';
import { lazyInstance } from '../../codecs/wasm/module.js';

/**
 * Byte grouping by 4 (spec xorb.md §3.3): byte i of a chunk goes to group i mod 4; the groups are
 * stored one after the other. For n bytes, group k holds ⌊n/4⌋ bytes plus one when k < n mod 4,
 * so the 1 to 3 trailing bytes land in the first groups and group 3 never gets an extra byte.
 */

/** Where each group starts in the grouped buffer, for a chunk of `n` bytes. */
function groupStarts(n: number): [number, number, number, number] {
  const q = n >>> 2;
  const r = n & 3;
  const g1 = q + (r >= 1 ? 1 : 0);
  const g2 = g1 + q + (r >= 2 ? 1 : 0);
  const g3 = g2 + q + (r >= 3 ? 1 : 0);
  return [0, g1, g2, g3];
}

/** Whether a Uint32Array reads bytes b0..b3 as b0 | b1 << 8 | …: every engine the extension runs on. */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/** Chunk bytes → g0‖g1‖g2‖g3 (the writer's side). */
export function bg4Split(data: Uint8Array): Uint8Array {
  return inWasm(data, 'split', false) ?? splitInJs(data);
}

/**
 * g0‖g1‖g2‖g3 → chunk bytes (the reader's side); the chunk length is the grouped length. With
 * `view`, the bytes are the WebAssembly module's memory, overwritten by the next grouping or
 * regrouping: for a caller done with them before then, such as a hash, it saves a copy.
 */
export function bg4Regroup(grouped: Uint8Array, view = false): Uint8Array {
  return inWasm(grouped, 'regroup', view) ?? regroupInJs(grouped);
}

/** `wasm/bg4.wat`: 16 words per step of SIMD shuffles. */
interface Bg4Kernels {
  readonly memory: { readonly buffer: ArrayBuffer };
  readonly split: (src: number, n: number, dst: number) => void;
  readonly regroup: (src: number, n: number, dst: number) => void;
}

const kernels = lazyInstance<Bg4Kernels>(bg4Wasm as Uint8Array);

/**
 * One direction run in WebAssembly (the input copied to address 0, the output after it); undefined
 * where WebAssembly SIMD is missing or the bytes do not fit the module's fixed memory, which
 * holds a 128 KiB chunk, the largest a xorb has, both ways.
 */
function inWasm(data: Uint8Array, kernel: 'split' | 'regroup', view: boolean): Uint8Array | undefined {
  const k = kernels();
  if (!k) return undefined;
  const n = data.length;
  const dst = (n + 15) & ~15;
  if (dst + n > k.memory.buffer.byteLength) return undefined;
  const heap = new Uint8Array(k.memory.buffer);
  heap.set(data, 0);
  k[kernel](0, n, dst);
  return view ? heap.subarray(dst, dst + n) : heap.slice(dst, dst + n);
}

/** The two implementations on their own, for tests that hold them to the same answers. */
export const bg4Implementations = {
  wasm: { split: (data: Uint8Array) => inWasm(data, 'split', false), regroup: (grouped: Uint8Array) => inWasm(grouped, 'regroup', false) },
  ts: { split: (data: Uint8Array) => splitInJs(data), regroup: (grouped: Uint8Array) => regroupInJs(grouped) },
};

/**
 * The TypeScript path, where WebAssembly SIMD is missing. Whole 4-byte words are read as one u32
 * and their bytes sent to the four groups: a byte loop with stride 4 took a third of the xorb
 * fuzz profile. The 1 to 3 trailing bytes go to the first groups.
 */
function splitInJs(data: Uint8Array): Uint8Array {
  const n = data.length;
  const out = new Uint8Array(n);
  const [, g1, g2, g3] = groupStarts(n);
  const q = n >>> 2;
  if (LITTLE_ENDIAN) {
    const words = new Uint32Array(data.buffer.slice(data.byteOffset, data.byteOffset + q * 4));
    for (let i = 0; i < q; i++) {
      const w = words[i]!;
      out[i] = w;
      out[g1 + i] = w >>> 8;
      out[g2 + i] = w >>> 16;
      out[g3 + i] = w >>> 24;
    }
  } else {
    for (let i = 0; i < q; i++) {
      out[i] = data[4 * i]!;
      out[g1 + i] = data[4 * i + 1]!;
      out[g2 + i] = data[4 * i + 2]!;
      out[g3 + i] = data[4 * i + 3]!;
    }
  }
  const starts = [0, g1, g2, g3];
  for (let k = 0; k < (n & 3); k++) out[starts[k]! + q] = data[4 * q + k]!;
  return out;
}

/** The mirror of splitInJs: four group bytes make one u32 write. */
function regroupInJs(grouped: Uint8Array): Uint8Array {
  const n = grouped.length;
  const out = new Uint8Array(n);
  const [, g1, g2, g3] = groupStarts(n);
  const q = n >>> 2;
  if (LITTLE_ENDIAN) {
    const words = new Uint32Array(out.buffer, 0, q);
    for (let i = 0; i < q; i++) words[i] = grouped[i]! | (grouped[g1 + i]! << 8) | (grouped[g2 + i]! << 16) | (grouped[g3 + i]! << 24);
  } else {
    for (let i = 0; i < q; i++) {
      out[4 * i] = grouped[i]!;
      out[4 * i + 1] = grouped[g1 + i]!;
      out[4 * i + 2] = grouped[g2 + i]!;
      out[4 * i + 3] = grouped[g3 + i]!;
    }
  }
  const starts = [0, g1, g2, g3];
  for (let k = 0; k < (n & 3); k++) out[4 * q + k] = grouped[starts[k]! + q]!;
  return out;
}
