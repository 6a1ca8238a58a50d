import { FormatError } from '../../errors.js';
import { BinReader } from '../../io/binReader.js';
import { compareBytes } from './keyText.js';

/**
 * The keys table's checkpoints as bytes, for the viewer's index store: `FKC1`, whether the key
 * count is exact, the count, then every checkpoint key (the key at row i · 1024) as a u32 length
 * and its bytes.
 */
export interface KeysIndexState {
  readonly exact: number | undefined;
  readonly checkpoints: readonly Uint8Array[];
}

const MAGIC = 'FKC1';

export function encodeKeysIndex(s: KeysIndexState): Uint8Array {
  const size = 4 + 4 + 8 + 4 + s.checkpoints.reduce((n, k) => n + 4 + k.length, 0);
  const out = new Uint8Array(size);
  const v = new DataView(out.buffer);
  for (let i = 0; i < 4; i++) out[i] = MAGIC.charCodeAt(i);
  out[4] = s.exact === undefined ? 0 : 1;
  v.setFloat64(8, s.exact ?? 0, true);
  v.setUint32(16, s.checkpoints.length, true);
  let at = 20;
  for (const k of s.checkpoints) {
    v.setUint32(at, k.length, true);
    out.set(k, at + 4);
    at += 4 + k.length;
  }
  return out;
}

/**
 * Reads what `encodeKeysIndex` wrote and checks it against the fst: keys in strictly rising
 * order, and no more checkpoints than `maxKeys` (the footer's count) allows.
 */
export function decodeKeysIndex(bytes: Uint8Array, maxKeys: number): KeysIndexState {
  const r = new BinReader(bytes);
  const magic = String.fromCharCode(...r.bytesOf(4, 'magic'));
  if (magic !== MAGIC) throw bad(0, 'magic', `"${magic}", not "${MAGIC}"`);
  const known = r.u8('count known') === 1;
  r.skip(3, 'reserved');
  const count = r.f64le('key count');
  if (known && !(Number.isSafeInteger(count) && count >= 0 && count <= maxKeys)) throw bad(8, 'key count', `${count} is not 0..${maxKeys}`);
  const n = r.u32le('checkpoint count');
  const limit = Math.ceil((known ? count : maxKeys) / 1024);
  if (n > limit) throw bad(16, 'checkpoint count', `${n} checkpoints for at most ${limit}`);
  const checkpoints: Uint8Array[] = [];
  for (let i = 0; i < n; i++) {
    const at = r.offset;
    const key = r.bytesOf(r.u32le(`checkpoint ${i} length`), `checkpoint ${i}`).slice();
    const prev = checkpoints[i - 1];
    if (prev && compareBytes(prev, key) >= 0) throw bad(at, `checkpoint ${i}`, 'does not follow the key before it');
    checkpoints.push(key);
  }
  return { exact: known ? count : undefined, checkpoints };
}

function bad(offset: number, field: string, what: string): FormatError {
  return new FormatError('corrupt', `saved key index: ${field} ${what}`, { offset, field });
}
