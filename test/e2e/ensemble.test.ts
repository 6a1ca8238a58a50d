import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { fixture } from '../helpers/fixtures.js';
import { VsCodeSession } from './session.js';

/**
 * The Ensemble tab in a real VS Code: the 48 plans of grid4x4_chain over its 4×4 grid with votes
 * added (node i: G20PRESD = 10 + i, G20PRESR = 25 − i) and an enacted-plan column CD (the grid's
 * rows as districts). The reference's percentile on the plot is compared with `binlens stats
 * --summary --reference`, which places it with its own exact counter (summary.ts Placer), not the
 * view's distributions.
 */
const HOSTS = [
  { host: 'desktop', settings: {}, shot: 'ben-ensemble' },
  { host: 'web', settings: { 'remote.extensionKind': { 'binlens.binlens': ['web'] } }, shot: 'ben-ensemble-web' },
];

describe.each(HOSTS)('Ensemble tab in VS Code (code-server, $host extension host)', ({ settings, shot }) => {
  let vs: VsCodeSession;
  const made = mkdtempSync(join(tmpdir(), 'binlens-e2e-ensemble-'));
  const graph = join(made, 'votes_graph.json');
  const bundle = join(made, 'votes.bendl');
  const enacted = join(made, 'enacted.json');
  let cli: { cut_edges: { percentile: number } };

  beforeAll(async () => {
    const grid = JSON.parse(readFileSync(fixture('ben/grid4x4_graph.json'), 'utf8')) as { nodes: Record<string, unknown>[] };
    const nodes = grid.nodes.map((n, i) => ({ ...n, G20PRESD: 10 + i, G20PRESR: 25 - i, CD: Math.floor(i / 4) + 1 }));
    writeFileSync(graph, JSON.stringify({ ...grid, nodes }));
    writeFileSync(enacted, JSON.stringify(nodes.map((n) => n.CD)));
    const r = spawnSync(process.execPath, [CLI, 'convert', fixture('ben/grid4x4_chain.jsonl'), bundle, '--to', 'bendl', '--set', `graph=${graph}`], {
      encoding: 'utf8',
    });
    if (r.status !== 0 || !existsSync(bundle)) throw new Error(`could not make the bundle: ${r.stderr}`);
    const s = spawnSync(process.execPath, [CLI, 'stats', bundle, '--sum', 'TOTPOP', '--summary', '--reference', enacted], { encoding: 'utf8' });
    if (s.status !== 0) throw new Error(`stats failed: ${s.stderr}`);
    cli = (JSON.parse(s.stdout) as { reference: typeof cli }).reference;
    vs = await VsCodeSession.start([{ file: 'votes.bendl', from: bundle }], settings);
  });

  afterAll(async () => {
    await vs?.stop();
    rmSync(made, { recursive: true, force: true });
  });

  const step = (name: string, body: () => Promise<void>) => vs.step(name, body);

  it('runs the pass, draws the histograms and box plots with the enacted plan marked, exports the statistics as CSV', async () => {
    await step(shot, async () => {
      const view = await vs.open('votes.bendl', 'ben');
      await view.getByRole('tab', { name: 'Ensemble' }).click();
      await view.getByRole('button', { name: 'Measure every plan' }).click();
      const cut = view.getByRole('img', { name: /^Cut edges/ });
      await cut.waitFor({ timeout: 60_000 });
      expect(await view.locator('.plan-caption').textContent()).toMatch(/48 plans/);
      expect(await view.locator('figure.ensemble-plot figcaption').allTextContents()).toEqual([
        'Cut edges',
        'Largest population deviation',
        'G20PRES: D seats',
        'G20PRES: efficiency gap',
        'G20PRES: mean-median',
        'G20PRES: D vote share by district, sorted',
      ]);

      // The enacted plan from its node attribute, by keyboard: marked on every plot.
      await view.getByRole('combobox', { name: 'Reference plan' }).selectOption('attribute');
      await view.getByRole('combobox', { name: 'Reference attribute' }).selectOption('CD');
      await view.getByRole('button', { name: 'Mark' }).press('Enter');
      await view.getByRole('status').filter({ hasText: 'Marked on every plot: attribute CD' }).waitFor({ timeout: 30_000 });
      expect(await view.locator('line.ensemble-mark').count()).toBe(5);
      expect(await view.locator('g.ensemble-box circle.ensemble-mark-dot').count()).toBe(4);
      const summary = await view.locator('#ensemble-summary-cut_edges').textContent();
      expect(summary).toContain(`percentile ${cli.cut_edges.percentile.toFixed(1)}`);
      await vs.shot(shot);
      await view.locator('[data-plot="e0.shares"]').scrollIntoViewIfNeeded();
      await vs.shot(`${shot}-boxes`);

      // Statistics as CSV: the save dialog proposes a name beside the file; the file is written whole.
      await view.getByRole('button', { name: 'Export the statistics as CSV' }).click();
      const input = vs.page.locator('.quick-input-widget input');
      await input.waitFor({ timeout: 10_000 });
      await expect.poll(() => input.inputValue(), { timeout: 10_000 }).toContain('ensemble-statistics.csv');
      await vs.page.keyboard.press('Enter');
      await vs.notification('Saved ensemble-statistics.csv').waitFor({ timeout: 30_000 });
      const csv = readFileSync(join(vs.workspace, 'ensemble-statistics.csv'), 'utf8').trimEnd().split('\n');
      expect(csv[0]).toMatch(/^statistic,title,rank,n,/);
      expect(csv[1]).toMatch(/^cut_edges,Cut edges,,48,/);
      expect(csv[1]).toContain(`attribute CD,`);
      expect(csv).toHaveLength(1 + 5 + 4);

      // A second open shows the plots at once: from the cache beside the frame index in the Node
      // host, from the window's memory in the web host.
      const again = await vs.open('votes.bendl', 'ben');
      await again.getByRole('tab', { name: 'Ensemble' }).click();
      await again.getByRole('img', { name: /^Cut edges/ }).waitFor({ timeout: 30_000 });
      expect(await again.locator('.plan-caption').textContent()).toMatch(/kept from an earlier pass/);
      expect(await again.getByRole('button', { name: 'Measure every plan' }).count()).toBe(0);
    });
  });
});
