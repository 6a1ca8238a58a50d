import { describe, expect, it } from 'vitest';
import { FormatError } from '../errors.js';
import { BinReader } from './binReader.js';

describe('BinReader', () => {
  it('reads little- and big-endian fields at absolute offsets', () => {
    const r = new BinReader(Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14), 1000);
    expect(r.u16le('a')).toBe(0x0201);
    expect(r.u16be('b')).toBe(0x0304);
    expect(r.offset).toBe(1004);
    expect(r.u24le('c')).toBe(0x070605);
    expect(r.u32be('d')).toBe(0x08090a0b);
    expect(r.remaining).toBe(3);
  });

  it('fails with a located, named error instead of reading past the end', () => {
    const r = new BinReader(Uint8Array.of(1, 2, 3), 40);
    r.u8('first');
    let error: unknown;
    try {
      r.u32le('payload length');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FormatError);
    expect(error).toMatchObject({ code: 'truncated', offset: 41, field: 'payload length' });
    expect((error as Error).message).toBe('payload length at offset 41 (0x29): needs 4 bytes but only 2 remain');
  });

  it('refuses u64 offsets that JS numbers cannot hold exactly', () => {
    const r = new BinReader(Uint8Array.of(0, 0, 0, 0, 0, 0, 0x20, 0), 8);
    expect(() => r.u64leNumber('offset')).toThrow(expect.objectContaining({ code: 'limit', field: 'offset', offset: 8 }));
  });
});
