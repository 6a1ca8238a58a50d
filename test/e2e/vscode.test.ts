import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/fixtures.js';
import { VsCodeSession } from './session.js';

/** One file per family, opened by double-click; the badge shows the family, the tree a node of its structure. */
const FAMILIES = [
  { family: 'fst', file: 'small.map.fst3.fst', from: 'fst/small.map.fst3.fst', node: 'footer' },
  { family: 'ben', file: 'flags_set.bendl', from: 'ben/independent/flags_set.bendl', node: 'directory' },
  { family: 'xorb', file: '02_lz4_text.xorb', from: 'xorb/02_lz4_text.xorb', node: 'footer V1' },
  { family: 'idv', file: 'datatypes.idv', from: 'idv/mlnet-testdata/datatypes.idv', node: 'table of contents' },
  { family: 'bindu', file: 'sample.bindu', from: 'bindu/sample.bindu', node: 'Footer frame' },
];
/** A file rewritten while it is open: the editor reloads it. */
const CHANGING = { file: 'changing.ben', from: 'ben/v1_source.standard.ben', replacement: 'ben/grid4x4_chain.standard.ben' };
const DAMAGED = [
  { file: 'zero_count.mkv_chain.ben', from: 'ben/negative/zero_count.mkv_chain.ben', problem: 'repeat count 0' },
  { file: '95_bad_scheme_byte.xorb', from: 'xorb/95_bad_scheme_byte.xorb', problem: 'unknown compression scheme 3' },
];

describe('Binlens in VS Code (code-server)', () => {
  let vs: VsCodeSession;

  beforeAll(async () => {
    vs = await VsCodeSession.start([...FAMILIES, ...DAMAGED, CHANGING]);
  });

  afterAll(async () => {
    await vs?.stop();
  });

  it.each(FAMILIES)('double-click opens a $family file in the Binlens editor', async ({ family, file, node }) => {
    try {
      const view = await vs.open(file, family);
      await view.locator('.tree-row .label', { hasText: node }).first().waitFor({ timeout: 15_000 });
      await vs.page.waitForTimeout(300);
      await vs.shot(family);
    } catch (e) {
      await vs.shot(`failed-${family}`);
      throw new Error(`${(e as Error).message}\n--- code-server log ---\n${vs.logTail()}`);
    }
  });

  it('Verify from the explorer context menu reports the damage in a notification and the Problems panel', async () => {
    const summary = await vs.verifyFromExplorer(DAMAGED.map((d) => d.file));
    expect(summary).toContain('0 passed, 2 failed');
    await vs.palette('View: Focus Problems');
    const problems = vs.page.locator('.markers-panel');
    for (const d of DAMAGED) await problems.locator('.monaco-list-row', { hasText: d.problem }).first().waitFor({ timeout: 15_000 });
    await vs.shot('verify-problems');
  });

  it('reloads the editor when the file changes on disk', async () => {
    const view = await vs.open(CHANGING.file, 'ben');
    const frames = view.locator('.summary dd').nth(1);
    await view.locator('[role="tab"]', { hasText: 'Summary' }).click();
    await expect.poll(() => frames.textContent()).toBe('5');
    copyFileSync(fixture(CHANGING.replacement), join(vs.workspace, CHANGING.file));
    await expect.poll(() => frames.textContent(), { timeout: 15_000 }).toBe('48');
  });

  it('Convert from the palette writes the chosen output next to the file', async () => {
    await vs.open('small.map.fst3.fst');
    await vs.palette('Binlens: Convert');
    const pick = vs.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Annotated structure' }).first();
    await pick.waitFor({ timeout: 20_000 });
    await pick.click();
    // The save dialog (VS Code's simple dialog here) proposes small.map.fst3.binlens-dump next to the source.
    const input = vs.page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: 10_000 });
    await vs.page.waitForTimeout(300);
    expect(await input.inputValue()).toContain('small.map.fst3.binlens-dump');
    await vs.page.keyboard.press('Enter');
    await vs.notification('Converted to small.map.fst3.binlens-dump').waitFor({ timeout: 30_000 });
    const out = join(vs.workspace, 'small.map.fst3.binlens-dump');
    expect(existsSync(out)).toBe(true);
    expect(readFileSync(out, 'utf8')).toMatch(/^binlens-dump 1\nfile: small\.map\.fst3\.fst\n/);
    await vs.shot('convert');
  });
});
