import { describe, expect, it } from 'vitest';
import { FormatError } from '../errors.js';
import { BinReader } from './binReader.js';
import { bytes, i32le, u24le, i64le, i64leNumber, layout, pad, u16le, u32le, u64le, u64leNumber, u8 } from './layout.js';

const L = layout({
  tag: bytes(2, 'tag'),
  a: u8('a'),
  gap: pad(1, 'gap'),
  b: u16le('b'),
  c: u32le('c'),
  d: u64le('d'),
  e: i64le('e'),
  f: u64leNumber('f'),
  g: i32le('g'),
  h: i64leNumber('h'),
  k: u24le('k'),
});
// Hand-laid bytes: tag "ok", a = 7, gap, b = 0x0201, c = 0x06050403, d = 8, e = −2, f = 2^40, g = −3, h = −256, k = 0x030201.
const BYTES = Uint8Array.from([
  0x6f, 0x6b, 7, 0xee, 1, 2, 3, 4, 5, 6, 8, 0, 0, 0, 0, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 1, 0, 0, 0xfd, 0xff, 0xff, 0xff,
  0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1, 2, 3,
]);

describe('layout', () => {
  it('places each field after the one before, in declared order', () => {
    expect(L.keys().map((k) => [k, L.offset(k)])).toEqual([
      ['tag', 0],
      ['a', 2],
      ['gap', 3],
      ['b', 4],
      ['c', 6],
      ['d', 10],
      ['e', 18],
      ['f', 26],
      ['g', 34],
      ['h', 38],
      ['k', 46],
    ]);
    expect(L.size).toBe(49);
    expect(L.range('c', 100)).toEqual({ offset: 106, length: 4 });
    expect(L.span('a', 'b')).toEqual({ offset: 2, length: 4 });
  });

  it('reads hand-laid bytes little-endian, skipping padding', () => {
    const v = L.read(new BinReader(BYTES));
    expect({ ...v, tag: [...v.tag] }).toEqual({ tag: [0x6f, 0x6b], a: 7, b: 0x0201, c: 0x06050403, d: 8n, e: -2n, f: 2 ** 40, g: -3, h: -256, k: 0x030201 });
  });

  it('writes the same bytes back, padding as zeros', () => {
    const out = new Uint8Array(L.size);
    L.write(L.read(new BinReader(BYTES)), out);
    expect([...out]).toEqual([...BYTES.slice(0, 3), 0, ...BYTES.slice(4)]);
  });

  it('names the field and its absolute offset when the bytes run out', () => {
    const r = new BinReader(BYTES.subarray(0, 12), 1000);
    let e: unknown;
    try {
      L.read(r, 'record 3');
    } catch (err) {
      e = err;
    }
    expect(e).toBeInstanceOf(FormatError);
    expect(e).toMatchObject({ code: 'truncated', offset: 1010, field: 'record 3 d' });
    expect(L.at('c', 1000, 'record 3')).toEqual({ offset: 1006, field: 'record 3 c' });
  });
});
