import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hexBytes, hexString, quotedTextOrHex } from './describe.js';

describe('hex text of bytes', () => {
  it('writes two lowercase digits per byte, with the separator only between bytes', () => {
    expect(hexString(Uint8Array.of(0, 0x0f, 0xa0, 0xff))).toBe('000fa0ff');
    expect(hexString(Uint8Array.of(0, 0x0f, 0xff), ' ')).toBe('00 0f ff');
    expect(hexString(new Uint8Array(0), ' ')).toBe('');
  });

  it('reads back to the same bytes for any input', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const text = hexString(bytes);
        expect(text).toMatch(/^([0-9a-f]{2})*$/);
        expect(Uint8Array.from(text.match(/../g) ?? [], (h) => parseInt(h, 16))).toEqual(bytes);
      }),
    );
  });

  it('cuts a long run at max bytes with an ellipsis', () => {
    expect(hexBytes(Uint8Array.of(1, 2, 3, 4), 2)).toBe('01 02 …');
    expect(hexBytes(Uint8Array.of(1, 2), 2)).toBe('01 02');
  });
});

describe('quoted text of bytes', () => {
  it('quotes UTF-8 as a JSON string and shows other bytes as 0x hex', () => {
    expect(quotedTextOrHex(new TextEncoder().encode('Zürich "x"\n'))).toBe('"Zürich \\"x\\"\\n"');
    expect(quotedTextOrHex(Uint8Array.of(0xff, 0x00))).toBe('0xff00');
    expect(quotedTextOrHex(new Uint8Array(0))).toBe('""');
  });
});
