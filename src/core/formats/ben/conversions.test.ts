import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CollectingLog } from '../../integrity.js';
import { FormatError } from '../../errors.js';
import { MemorySource } from '../../io/byteSource.js';
import { converted, imported, openDetected, runConverter, text, type Opened } from '../../../../test/helpers/registry.js';

/**
 * Property-based round trips through every BEN/XBEN/BENDL converter and importer, reached through
 * the registry as `binlens convert` reaches them: random ensembles (any district 0..65535, exact
 * repeats, pair swaps), every variant, every container.
 */

const RUNS = 300;

const ensemble = fc
  .array(
    fc.oneof(
      fc.array(fc.integer({ min: 0, max: 65535 }), { minLength: 1, maxLength: 30 }),
      fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 30 }),
    ),
    { minLength: 1, maxLength: 10 },
  )
  .chain((plans) =>
    fc.array(fc.tuple(fc.nat(), fc.nat(), fc.boolean()), { maxLength: 12 }).map((edits) => {
      const out = plans.map((p) => [...p]);
      for (const [i, j, repeat] of edits) {
        const k = i % out.length;
        if (k === 0) continue;
        const next = [...out[k - 1]!];
        if (!repeat && next.length > 1) {
          const a = j % next.length;
          const b = (j * 7 + 3) % next.length;
          [next[a], next[b]] = [next[b]!, next[a]!];
        }
        out[k] = next;
      }
      return out;
    }),
  );

const asJsonl = (plans: number[][]) => plans.map((a, i) => `{"assignment":[${a.join(',')}],"sample":${i + 1}}\n`).join('');

const variant = fc.constantFrom('standard', 'mkv_chain', 'two_delta');
const container = fc.constantFrom('ben', 'xben', 'bendl');

/** JSONL → a file of this container through the registry's importer, opened by content. */
async function fromJsonl(jsonl: string, kind: string, v: string, stream = 'ben'): Promise<{ bytes: Uint8Array; opened: Opened }> {
  const bytes = await imported('ben', kind, 'plans.jsonl', jsonl, { variant: v, preset: 0, stream });
  return { bytes, opened: await openDetected(bytes, `plans.${kind}`) };
}

const jsonlOf = async (opened: Opened) => text(await converted(opened, 'jsonl'));

describe('BEN conversions round trip (property-based, through the registry)', () => {
  it('JSONL → BEN / XBEN / BENDL (importers, every variant) → JSONL (converter) is identical', async () => {
    await fc.assert(
      fc.asyncProperty(ensemble, container, variant, fc.constantFrom('ben', 'xben'), async (plans, kind, v, stream) => {
        const jsonl = asJsonl(plans);
        const { opened } = await fromJsonl(jsonl, kind, v, stream);
        expect(opened.format).toBe('ben');
        expect(await jsonlOf(opened)).toBe(jsonl);
      }),
      { numRuns: RUNS },
    );
  });

  it('any container → BEN / XBEN / BENDL (converters, any variant) → JSONL is identical', async () => {
    await fc.assert(
      fc.asyncProperty(ensemble, container, variant, container, variant, async (plans, fromKind, fromVariant, to, toVariant) => {
        const jsonl = asJsonl(plans);
        const { opened } = await fromJsonl(jsonl, fromKind, fromVariant);
        const out = await converted(opened, to, { variant: toVariant, preset: 0 });
        expect(await jsonlOf(await openDetected(out, `out.${to}`))).toBe(jsonl);
      }),
      { numRuns: RUNS },
    );
  });

  it('BENDL → stream: the embedded stream is the BEN / XBEN file the importer writes for the same plans', async () => {
    await fc.assert(
      fc.asyncProperty(ensemble, variant, fc.constantFrom('ben', 'xben'), async (plans, v, stream) => {
        const jsonl = asJsonl(plans);
        const { opened } = await fromJsonl(jsonl, 'bendl', v, stream);
        const embedded = await converted(opened, 'stream');
        const direct = await imported('ben', stream, 'plans.jsonl', jsonl, { variant: v, preset: 0 });
        expect(Buffer.from(embedded).equals(Buffer.from(direct))).toBe(true);
        expect(await jsonlOf(await openDetected(embedded, `s.${stream}`))).toBe(jsonl);
      }),
      { numRuns: RUNS },
    );
  });

  it('BENDL → BENDL (other stream, variant) → assets: every asset comes back byte for byte, with the same plans', async () => {
    await fc.assert(
      fc.asyncProperty(
        ensemble,
        variant,
        fc.constantFrom('ben', 'xben'),
        fc.uint8Array({ maxLength: 3000 }),
        fc.jsonValue(),
        async (plans, v, stream, custom, meta) => {
          const jsonl = asJsonl(plans);
          const files: Record<string, Uint8Array> = { 'dir/extra.bin': custom, 'meta.json': new TextEncoder().encode(JSON.stringify(meta) ?? 'null') };
          const ctx = { openPath: async (p: string) => new MemorySource(files[p]!) };
          const first = await imported(
            'ben',
            'bendl',
            'plans.jsonl',
            jsonl,
            { variant: v, preset: 0, stream, assets: 'dir/extra.bin', metadata: 'meta.json' },
            ctx,
          );
          const again = await converted(await openDetected(first, 'a.bendl'), 'bendl', { stream: stream === 'ben' ? 'xben' : 'ben', preset: 0 });
          const opened = await openDetected(again, 'b.bendl');
          expect(await jsonlOf(opened)).toBe(jsonl);
          const { files: assets } = await runConverter(opened, 'assets');
          expect(Object.fromEntries([...assets].map(([n, b]) => [n, Buffer.from(b).toString('hex')]))).toEqual({
            'metadata.json': Buffer.from(files['meta.json']!).toString('hex'),
            'extra.bin': Buffer.from(custom).toString('hex'),
          });
        },
      ),
      { numRuns: RUNS / 2 },
    );
  });

  it('recover: a file cut anywhere gives back a whole-sample prefix of its plans; an intact bundle gives them all', async () => {
    await fc.assert(
      fc.asyncProperty(ensemble, container, variant, fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), async (plans, kind, v, where) => {
        const jsonl = asJsonl(plans);
        const { bytes, opened } = await fromJsonl(jsonl, kind, v);
        if (kind === 'bendl') expect(await jsonlOf(await openDetected(await converted(opened, 'recover'), 'r.bendl'))).toBe(jsonl);
        // Streams keep their 17-byte banner; bundles their 72-byte header, so every cut is still detected as BEN.
        const keep = kind === 'bendl' ? 72 : 17;
        const cut = bytes.subarray(0, keep + Math.floor(where * (bytes.length - keep)));
        const damaged = await openDetected(cut, `cut.${kind}`);
        if (!damaged.converters.some((c) => c.id === 'recover')) {
          // An XBEN cut before its BEN banner decompresses has no samples: its conversions say
          // so as damage (strict: the located error; salvage: nothing, listed). A bundle cut
          // there still recovers (its intact assets, no sample).
          if (kind !== 'ben') {
            expect(kind).toBe('xben');
            await expect(converted(damaged, 'jsonl')).rejects.toBeInstanceOf(FormatError);
            const log = new CollectingLog(true);
            expect(await converted(damaged, 'jsonl', {}, { integrity: log })).toHaveLength(0);
            expect(log.damage).toEqual([expect.objectContaining({ unit: 'stream', rows: { from: 1 } })]);
            return;
          }
          // A BEN cut exactly at a frame boundary is a shorter, sound stream: nothing to recover.
          expect(jsonl.startsWith(await jsonlOf(damaged))).toBe(true);
          return;
        }
        // Recover is salvage: what it leaves out goes to the log.
        const recovered = await openDetected(await converted(damaged, 'recover', {}, { integrity: new CollectingLog(true) }), `r.${kind}`);
        const got = await jsonlOf(recovered);
        expect(jsonl.startsWith(got)).toBe(true);
        expect(got === '' || got.endsWith('\n')).toBe(true);
      }),
      { numRuns: RUNS * 2 },
    );
  });
});
