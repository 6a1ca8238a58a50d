import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../../test/helpers/fixtures.js';
import { converted, imported, openDetected, runConverter, text, type Opened } from '../../../../test/helpers/registry.js';
import { MemorySource } from '../../io/byteSource.js';

/**
 * The compression levers as `binlens convert --set` runs them (through the registry), on random
 * ensembles: no plan changes. Every expectation is computed here from the plans themselves.
 */

const RUNS = 60;

/** N nodes, 1..8 plans over them (some repeated, so MkvChain folds), and a node attribute with ties. */
const ensemble = fc.integer({ min: 1, max: 24 }).chain((n) =>
  fc.record({
    plans: fc
      .array(
        fc.oneof(
          fc.array(fc.integer({ min: 0, max: 5 }), { minLength: n, maxLength: n }),
          fc.array(fc.integer({ min: 0, max: 65535 }), { minLength: n, maxLength: n }),
        ),
        { minLength: 1, maxLength: 8 },
      )
      .chain((ps) => fc.array(fc.nat(ps.length - 1), { minLength: ps.length, maxLength: ps.length + 4 }).map((picks) => picks.map((k) => ps[k]!))),
    attr: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: n, maxLength: n }),
  }),
);

const asJsonl = (plans: readonly number[][]) => plans.map((a, i) => `{"assignment":[${a.join(',')}],"sample":${i + 1}}\n`).join('');
const plansOf = (jsonl: string) =>
  jsonl
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { assignment: number[] }).assignment);
const graphOf = (attr: readonly number[]) => JSON.stringify({ nodes: attr.map((a, i) => ({ id: `n${i}`, A: a })), adjacency: attr.map(() => []) });
const container = fc.constantFrom('ben', 'xben', 'bendl');
const variant = fc.constantFrom('standard', 'mkv_chain', 'two_delta');
const files = (f: Record<string, string>) => ({ openPath: async (p: string) => new MemorySource(new TextEncoder().encode(f[p]!)) });

async function open(plans: number[][], kind: string, v: string): Promise<Opened> {
  return openDetected(await imported('ben', kind, 'plans.jsonl', asJsonl(plans), { variant: v, preset: 0 }), `plans.${kind}`);
}

describe('compression levers (property-based, through the registry)', () => {
  it('relabel=canonical: every sample keeps its partition, numbered by first appearance', async () => {
    await fc.assert(
      fc.asyncProperty(ensemble, container, variant, container, async ({ plans }, from, v, to) => {
        const out = await converted(await open(plans, from, v), to, { relabel: 'canonical', variant: v, preset: 0 });
        const got = plansOf(text(await converted(await openDetected(out, `out.${to}`), 'jsonl')));
        expect(got.length).toBe(plans.length);
        got.forEach((b, k) => {
          const a = plans[k]!;
          for (let i = 0; i < a.length; i++) for (let j = i + 1; j < a.length; j++) expect(a[i] === a[j]).toBe(b[i] === b[j]);
          const firsts = b.filter((x, i) => b.indexOf(x) === i);
          expect(firsts).toEqual(firsts.map((_, i) => i + 1));
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('reorder-by=ATTR puts node i at its stable rank by the attribute; the map written beside undoes it to the same JSONL', async () => {
    await fc.assert(
      fc.asyncProperty(ensemble, container, variant, async ({ plans, attr }, from, v) => {
        const ctx = files({ 'g.json': graphOf(attr) });
        const w = await runConverter(await open(plans, from, v), 'ben', { 'reorder-by': 'A', graph: 'g.json', variant: v }, ctx);
        // Rank of node i: nodes with a smaller value, plus equal ones before it.
        const rank = attr.map((x, i) => attr.filter((y, j) => y < x || (y === x && j < i)).length);
        const moved = plansOf(text(await converted(await openDetected(w.files.get('')!, 'o.ben'), 'jsonl')));
        moved.forEach((b, k) => plans[k]!.forEach((x, i) => expect(b[rank[i]!]).toBe(x)));
        const map = JSON.parse(text(w.files.get('.node_permutation_map.json')!)) as { node_permutation_old_to_new: Record<string, number> };
        expect(map.node_permutation_old_to_new).toEqual(Object.fromEntries(rank.map((r, i) => [String(i), r])));
        const graph = JSON.parse(text(w.files.get('.graph.json')!)) as { nodes: { id: string }[] };
        expect(graph.nodes.map((n) => n.id)).toEqual(rank.map((_, r) => `n${rank.indexOf(r)}`));
        const back = await converted(
          await openDetected(w.files.get('')!, 'o.ben'),
          'jsonl',
          { permutation: 'm.json', direction: 'inverse' },
          files({ 'm.json': text(w.files.get('.node_permutation_map.json')!) }),
        );
        expect(text(back)).toBe(asJsonl(plans));
      }),
      { numRuns: RUNS },
    );
  });

  it('a map applied forward twice, then inverse twice, gives the same JSONL', async () => {
    await fc.assert(
      fc.asyncProperty(ensemble, container, variant, async ({ plans, attr }, kind, v) => {
        const rank = attr.map((x, i) => attr.filter((y, j) => y < x || (y === x && j < i)).length);
        const ctx = files({ 'm.json': JSON.stringify({ node_permutation_old_to_new: Object.fromEntries(rank.map((r, i) => [String(i), r])) }) });
        let opened = await open(plans, kind, v);
        for (const direction of ['forward', 'forward', 'inverse', 'inverse']) {
          opened = await openDetected(await converted(opened, kind, { permutation: 'm.json', direction, variant: v, preset: 0 }, ctx), `x.${kind}`);
        }
        expect(text(await converted(opened, 'jsonl'))).toBe(asJsonl(plans));
      }),
      { numRuns: RUNS / 2 },
    );
  });

  it('BENDL: reorder-by stores the moved graph and the map; undoing with the stored map restores the plans and drops the map', async () => {
    await fc.assert(
      fc.asyncProperty(ensemble, variant, fc.constantFrom('ben', 'xben'), async ({ plans, attr }, v, stream) => {
        const ctx = files({ 'g.json': graphOf(attr) });
        const bundle = await openDetected(
          await converted(await open(plans, 'ben', v), 'bendl', { 'reorder-by': 'A', graph: 'g.json', stream, variant: v, preset: 0 }, ctx),
          'r.bendl',
        );
        const assets = (await runConverter(bundle, 'assets')).files;
        expect([...assets.keys()].sort()).toEqual(['graph.json', 'node_permutation_map.json']);
        const undo = files({ 'm.json': text(assets.get('node_permutation_map.json')!) });
        const back = await openDetected(
          await converted(bundle, 'bendl', { permutation: 'm.json', direction: 'inverse', stream, variant: v, preset: 0 }, undo),
          'b.bendl',
        );
        expect(text(await converted(back, 'jsonl'))).toBe(asJsonl(plans));
        const left = (await runConverter(back, 'assets')).files;
        expect([...left.keys()]).toEqual(['graph.json']);
        expect(JSON.parse(text(left.get('graph.json')!))).toEqual(JSON.parse(graphOf(attr)));
      }),
      { numRuns: RUNS / 2 },
    );
  });
});

describe('the sizes each lever reports', () => {
  it("BEN before is the reference encoder's own file; after is the output (grid4x4_chain, Standard)", async () => {
    const opened = await openDetected(readFixture('ben/grid4x4_chain.standard.ben'), 'g.ben');
    const w = await runConverter(opened, 'ben', { relabel: 'canonical' });
    // 629 bytes: grid4x4_chain.standard.ben as the reference wrote it (fixtures MANIFEST).
    expect(w.report.summary).toContain(`relabel=canonical: BEN 629 → ${w.files.get('')!.length} bytes`);
  });

  it("XBEN outputs say both sizes; the last XBEN size is the output's", async () => {
    const opened = await openDetected(readFixture('ben/grid4x4_chain.standard.ben'), 'g.ben');
    const w = await runConverter(opened, 'xben', { relabel: 'canonical', preset: 0 });
    expect(w.report.summary).toMatch(new RegExp(`relabel=canonical: BEN 629 → \\d+ bytes \\(.*\\), XBEN \\d+ → ${w.files.get('')!.length} bytes`));
  });
});
