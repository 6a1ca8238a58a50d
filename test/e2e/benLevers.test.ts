import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { fixture } from '../helpers/fixtures.js';
import { VsCodeSession } from './session.js';

/**
 * The compression levers reach the viewer's Convert through the converters' options alone: the
 * quick picks and input boxes ask for them, and the output lands with its map and graph beside it.
 */
describe('Convert with the compression levers in VS Code (code-server)', () => {
  let vs: VsCodeSession;
  const made = mkdtempSync(join(tmpdir(), 'binlens-e2e-levers-'));
  const bundle = join(made, 'grid4x4.bendl');

  beforeAll(async () => {
    // A bundle that carries its graph, so reorder-by needs no file dialog.
    const r = spawnSync(
      process.execPath,
      [CLI, 'convert', fixture('ben/grid4x4_chain.jsonl'), bundle, '--to', 'bendl', '--set', `graph=${fixture('ben/grid4x4_graph.json')}`],
      { encoding: 'utf8' },
    );
    if (r.status !== 0 || !existsSync(bundle)) throw new Error(`could not make the bundle: ${r.stderr}`);
    vs = await VsCodeSession.start([{ file: 'grid4x4.bendl', from: bundle }]);
  });

  afterAll(async () => {
    await vs?.stop();
    rmSync(made, { recursive: true, force: true });
  });

  it('XBEN with relabel=canonical and reorder-by=x: the options are asked, the sizes reported, the map written beside', async () => {
    const page = vs.page;
    /** Waits for the quick input titled `title`, then answers it. */
    const answer = async (title: string, act: () => Promise<void>) => {
      await page.locator('.quick-input-widget .quick-input-title', { hasText: title }).waitFor({ timeout: 15_000 });
      await page.waitForTimeout(200);
      await act();
    };
    const enter = () => page.keyboard.press('Enter');
    try {
      await vs.open('grid4x4.bendl', 'ben');
      await vs.palette('Binlens: Convert');
      const pick = page.locator('.quick-input-list .monaco-list-row', { hasText: 'XBEN (xz-compressed stream)' }).first();
      await pick.waitFor({ timeout: 20_000 });
      await pick.click();
      await answer('Variant', enter);
      await answer('xz preset', enter);
      await answer('Samples', enter);
      await answer('District labels', async () => page.locator('.quick-input-list .monaco-list-row', { hasText: 'Canonical' }).first().click());
      await answer('Reorder nodes by a graph attribute', async () => {
        await page.locator('.quick-input-widget input').fill('x');
        await enter();
      });
      // No graph file (the bundle has one) and no node map: the file dialogs are dismissed.
      await answer('graph.json', () => page.keyboard.press('Escape'));
      await answer('node_permutation_map.json', () => page.keyboard.press('Escape'));
      await answer('Apply the node map', enter);
      const input = page.locator('.quick-input-widget input');
      await expect.poll(() => input.inputValue(), { timeout: 10_000 }).toContain('grid4x4.xben');
      await enter();
      const done = vs.notification('Converted to grid4x4.xben');
      await done.waitFor({ timeout: 60_000 });
      expect(await done.textContent()).toMatch(/reorder-by=x, relabel=canonical: BEN [\d,]+ → [\d,]+ → [\d,]+ bytes .*XBEN/);
      await vs.shot('ben-convert-levers');
      const out = join(vs.workspace, 'grid4x4.xben');
      expect(existsSync(out)).toBe(true);
      const map = JSON.parse(readFileSync(`${out}.node_permutation_map.json`, 'utf8')) as { node_permutation_old_to_new: Record<string, number> };
      // By hand: the grid's node k has x = k % 4, so the sort by x takes the columns in turn.
      expect(Object.values(map.node_permutation_old_to_new)).toEqual([0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15]);
      expect(existsSync(`${out}.graph.json`)).toBe(true);
    } catch (e) {
      await vs.shot('failed-ben-convert-levers');
      const shown = await page.locator('.notifications-toasts .notification-toast').allTextContents();
      throw new Error(`${(e as Error).message}\nnotifications: ${JSON.stringify(shown)}\n--- code-server log ---\n${vs.logTail()}`);
    }
  });
});
