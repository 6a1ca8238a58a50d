import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { fixture } from '../helpers/fixtures.js';
import { VsCodeSession } from './session.js';

/** Damaged ben fixtures and a phrase of the problem each must show in the Problems panel. */
const DAMAGED = [
  { file: 'trunc_midframe.standard.ben', from: 'ben/negative/trunc_midframe.standard.ben', problem: 'frame 47' },
  { file: 'flipped_byte.mkv_chain.xben', from: 'ben/negative/flipped_byte.mkv_chain.xben', problem: 'compressed data is corrupt' },
  { file: 'trunc.mkv_chain.xben', from: 'ben/negative/trunc.mkv_chain.xben', problem: 'ends early' },
];

describe('binary-ensemble in VS Code (code-server)', () => {
  let vs: VsCodeSession;
  const made = mkdtempSync(join(tmpdir(), 'binlens-e2e-ben-'));
  const bundle = join(made, 'grid4x4.bendl');

  beforeAll(async () => {
    // A bundle whose graph.json matches its plans: the 4×4 grid chain with the grid's coordinates.
    const r = spawnSync(
      process.execPath,
      [CLI, 'convert', fixture('ben/grid4x4_chain.jsonl'), bundle, '--to', 'bendl', '--set', `graph=${fixture('ben/grid4x4_graph.json')}`],
      { encoding: 'utf8' },
    );
    if (r.status !== 0 || !existsSync(bundle)) throw new Error(`could not make the bundle: ${r.stderr}`);
    vs = await VsCodeSession.start([{ file: 'grid4x4.bendl', from: bundle }, ...DAMAGED]);
  });

  afterAll(async () => {
    await vs?.stop();
    rmSync(made, { recursive: true, force: true });
  });

  it('opens a .bendl, shows the plan map and steps to the next sample', async () => {
    try {
      const view = await vs.open('grid4x4.bendl', 'ben');
      await view.getByRole('tab', { name: 'Plan', exact: true }).click();
      const caption = view.locator('.plan-caption');
      await caption.waitFor({ timeout: 20_000 });
      expect(await caption.textContent()).toMatch(/^sample 1: 16 nodes, \d+ districts.*nodes at their coordinates/);
      await view.locator('.plan-map canvas').waitFor({ timeout: 10_000 });
      await vs.shot('ben-plan-sample-1');
      await view.getByRole('button', { name: 'Next ▶' }).click();
      await view.locator('.plan-caption', { hasText: /^sample 2:/ }).waitFor({ timeout: 15_000 });
      expect(await view.locator('input[name="sample"]').inputValue()).toBe('2');
      await vs.shot('ben-plan-sample-2');
      // Play steps on by itself until paused.
      await view.getByRole('button', { name: '▶ Play' }).click();
      await view.locator('.plan-caption', { hasText: /^sample [4-9]/ }).waitFor({ timeout: 15_000 });
      await view.getByRole('button', { name: '⏸ Pause' }).click();
      await view.getByRole('tab', { name: 'Flip frequency' }).click();
      await view.locator('.plan-caption', { hasText: '48 samples' }).waitFor({ timeout: 20_000 });
      await vs.shot('ben-flip-frequency');
    } catch (e) {
      await vs.shot('failed-ben-plan');
      throw new Error(`${(e as Error).message}\n--- code-server log ---\n${vs.logTail()}`);
    }
  });

  it('Verify on the damaged fixtures lands in the Problems panel', async () => {
    const summary = await vs.verifyFromExplorer(DAMAGED.map((d) => d.file));
    expect(summary).toContain(`0 passed, ${DAMAGED.length} failed`);
    await vs.palette('View: Focus Problems');
    const problems = vs.page.locator('.markers-panel');
    for (const d of DAMAGED) await problems.locator('.monaco-list-row', { hasText: d.problem }).first().waitFor({ timeout: 15_000 });
    await vs.shot('ben-verify-problems');
  });
});
