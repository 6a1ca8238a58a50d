import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { fixture } from '../helpers/fixtures.js';
import { VsCodeSession } from './session.js';

/**
 * The Districts panel in a real VS Code. The fixture's 4×4 grid carries TOTPOP only, so the test
 * adds votes: node i gets G20PRESD = 10 + i and G20PRESR = 25 − i. Sample 1 of grid4x4_chain puts
 * column c in district c + 1 (nodes c, c+4, c+8, c+12); by hand, TOTPOP = 100 + i gives 424, 428,
 * 432, 436 against the ideal 430; D 64, 68, 72, 76 and R 76, 72, 68, 64: R, R, D, D win.
 */
const SAMPLE_1 = [
  ['1', '424', '-1.40 %', '64', '45.71 %', '76', '54.29 %', 'R'],
  ['2', '428', '-0.47 %', '68', '48.57 %', '72', '51.43 %', 'R'],
  ['3', '432', '+0.47 %', '72', '51.43 %', '68', '48.57 %', 'D'],
  ['4', '436', '+1.40 %', '76', '54.29 %', '64', '45.71 %', 'D'],
];

/** The Node extension host, and the browser build in the web worker host (as vscode.dev runs it): the picked graph is read through the host either way. */
const HOSTS = [
  { host: 'desktop', settings: {}, shot: 'ben-districts' },
  { host: 'web', settings: { 'remote.extensionKind': { 'binlens.binlens': ['web'] } }, shot: 'ben-districts-web' },
];

describe.each(HOSTS)('Districts panel in VS Code (code-server, $host extension host)', ({ settings, shot }) => {
  let vs: VsCodeSession;
  const made = mkdtempSync(join(tmpdir(), 'binlens-e2e-districts-'));
  const graph = join(made, 'votes_graph.json');
  const bundle = join(made, 'votes.bendl');

  beforeAll(async () => {
    const grid = JSON.parse(readFileSync(fixture('ben/grid4x4_graph.json'), 'utf8')) as { nodes: Record<string, unknown>[] };
    writeFileSync(graph, JSON.stringify({ ...grid, nodes: grid.nodes.map((n, i) => ({ ...n, G20PRESD: 10 + i, G20PRESR: 25 - i })) }));
    const r = spawnSync(process.execPath, [CLI, 'convert', fixture('ben/grid4x4_chain.jsonl'), bundle, '--to', 'bendl', '--set', `graph=${graph}`], {
      encoding: 'utf8',
    });
    if (r.status !== 0 || !existsSync(bundle)) throw new Error(`could not make the bundle: ${r.stderr}`);
    vs = await VsCodeSession.start(
      [
        { file: 'votes.bendl', from: bundle },
        { file: 'votes_graph.json', from: graph },
        { file: 'plain.ben', from: 'ben/grid4x4_chain.mkv_chain.ben' },
      ],
      settings,
    );
  });

  afterAll(async () => {
    await vs?.stop();
    rmSync(made, { recursive: true, force: true });
  });

  const step = (name: string, body: () => Promise<void>) => vs.step(name, body);

  it('a bundle with its graph: the district table of sample 1, the plan figures; a changed attribute is kept when the file is opened again', async () => {
    await step(shot, async () => {
      const view = await vs.open('votes.bendl', 'ben');
      await view.getByRole('tab', { name: 'Districts' }).click();
      const table = view.getByRole('table');
      await table.waitFor({ timeout: 30_000 });
      expect(await view.getByRole('columnheader').allTextContents()).toEqual([
        'District',
        'TOTPOP',
        'Deviation',
        'G20PRES D',
        'D share',
        'G20PRES R',
        'R share',
        'G20PRES winner',
      ]);
      const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
      expect(rows).toEqual(SAMPLE_1);
      const figures = await view.locator('.districts-figures dt').allTextContents();
      expect(figures).toEqual([
        'Cut edges',
        'Ideal population',
        'Largest population deviation',
        'G20PRES: seats',
        'G20PRES: efficiency gap',
        'G20PRES: mean-median',
      ]);
      expect(await view.locator('.districts-figures dd').first().textContent()).toBe('12 (of 24 edges of the graph)');
      await vs.shot(shot);

      // The next sample from the keyboard: its plan moves node 1 from district 2 to 3.
      await view.getByRole('button', { name: 'next Sample' }).press('Enter');
      await view.locator('.plan-caption', { hasText: /^sample 2:/ }).waitFor({ timeout: 15_000 });
      await expect.poll(() => table.locator('tbody tr').first().locator('td').first().textContent()).toBe('424');

      // The population attribute changed to x, then the file opened anew: the choice is still x.
      await view.getByRole('combobox', { name: 'Population attribute' }).selectOption('x');
      await view.getByRole('columnheader', { name: 'x', exact: true }).waitFor({ timeout: 15_000 });
      const again = await vs.open('votes.bendl', 'ben');
      await again.getByRole('tab', { name: 'Districts' }).click();
      await again.getByRole('columnheader', { name: 'x', exact: true }).waitFor({ timeout: 30_000 });
      expect(await again.getByRole('combobox', { name: 'Population attribute' }).inputValue()).toBe('x');
    });
  });

  it('a plain .ben: no graph until one is picked; the pick is kept for the ensemble', async () => {
    await step(`${shot}-pick`, async () => {
      const view = await vs.open('plain.ben', 'ben');
      await view.getByRole('tab', { name: 'Districts' }).click();
      await view.getByRole('status').filter({ hasText: 'No graph' }).waitFor({ timeout: 30_000 });
      // Earlier views stay.
      expect(await view.getByRole('tab', { name: 'Plan', exact: true }).count()).toBe(1);
      await view.getByRole('button', { name: 'Choose graph…' }).click();
      const input = vs.page.locator('.quick-input-widget input');
      // VS Code's own file dialog: typed once it lists the folder, or its start value overwrites ours.
      await vs.page.locator('.quick-input-list .monaco-list-row', { hasText: 'votes_graph.json' }).waitFor({ timeout: 15_000 });
      await expect.poll(() => input.inputValue(), { timeout: 10_000 }).toContain('binlens-e2e-ws-');
      await input.fill(join(vs.workspace, 'votes_graph.json'));
      await vs.page.keyboard.press('Enter');
      await view.getByRole('table').waitFor({ timeout: 30_000 });
      expect(await view.locator('.plan-caption').textContent()).toMatch(/graph: votes_graph\.json/);
      const again = await vs.open('plain.ben', 'ben');
      await again.getByRole('tab', { name: 'Districts' }).click();
      await again.getByRole('table').waitFor({ timeout: 30_000 });
      expect(await again.getByRole('rowheader').allTextContents()).toEqual(['1', '2', '3', '4']);
    });
  });
});
