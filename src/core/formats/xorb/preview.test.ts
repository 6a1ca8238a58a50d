import { describe, expect, it } from 'vitest';
import { xorshiftBytes } from '../../../../test/helpers/bytes.js';
import { readFixture } from '../../../../test/helpers/fixtures.js';
import { floats, guessView, renderPreview } from './preview.js';

const f32 = readFixture('xorb/03_bg4_float32.input.bin').subarray(0, 4096);

describe('chunk preview', () => {
  it('reads little-endian float32, bfloat16 and float16 exactly', () => {
    // 1.0f32 = 00 00 80 3f; bf16 1.0 = 80 3f; fp16 1.0 = 00 3c, fp16 -2.0 = 00 c0, fp16 2^-24 = 01 00.
    expect(floats(Uint8Array.of(0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0), 'float32')).toEqual([1, -2]);
    expect(floats(Uint8Array.of(0x80, 0x3f, 0x40, 0xc0, 0xc0, 0x7f), 'bf16')).toEqual([1, -3, Number.NaN]);
    expect(floats(Uint8Array.of(0x00, 0x3c, 0x00, 0xc0, 0x01, 0x00, 0x00, 0x7c, 0xff), 'fp16')).toEqual([1, -2, 2 ** -24, Number.POSITIVE_INFINITY]);
  });

  it('guesses text, float32 weights (at the right alignment) and hex', () => {
    expect(guessView(readFixture('xorb/02_lz4_text.input.bin').subarray(0, 4096))).toEqual({ view: 'text', shift: 0 });
    expect(guessView(f32)).toEqual({ view: 'float32', shift: 0 });
    // A chunk cut by the chunker can start inside a float.
    expect(guessView(f32.subarray(3))).toEqual({ view: 'float32', shift: 1 });
    expect(guessView(xorshiftBytes(4096)).view).toBe('hex');
  });

  it('renders hex with offsets and ASCII, and floats with their byte offsets', () => {
    expect(renderPreview(new TextEncoder().encode('Hello, xorb!\n'), 16, 'hex')).toBe(
      '00000010  48 65 6c 6c 6f 2c 20 78 6f 72 62 21 0a           |Hello, xorb!.|',
    );
    expect(renderPreview(Uint8Array.of(0, 0, 0x80, 0x3f, 0, 0, 0, 0xbf), 8, 'float32')).toBe(`00000008 ${'1'.padStart(13)} ${'-0.500000'.padStart(13)}`);
    expect(renderPreview(Uint8Array.of(0x41, 0x00, 0x0a, 0x42), 0, 'text')).toBe('A·\nB');
  });
});
