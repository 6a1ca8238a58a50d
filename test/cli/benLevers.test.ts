import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binlens } from '../helpers/cli.js';
import { fixture } from '../helpers/fixtures.js';
import { scratchDir } from '../helpers/scratch.js';

/** `binlens convert --set relabel=… / reorder-by=… / permutation=… direction=…` (CLI contract, issue 20 item 5). */

const dir = scratchDir('levers');
const at = (name: string) => join(dir, name);
const GRID = fixture('ben/grid4x4_chain.standard.ben');
const GRAPH = fixture('ben/grid4x4_graph.json');

describe('binlens convert: compression levers', () => {
  it('reorder-by=x sorts the 4×4 grid column by column, writes the map and the graph beside the output, and says the BEN sizes', async () => {
    const r = await binlens('convert', GRID, at('x.ben'), '--set', 'reorder-by=x', '--set', `graph=${GRAPH}`);
    expect(r.code).toBe(0);
    // By hand: node k has x = k % 4, so column 0 (nodes 0, 4, 8, 12) comes first, and so on.
    const map = JSON.parse(readFileSync(at('x.ben.node_permutation_map.json'), 'utf8')) as Record<string, unknown>;
    expect(map).toEqual({
      ordering_method: 'key',
      key: 'x',
      node_permutation_old_to_new: { 0: 0, 1: 4, 2: 8, 3: 12, 4: 1, 5: 5, 6: 9, 7: 13, 8: 2, 9: 6, 10: 10, 11: 14, 12: 3, 13: 7, 14: 11, 15: 15 },
    });
    const graph = JSON.parse(readFileSync(at('x.ben.graph.json'), 'utf8')) as { nodes: { GEOID: string }[] };
    expect(graph.nodes.map((n) => n.GEOID).slice(0, 8)).toEqual(['G00', 'G04', 'G08', 'G12', 'G01', 'G05', 'G09', 'G13']);
    // Sample 1 gives each column its own district (1 2 3 4 in every row): four runs of four after the sort.
    const first = (await binlens('cat', at('x.ben'), '--count', '1')).stdout;
    expect(first).toBe('{"assignment":[1,1,1,1,2,2,2,2,3,3,3,3,4,4,4,4],"sample":1}\n');
    // 629 bytes: the reference encoder's grid4x4_chain.standard.ben; longer runs make it smaller.
    const size = readFileSync(at('x.ben')).length;
    expect(size).toBeLessThan(629);
    expect(r.stderr).toContain(`reorder-by=x: BEN 629 → ${size} bytes`);
  });

  it('direction=inverse with the written map gives back the reference JSONL byte for byte', async () => {
    if (!existsSync(at('x.ben'))) await binlens('convert', GRID, at('x.ben'), '--set', 'reorder-by=x', '--set', `graph=${GRAPH}`);
    const r = await binlens(
      'convert',
      at('x.ben'),
      at('back.jsonl'),
      '--set',
      `permutation=${at('x.ben.node_permutation_map.json')}`,
      '--set',
      'direction=inverse',
    );
    expect(r.code).toBe(0);
    expect(readFileSync(at('back.jsonl'), 'utf8')).toBe(readFileSync(fixture('ben/grid4x4_chain.jsonl'), 'utf8'));
  });

  it('relabel=canonical renumbers each sample by first appearance (v1_source: only sample 5 changes, [2,2,2,1] → [1,1,1,2])', async () => {
    const r = await binlens('convert', fixture('ben/v1_source.mkv_chain.ben'), at('c.jsonl'), '--set', 'relabel=canonical');
    expect(r.code).toBe(0);
    const truth = readFileSync(fixture('ben/v1_source.jsonl'), 'utf8').split('\n');
    expect(truth[4]).toBe('{"assignment":[2,2,2,1],"sample":5}');
    expect(readFileSync(at('c.jsonl'), 'utf8')).toBe([...truth.slice(0, 4), '{"assignment":[1,1,1,2],"sample":5}', ''].join('\n'));
    expect(r.stderr).toMatch(/relabel=canonical: BEN \d+ → \d+ bytes/);
  });

  it('into a BENDL: the map and the moved graph go into the bundle', async () => {
    const r = await binlens(
      'convert',
      GRID,
      at('x.bendl'),
      '--set',
      'reorder-by=x',
      '--set',
      `graph=${GRAPH}`,
      '--set',
      'relabel=canonical',
      '--set',
      'stream=xben',
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/reorder-by=x, relabel=canonical: BEN 629 → \d+ → \d+ bytes \(.*\), XBEN \d+ → \d+ → \d+ bytes/);
    expect(readdirSync(dir).filter((n) => n.startsWith('x.bendl'))).toEqual(['x.bendl']);
    await binlens('convert', at('x.bendl'), at('x-assets'), '--to', 'assets');
    expect(readdirSync(at('x-assets')).sort()).toEqual(['graph.json', 'node_permutation_map.json']);
    expect(readFileSync(at('x-assets/node_permutation_map.json'), 'utf8')).toBe(readFileSync(at('x.ben.node_permutation_map.json'), 'utf8'));
  });

  it('bad input exits 2 and writes nothing: a map that is no bijection, node counts that differ, a missing or non-sortable attribute, a map or graph nothing uses', async () => {
    writeFileSync(at('dup.json'), '{"node_permutation_old_to_new":{"0":1,"1":1,"2":0,"3":2}}');
    writeFileSync(at('short.json'), '{"node_permutation_old_to_new":{"0":1,"1":0,"2":2}}');
    writeFileSync(
      at('mixed.json'),
      JSON.stringify({
        nodes: [
          { id: 0, A: 1 },
          { id: 1, A: 'b' },
          { id: 2, A: 3 },
          { id: 3, A: 4 },
        ],
        adjacency: [[], [], [], []],
      }),
    );
    const v1 = fixture('ben/v1_source.standard.ben');
    const cases: [string[], RegExp][] = [
      [[v1, '--set', `permutation=${at('dup.json')}`, '--set', 'direction=forward'], /dup\.json: new index 1 is not a unique index 0\.\.3/],
      [[v1, '--set', `permutation=${at('short.json')}`, '--set', 'direction=inverse'], /sample 1 assigns 4 nodes, the node map has 3/],
      [[v1, '--set', 'reorder-by=x', '--set', `graph=${GRAPH}`], /sample 1 assigns 4 nodes, the graph has 16/],
      [[GRID, '--set', 'reorder-by=TOTPOPX', '--set', `graph=${GRAPH}`], /nodes\[0\]\.TOTPOPX: attribute "TOTPOPX" is missing on node 0/],
      [[v1, '--set', 'reorder-by=A', '--set', `graph=${at('mixed.json')}`], /nodes\[1\]\.A: .*do not compare/],
      [[GRID, '--set', 'reorder-by=x'], /give the graph with graph=/],
      [[v1, '--set', `permutation=${at('short.json')}`], /permutation= needs direction=forward or direction=inverse/],
      [[GRID, '--set', `graph=${GRAPH}`], /graph= is read by reorder-by/],
    ];
    for (const [args, message] of cases) {
      const [input, ...set] = args;
      const r = await binlens('convert', input!, at('bad.ben'), ...set);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/damaged/);
      expect(readdirSync(dir).filter((n) => n.startsWith('bad.ben') || n.includes('.tmp'))).toEqual([]);
    }
  });
});
