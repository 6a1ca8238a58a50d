import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { fixture } from '../helpers/fixtures.js';
import { unitSquare } from '../helpers/shapes.js';
import { VsCodeSession } from './session.js';

/**
 * The plan on its precinct map in a real VS Code: a bundle of the grid4x4 chain whose graph gives
 * node i the unit square at (x, y) + 1000 (planar), so the Plan tab draws filled precincts. Sample 1
 * puts column x in district x + 1, so Enter on the map's centre (after one pan right and up, node
 * (2, 2)) selects district 3 of 4 precincts; the Districts tab adds Polsby-Popper: a 1×4 strip
 * has area 4 and perimeter 10, 4π·4/100 = 0.503.
 */
const HOSTS = [
  { host: 'desktop', settings: {}, shot: 'ben-plan-map' },
  { host: 'web', settings: { 'remote.extensionKind': { 'binlens.binlens': ['web'] } }, shot: 'ben-plan-map-web' },
];

describe.each(HOSTS)('The plan on its precinct map in VS Code (code-server, $host extension host)', ({ settings, shot }) => {
  let vs: VsCodeSession;
  const made = mkdtempSync(join(tmpdir(), 'binlens-e2e-planmap-'));
  const graph = join(made, 'shapes_graph.json');
  const bundle = join(made, 'shapes.bendl');

  beforeAll(async () => {
    const grid = JSON.parse(readFileSync(fixture('ben/grid4x4_graph.json'), 'utf8')) as { nodes: (Record<string, unknown> & { x: number; y: number })[] };
    writeFileSync(
      graph,
      JSON.stringify({ ...grid, nodes: grid.nodes.map((n) => ({ ...n, geometry: { type: 'Polygon', coordinates: unitSquare(n.x, n.y) } })) }),
    );
    const r = spawnSync(process.execPath, [CLI, 'convert', fixture('ben/grid4x4_chain.jsonl'), bundle, '--to', 'bendl', '--set', `graph=${graph}`], {
      encoding: 'utf8',
    });
    if (r.status !== 0 || !existsSync(bundle)) throw new Error(`could not make the bundle: ${r.stderr}`);
    vs = await VsCodeSession.start([{ file: 'shapes.bendl', from: bundle }], settings);
  });

  afterAll(async () => {
    await vs?.stop();
    rmSync(made, { recursive: true, force: true });
  });

  it('draws the precincts, selects a district from the keyboard, and the Districts tab adds Polsby-Popper', async () => {
    try {
      const view = await vs.open('shapes.bendl', 'ben');
      await view.getByRole('tab', { name: 'Plan', exact: true }).click();
      const map = view.locator('canvas.precinct-map');
      await map.waitFor({ timeout: 30_000 });
      expect(await view.locator('.plan-caption').first().textContent()).toMatch(/precincts as drawn in the graph/);
      await map.focus();
      await map.press('ArrowRight');
      await map.press('ArrowUp');
      await map.press('Enter');
      await expect.poll(() => view.locator('.map-status').textContent(), { timeout: 15_000 }).toBe('district 3 selected: 4 precincts');
      await vs.shot(shot);
      await view.getByRole('tab', { name: 'Districts' }).click();
      await view.getByRole('table').waitFor({ timeout: 30_000 });
      const last = await view.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => tr.lastElementChild?.textContent));
      expect(last).toEqual(['0.503', '0.503', '0.503', '0.503']);
    } catch (e) {
      await vs.shot(`failed-${shot}`);
      throw new Error(`${(e as Error).message}\n--- code-server log ---\n${vs.logTail()}`);
    }
  });
});
