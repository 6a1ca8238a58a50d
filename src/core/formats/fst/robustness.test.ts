import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../../test/helpers/fixtures.js';
import { rethrowUnlessFormatError } from '../../errors.js';
import { MemorySource } from '../../io/byteSource.js';
import { fstHandler } from './handler.js';

/**
 * Damaged files never crash the reader (fst#57, vellum#23): whatever bytes are flipped or cut,
 * opening, paging, searching, cat and deep verify either work or throw a FormatError naming an
 * offset, and every walk ends (the outputs are capped, the walk itself is bounded by the file).
 */
const SOURCES = ['fst/small.map.fst1.fst', 'fst/small.map.fst3.fst', 'fst/wide.map.fst2.fst', 'fst/wide.set.fst3.fst', 'fst/tiny.map.vellum1.fst'].map(
  readFixture,
);

async function exercise(bytes: Uint8Array): Promise<void> {
  const located = (e: unknown) => {
    rethrowUnlessFormatError(e);
    expect(e.offset === undefined || Number.isInteger(e.offset)).toBe(true);
  };
  let doc;
  try {
    doc = await fstHandler.open(new MemorySource(bytes), {});
  } catch (e) {
    located(e);
    return;
  }
  for (const run of [
    async () => void (await doc.tables[0]?.page(0, 50)),
    async () => void (await doc.tables[0]?.page(30, 5)),
    async () => void (await doc.cat?.run('tsv', { count: 2000 }, { write: async () => undefined }, {})),
    async () => {
      for await (const c of doc.verify({})) void c;
    },
    async () => void (await doc.searches?.find((s) => s.id === 'fuzzy')?.run({ query: 'abc', distance: 2, limit: 500 }, {}, () => undefined)),
    async () => void (await doc.searches?.find((s) => s.id === 'regex')?.run({ pattern: '.*a.*', limit: 500 }, {}, () => undefined)),
    async () => void (await doc.panels?.find((p) => p.id === 'automaton')?.data({})),
  ]) {
    await run().catch(located);
  }
}

describe('fst reader on damaged bytes (property-based)', () => {
  it('random byte changes anywhere: only located FormatErrors, and every walk ends', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: SOURCES.length - 1 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 4 }),
        async (which, flips) => {
          const bytes = SOURCES[which]!.slice();
          for (const [at, x] of flips) bytes[at % bytes.length]! ^= x;
          await exercise(bytes);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('truncated and extended files: only located FormatErrors', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: SOURCES.length - 1 }), fc.nat(), fc.uint8Array({ maxLength: 8 }), async (which, cut, tail) => {
        const src = SOURCES[which]!;
        const bytes = Uint8Array.from([...src.subarray(0, cut % (src.length + 1)), ...tail]);
        await exercise(bytes);
      }),
      { numRuns: 200 },
    );
  });
});
