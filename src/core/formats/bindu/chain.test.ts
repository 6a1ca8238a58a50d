import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FormatError, rethrowUnlessFormatError } from '../../errors.js';
import { readPatterns, untransform, type Transform } from './chain.js';
import { Codec } from './model.js';
import { ringOf } from './ring.js';

/** LEB128 as the spec writes it (minimal, 7 bits a byte, low bits first), by hand for the test. */
function leb128(values: readonly bigint[]): Uint8Array {
  const out: number[] = [];
  for (let v of values) {
    do {
      const low = Number(v & 0x7fn);
      v >>= 7n;
      out.push(v ? low | 0x80 : low);
    } while (v);
  }
  return Uint8Array.from(out);
}

const VARINT = { kind: Codec.VARINT } as const;

function refusal(f: () => unknown): Pick<FormatError, 'code' | 'offset' | 'detail'> {
  try {
    f();
  } catch (e) {
    rethrowUnlessFormatError(e);
    return { code: e.code, offset: e.offset, detail: e.detail };
  }
  throw new Error('accepted');
}

describe('VARINT patterns', () => {
  it.each([8, 16, 32, 64] as const)('read back every W-bit value written as a minimal LEB128 (W = %i)', (bits) => {
    const ring = ringOf(bits);
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: 0n, max: (1n << BigInt(bits)) - 1n }), { maxLength: 200 }), (values) => {
        const read = readPatterns(ring, VARINT, leb128(values), values.length, 0);
        expect(read.map((v) => BigInt(v))).toEqual(values);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a value wider than the ring, a non-minimal varint and one cut short, at the varint', () => {
    const r32 = ringOf(32);
    const at = 100;
    // 2^32 in five bytes, after one good value.
    expect(refusal(() => readPatterns(r32, VARINT, leb128([1n, 1n << 32n]), 2, at))).toEqual({
      code: 'corrupt',
      offset: at + 1,
      detail: 'value 4294967296 does not fit 32 bits',
    });
    // 0 written in two bytes, and 1 padded to six.
    expect(refusal(() => readPatterns(r32, VARINT, Uint8Array.of(5, 0x80, 0x00), 2, at))).toEqual({
      code: 'corrupt',
      offset: at + 1,
      detail: 'varint is not minimally encoded',
    });
    expect(refusal(() => readPatterns(r32, VARINT, Uint8Array.of(0x81, 0x80, 0x80, 0x80, 0x80, 0x00), 1, at))).toEqual({
      code: 'corrupt',
      offset: at,
      detail: 'varint is not minimally encoded',
    });
    expect(refusal(() => readPatterns(r32, VARINT, Uint8Array.of(7, 0x81, 0x80), 2, at))).toEqual({
      code: 'truncated',
      offset: at + 1,
      detail: 'varint runs past the end of the chunk',
    });
    expect(refusal(() => readPatterns(ringOf(8), VARINT, leb128([255n, 256n]), 2, at))).toEqual({
      code: 'corrupt',
      offset: at + 2,
      detail: 'value 256 does not fit 8 bits',
    });
    expect(refusal(() => readPatterns(r32, VARINT, Uint8Array.of(1, 2, 3), 2, at))).toEqual({
      code: 'corrupt',
      offset: at + 2,
      detail: '1 bytes after the last value',
    });
  });
});

describe('decoding stages', () => {
  /** The spec's inverse stages, one value at a time in bigints modulo 2^W. */
  function byHand(bits: number, transforms: readonly Transform[], values: readonly bigint[]): bigint[] {
    const mod = 1n << BigInt(bits);
    const out = [...values];
    for (const tr of [...transforms].reverse()) {
      if (tr.kind === Codec.ZIGZAG) for (let i = 0; i < out.length; i++) out[i] = out[i]! & 1n ? (mod - ((out[i]! + 1n) >> 1n)) % mod : out[i]! >> 1n;
      else if (tr.kind === Codec.FOR) {
        let ref = 0n;
        for (let k = tr.reference.length - 1; k >= 0; k--) ref = (ref << 8n) | BigInt(tr.reference[k]!);
        for (let i = 0; i < out.length; i++) out[i] = (out[i]! + ref) % mod;
      } else for (let i = tr.stride; i < out.length; i++) out[i] = (out[i]! + out[i - tr.stride]!) % mod;
    }
    return out;
  }

  it.each([8, 16, 32, 64] as const)('undo ZIGZAG, FOR and DELTA modulo 2^W as the spec defines them (W = %i)', (bits) => {
    const ring = ringOf(bits);
    const pattern = fc.bigInt({ min: 0n, max: (1n << BigInt(bits)) - 1n });
    const stage: fc.Arbitrary<Transform> = fc.oneof(
      fc.constant({ kind: Codec.ZIGZAG } as const),
      fc.integer({ min: 1, max: 4 }).map((stride) => ({ kind: Codec.DELTA, stride }) as const),
      fc.uint8Array({ minLength: bits / 8, maxLength: bits / 8 }).map((reference) => ({ kind: Codec.FOR, reference }) as const),
    );
    fc.assert(
      fc.property(fc.array(stage, { maxLength: 3 }), fc.array(pattern, { maxLength: 64 }), (transforms, values) => {
        const typed = values.map((v) => (bits === 64 ? v : Number(v)));
        expect(untransform(ring, transforms, typed).map((v) => BigInt(v))).toEqual(byHand(bits, transforms, values));
      }),
      { numRuns: 400 },
    );
  });
});
