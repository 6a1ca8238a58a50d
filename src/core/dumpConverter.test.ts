import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { converted, imported, openDetected, text } from '../../test/helpers/registry.js';

/**
 * The "annotated structure" converter every format offers is not read back; what it must keep is
 * the file's layout: property-based, on random files of every format made through the registry's
 * importers, the dump names the file, its format and size, its entries cover every byte of the
 * file, and (all formats but IDV) its top-level entries follow one another to the end of the file.
 */

const RUNS = 200;

interface Line {
  readonly offset?: number;
  readonly length?: number;
  readonly depth: number;
  readonly label: string;
}

/** The structure section of a dump: `OFFSET LENGTH  <indent>label…`, two spaces per level. */
function structureLines(dump: string): Line[] {
  const lines = dump.split('\n');
  const at = lines.indexOf('structure:');
  expect(at).toBeGreaterThan(0);
  return lines
    .slice(at + 1)
    .filter(Boolean)
    .map((l) => {
      const m = /^([0-9a-f]{8}|-       ) +(\d+|-)  ( *)(.*)$/.exec(l);
      expect(m, l).not.toBeNull();
      return {
        offset: m![1] === '-       ' ? undefined : parseInt(m![1]!, 16),
        length: m![2] === '-' ? undefined : Number(m![2]),
        depth: m![3]!.length / 2,
        label: m![4]!,
      };
    });
}

/** `tiles`: the top-level entries follow one another; otherwise (IDV nests its blocks under the table of contents) only together do all entries cover the file. */
async function checkDump(bytes: Uint8Array, name: string, format: string, tiles = true): Promise<void> {
  const opened = await openDetected(bytes, name);
  expect(opened.format).toBe(format);
  const dump = text(await converted(opened, 'dump'));
  expect(dump.split('\n').slice(0, 4)).toEqual([
    'binlens-dump 1',
    `file: ${name}`,
    expect.stringMatching(new RegExp(`^format: ${format} \\(`)),
    `size: ${bytes.length}`,
  ]);
  const lines = structureLines(dump);
  expect(lines[0]).toMatchObject({ depth: 0, offset: 0, length: bytes.length });
  // Every entry lies inside the file, and below the root the entries cover every byte.
  const covered = new Uint8Array(bytes.length);
  for (const l of lines) {
    if (l.offset === undefined) continue;
    expect(l.offset + l.length!, l.label).toBeLessThanOrEqual(bytes.length);
    if (l.depth > 0) covered.fill(1, l.offset, l.offset + l.length!);
  }
  expect(covered.indexOf(0), 'the first byte no entry covers').toBe(-1);
  if (!tiles) return;
  // Top-level entries with a range tile the file: each starts where the one before ends.
  let end = 0;
  for (const l of lines.filter((x) => x.depth === 1 && x.offset !== undefined)) {
    expect(l.offset, `${l.label} starts where the entry before it ends`).toBe(end);
    end = l.offset! + l.length!;
  }
  expect(end, 'the top-level entries reach the end of the file').toBe(bytes.length);
}

const plans = fc.array(fc.array(fc.integer({ min: 0, max: 65535 }), { minLength: 1, maxLength: 20 }), { minLength: 1, maxLength: 8 });
const jsonlOf = (p: number[][]) => p.map((a, i) => `{"assignment":[${a.join(',')}],"sample":${i + 1}}\n`).join('');
const keys = fc.uniqueArray(
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 8 }).filter((k) => !/[\t\n\r\\]/.test(k)),
  { maxLength: 60 },
);
const rows = fc.array(fc.tuple(fc.integer(), fc.string({ unit: 'grapheme', maxLength: 8 })), { minLength: 1, maxLength: 30 });

describe('annotated structure (dump) converter, property-based on every format', () => {
  it('BEN, XBEN, BENDL: the dump accounts for every byte', async () => {
    await fc.assert(
      fc.asyncProperty(plans, fc.constantFrom('ben', 'xben', 'bendl'), fc.constantFrom('standard', 'mkv_chain', 'two_delta'), async (p, kind, variant) => {
        await checkDump(await imported('ben', kind, 'p.jsonl', jsonlOf(p), { variant, preset: 0 }), `p.${kind}`, 'ben');
      }),
      { numRuns: RUNS },
    );
  });

  it('xorb: the dump accounts for every byte', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 100_000 }), fc.constantFrom('full', 'footerless'), async (data, form) => {
        await checkDump(await imported('xorb', 'xorb', 'd.bin', data, { form }), 'd.xorb', 'xorb');
      }),
      { numRuns: RUNS },
    );
  });

  it('bindu (tables and byte streams): the dump accounts for every byte', async () => {
    await fc.assert(
      fc.asyncProperty(rows, fc.uint8Array({ maxLength: 5000 }), fc.boolean(), async (r, data, seal) => {
        const jsonl = r.map(([n, s]) => JSON.stringify({ n, s })).join('\n');
        await checkDump(await imported('bindu', 'bindu', 't.jsonl', jsonl, { seal, chunkRows: 7 }), 't.bindu', 'bindu');
        await checkDump(await imported('bindu', 'bindu-bytes', 'd.bin', data, { seal }), 'd.bindu', 'bindu');
      }),
      { numRuns: RUNS },
    );
  });

  it('IDV: the dump accounts for every byte (blocks listed under their columns)', async () => {
    await fc.assert(
      fc.asyncProperty(rows, fc.integer({ min: 0, max: 9 }), async (r, rowsPerBlock) => {
        const jsonl = r.map(([n, s]) => JSON.stringify({ n, s })).join('\n');
        await checkDump(await imported('idv', 'idv-from-jsonl', 't.jsonl', jsonl, { rowsPerBlock }), 't.idv', 'idv', false);
      }),
      { numRuns: RUNS },
    );
  });

  it('fst (maps and sets, every version): the dump accounts for every byte', async () => {
    await fc.assert(
      fc.asyncProperty(keys, fc.constantFrom('1', '2', '3'), async (k, version) => {
        const tsv = [...k]
          .sort()
          .map((key, i) => `${key}\t${i * 1000}\n`)
          .join('');
        await checkDump(await imported('fst', 'fst', 'm.tsv', tsv, { version }), 'm.fst', 'fst');
        await checkDump(await imported('fst', 'fst', 'k.txt', k.join('\n'), { version }), 'k.fst', 'fst');
      }),
      { numRuns: RUNS },
    );
  });
});
