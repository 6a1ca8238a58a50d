import { FormatError } from '../../errors.js';

/**
 * Keys as text, the way `binlens cat` and the ground-truth TSV files write them: bytes
 * 0x21..0x7e except `\` as themselves, every other byte (space, tab, backslash, control,
 * ≥ 0x7f, hence UTF-8 too) as `\xHH` in lower-case hex. The escaping is unambiguous, so
 * `parseKey(escapeKey(k))` is `k` for every byte string.
 */
const HEX = '0123456789abcdef';
const ESCAPED: string[] = Array.from({ length: 256 }, (_, b) =>
  b >= 0x21 && b <= 0x7e && b !== 0x5c ? String.fromCharCode(b) : `\\x${HEX[b >> 4]}${HEX[b & 15]}`,
);

export function escapeKey(key: Uint8Array, len = key.length): string {
  let s = '';
  for (let i = 0; i < len; i++) s += ESCAPED[key[i]!];
  return s;
}

export function hexKey(key: Uint8Array, len = key.length): string {
  let s = '';
  for (let i = 0; i < len; i++) s += (i ? ' ' : '') + HEX[key[i]! >> 4] + HEX[key[i]! & 15];
  return s;
}

/** Escaped key text → bytes: `\xHH` is one byte, every other character its UTF-8 bytes. */
export function parseKey(text: string, where: { offset?: number; field?: string } = {}): Uint8Array {
  if (!text.includes('\\')) return ENCODER.encode(text);
  const out: number[] = [];
  for (let i = 0; i < text.length; ) {
    if (text[i] === '\\' && text[i + 1] === 'x' && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 2, i + 4))) {
      out.push(parseInt(text.slice(i + 2, i + 4), 16));
      i += 4;
      continue;
    }
    if (text[i] === '\\') {
      throw new FormatError('corrupt', `a backslash in a key must start \\xHH (found ${JSON.stringify(text.slice(i, i + 4))})`, where);
    }
    const cp = text.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    for (const b of ENCODER.encode(ch)) out.push(b);
    i += ch.length;
  }
  return Uint8Array.from(out);
}

const ENCODER = new TextEncoder();

/** Byte-wise comparison, the order of keys in an fst. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

const MAX_U64 = (1n << 64n) - 1n;

/** A decimal u64 from text; anything else names the field and offset. */
export function parseU64(text: string, where: { offset?: number; field?: string }): bigint {
  if (!/^[0-9]{1,20}$/.test(text)) throw new FormatError('corrupt', `value ${JSON.stringify(text.slice(0, 40))} is not a decimal u64`, where);
  const v = BigInt(text);
  if (v > MAX_U64) throw new FormatError('corrupt', `value ${text} exceeds 2^64 − 1`, where);
  return v;
}
