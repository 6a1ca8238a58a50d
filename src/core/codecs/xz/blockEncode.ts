import { FormatError } from '../../errors.js';
import { CHECK_IDS, type XzEncodeOptions, checkPreset } from './encode.js';
import { LZMA_OK, liblzma } from './liblzma.js';

/**
 * One block's data compressed into a one-block .xz stream in a single call
 * (`lzma_stream_buffer_encode`), with LZMA2 at the preset's settings but a dictionary no larger
 * than the block: liblzma sizes its match finder's hash table by the dictionary, and the presets'
 * 16 MiB one costs each thread 32 MiB of table zeroed for a 1 MiB block, matches it never uses.
 * The compressed data is the same; only the header's dictionary size, and the memory a decoder
 * needs, shrink. Settings from liblzma's `lzma_lzma_preset` (liblzma/lzma/lzma_encoder_presets.c).
 */
const DICT_LOG2 = [18, 20, 21, 22, 22, 23, 23, 24];
const MODE_FAST = 1;
const MODE_NORMAL = 2;
const MF_HC3 = 0x03;
const MF_HC4 = 0x04;
const MF_BT4 = 0x14;
const LZMA2_ID = 0x21;
/** liblzma's smallest dictionary (LZMA_DICT_SIZE_MIN). */
const MIN_DICT = 4096;

/** `lzma_options_lzma` on wasm32: ten 4-byte fields we set, then reserved ones that must be zero. */
const OPTIONS_BYTES = 128;
/** Two `lzma_filter`s (u64 id, pointer; 16 bytes each): LZMA2, then the LZMA_VLI_UNKNOWN end. */
const FILTERS_BYTES = 32;

function lzma2Options(preset: number, dictSize: number): Uint32Array {
  const fast = preset <= 3;
  const o = new Uint32Array(OPTIONS_BYTES / 4);
  // dict_size, preset_dict, preset_dict_size, lc, lp, pb, mode, nice_len, mf, depth
  o.set([dictSize, 0, 0, 3, 0, 2]);
  o[6] = fast ? MODE_FAST : MODE_NORMAL;
  o[7] = fast ? (preset <= 1 ? 128 : 273) : preset === 4 ? 16 : preset === 5 ? 32 : 64;
  o[8] = fast ? (preset === 0 ? MF_HC3 : MF_HC4) : MF_BT4;
  o[9] = fast ? [4, 8, 24, 48][preset]! : 0;
  return o;
}

/** The preset's dictionary, or the smallest power of two holding the block when that is smaller. */
export function blockDictionary(preset: number, blockBytes: number): number {
  const full = 2 ** DICT_LOG2[preset]!;
  let d = MIN_DICT;
  while (d < blockBytes && d < full) d *= 2;
  return Math.min(d, full);
}

/** Worst case of a one-block stream: LZMA2 stores incompressible data with 3 bytes a 64 KiB chunk, plus headers, index and footer. */
const bound = (n: number) => n + Math.ceil(n / 65536) * 3 + 4096;

export async function xzCompressBlock(data: Uint8Array, opts: XzEncodeOptions): Promise<Uint8Array> {
  checkPreset(opts.preset);
  const m = await liblzma();
  const outSize = bound(data.length);
  const sizes = [OPTIONS_BYTES, FILTERS_BYTES, 4, Math.max(1, data.length), outSize];
  const ptrs = sizes.map((n) => m._malloc(n));
  try {
    if (ptrs.some((p) => p === 0)) throw new FormatError('limit', 'out of WASM memory for an xz block', { field: 'xz block' });
    const [options, filters, outPos, input, output] = ptrs as [number, number, number, number, number];
    const heap = () => new DataView(m.HEAPU8.buffer);
    lzma2Options(opts.preset, blockDictionary(opts.preset, data.length)).forEach((v, i) => heap().setUint32(options + i * 4, v, true));
    const f = heap();
    f.setBigUint64(filters, BigInt(LZMA2_ID), true);
    f.setUint32(filters + 8, options, true);
    f.setBigUint64(filters + 16, 0xffffffffffffffffn, true);
    f.setUint32(filters + 24, 0, true);
    f.setUint32(outPos, 0, true);
    m.HEAPU8.set(data, input);
    const ret = m._lzma_stream_buffer_encode(filters, CHECK_IDS[opts.check], 0, input, data.length, output, outPos, outSize);
    if (ret !== LZMA_OK) throw new FormatError('limit', `liblzma block encoder error ${ret}`, { field: 'xz block' });
    return m.HEAPU8.slice(output, output + heap().getUint32(outPos, true));
  } finally {
    for (const p of ptrs) if (p !== 0) m._free(p);
  }
}
