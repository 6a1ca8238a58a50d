import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { xorshiftBytes } from '../../../../test/helpers/bytes.js';
import { memoryTarget } from '../../../../test/helpers/documents.js';
import { converted, openDetected, runConverter, runImporter } from '../../../../test/helpers/registry.js';
import { MemorySource } from '../../io/byteSource.js';
import { xorbImportersWith } from './convert.js';
import { chunkHasher, hashToString } from './hash.js';

/**
 * Property-based round trips through every xorb converter and importer, reached through the
 * registry: random inputs made of incompressible runs, repeated patterns (LZ4) and float-like
 * words (BG4), cut by the content-defined chunker into 1 to a few dozen chunks.
 */

const segment = fc.oneof(
  fc.uint8Array({ maxLength: 3000 }),
  fc.tuple(fc.integer({ min: 1, max: 200_000 }), fc.integer({ min: 1, max: 2 ** 31 })).map(([n, seed]) => xorshiftBytes(n, seed)),
  fc
    .tuple(fc.uint8Array({ minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 120_000 }))
    .map(([pattern, n]) => Uint8Array.from({ length: n }, (_, i) => pattern[i % pattern.length]!)),
  fc
    .tuple(fc.integer({ min: 1, max: 30_000 }), fc.double({ min: -4, max: 4, noNaN: true }))
    .map(([n, scale]) => new Uint8Array(Float32Array.from({ length: n }, (_, i) => Math.sin(i / 50) * scale).buffer)),
);
const input = fc
  .array(segment, { minLength: 1, maxLength: 3 })
  .map((parts) => Uint8Array.from(Buffer.concat(parts)))
  .filter((b) => b.length > 0);
const scheme = fc.constantFrom('auto', 'none', 'lz4', 'bg4-lz4');
const form = fc.constantFrom('full', 'footerless');
const RUNS = 120;

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

async function toXorb(data: Uint8Array, options: Record<string, string>): Promise<Uint8Array> {
  const w = await runImporter('xorb', 'xorb', 'data.bin', data, options);
  return w.files.get('')!;
}

describe('xorb conversions round trip (property-based, through the registry)', () => {
  it('any bytes → xorb (every scheme, both forms) → raw gives the same bytes', async () => {
    await fc.assert(
      fc.asyncProperty(input, scheme, form, async (data, s, f) => {
        const xorb = await toXorb(data, { scheme: s, form: f });
        expect(same(await converted(await openDetected(xorb, 'a.xorb'), 'raw'), data)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('xorb → the other form → the first form again is byte-identical, with the same raw bytes', async () => {
    await fc.assert(
      fc.asyncProperty(input, scheme, form, async (data, s, f) => {
        const original = await toXorb(data, { scheme: s, form: f });
        const other = await converted(await openDetected(original, 'a.xorb'), 'xorb', { form: f === 'full' ? 'footerless' : 'full' });
        expect(same(await converted(await openDetected(other, 'b.xorb'), 'raw'), data)).toBe(true);
        expect(same(await converted(await openDetected(other, 'b.xorb'), 'xorb', { form: f }), original)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('xorb → one file per chunk: in name order they concatenate to the raw bytes, each named by its own chunk hash', async () => {
    const hash = await chunkHasher();
    await fc.assert(
      fc.asyncProperty(input, scheme, async (data, s) => {
        const { files } = await runConverter(await openDetected(await toXorb(data, { scheme: s }), 'a.xorb'), 'chunks');
        const names = [...files.keys()].sort();
        expect(same(Uint8Array.from(Buffer.concat(names.map((n) => files.get(n)!))), data)).toBe(true);
        names.forEach((n, i) => {
          const m = /^(\d+)-([0-9a-f]{64})\.bin$/.exec(n);
          expect(m, n).not.toBeNull();
          expect(Number(m![1])).toBe(i);
          expect(m![2]).toBe(hashToString(hash(files.get(n)!)));
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('any bytes → a folder of xorbs → each xorb raw, in the order written, gives the same bytes; each is named by its hash', async () => {
    await fc.assert(
      fc.asyncProperty(input, scheme, form, fc.boolean(), async (data, s, f, small) => {
        // Xet's limits (the registry's importer) give one xorb here; small limits make several.
        const files = small
          ? await (async () => {
              const target = memoryTarget();
              const imp = xorbImportersWith({ maxBytes: 150_000, maxChunks: 3 }).find((i) => i.id === 'xorbs')!;
              await imp.run(new MemorySource(data), target, {}, { scheme: s, form: f });
              return target.files;
            })()
          : (await runImporter('xorb', 'xorbs', 'data.bin', data, { scheme: s, form: f })).files;
        const parts: Uint8Array[] = [];
        for (const [name, bytes] of files) {
          const opened = await openDetected(bytes, name);
          expect(name).toBe(`${(opened.doc.info() as { xorbHash: string }).xorbHash}.xorb`);
          parts.push(await converted(opened, 'raw'));
        }
        expect(same(Uint8Array.from(Buffer.concat(parts)), data)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });
});
