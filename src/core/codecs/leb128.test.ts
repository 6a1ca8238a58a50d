import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../errors.js';
import { BinReader } from '../io/binReader.js';
import { encodeLeb128, readLeb128, readLeb128Big } from './leb128.js';

const reader = (...bytes: number[]) => new BinReader(Uint8Array.from(bytes), 100);

describe('LEB128', () => {
  it('reads values below and above 2^28 and advances past them', () => {
    const r = reader(0xe5, 0x8e, 0x26, 0x80, 0x80, 0x80, 0x80, 0x01, 0x07);
    expect(readLeb128(r, 'a')).toBe(624485);
    expect(readLeb128(r, 'b')).toBe(2 ** 28);
    expect(r.pos).toBe(8);
  });

  it('round-trips every u64 through encode and decode', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), (v) => {
        expect(readLeb128Big(new BinReader(encodeLeb128(v)), 'v')).toBe(v);
      }),
    );
  });

  it('rejects a redundant final zero group only when minimal encoding is required', () => {
    expect(readLeb128(reader(0x81, 0x00), 'v')).toBe(1);
    expect(() => readLeb128(reader(0x81, 0x00), 'v', { minimal: true })).toThrow(/not minimally encoded/);
  });

  it('names the field and the start offset when the value is cut off, too long or too large', () => {
    const cut = (() => {
      try {
        readLeb128(reader(0x80, 0x80), 'row count');
      } catch (e) {
        return e as FormatError;
      }
    })();
    expect(cut).toBeInstanceOf(FormatError);
    expect(cut?.code).toBe('truncated');
    expect(cut?.field).toBe('row count');
    expect(() => readLeb128Big(reader(...Array(11).fill(0x80), 0x01), 'v')).toThrow(/longer than 10 bytes/);
    expect(() => readLeb128Big(reader(...Array(9).fill(0xff), 0x7f), 'v')).toThrow(/exceeds 64 bits/);
    expect(() => readLeb128(reader(...Array(8).fill(0xff), 0x7f), 'v')).toThrow(expect.objectContaining({ code: 'limit', offset: 100 }));
  });

  it('honours a byte limit (the 5-byte .NET string length)', () => {
    expect(() => readLeb128(reader(0x80, 0x80, 0x80, 0x80, 0x80, 0x01), 'len', { maxBytes: 5 })).toThrow(/longer than 5 bytes/);
  });
});
