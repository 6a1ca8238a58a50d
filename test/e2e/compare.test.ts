import { readFileSync } from 'node:fs';
import type { Frame } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/fixtures.js';
import { VsCodeSession } from './session.js';

/**
 * "Binlens: Compare With…" on two BEN files selected in the explorer, in the Node extension host
 * (desktop) and in the web worker extension host (VS Code for the web: files through
 * workspace.fs, the engine in the host itself). A = 48 samples on a 4×4 grid, B = 5 samples.
 */
const A = { file: 'a.grid4x4.ben', from: 'ben/grid4x4_chain.standard.ben', jsonl: 'ben/grid4x4_chain.jsonl' };
const B = { file: 'b.v1_source.ben', from: 'ben/v1_source.mkv_chain.ben', jsonl: 'ben/v1_source.jsonl' };
/** Two fst maps: "ab" is 3 in the tiny one and 65535 in the small one (their TSV ground truth). */
const FST_A = { file: 'a.tiny.fst', from: 'fst/tiny.map.fst3.fst', tsv: 'fst/tiny.map.tsv' };
const FST_B = { file: 'b.small.fst', from: 'fst/small.map.fst3.fst', tsv: 'fst/small.map.tsv' };

function tsvValue(path: string, key: string): string {
  const line = readFileSync(fixture(path), 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${key}\t`));
  return line!.split('\t')[1]!;
}

/** The samples whose assignments differ, from the fixtures' JSONL ground truth (1-based). */
function changedSamples(): number[] {
  const read = (p: string) =>
    readFileSync(fixture(p), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.stringify((JSON.parse(l) as { assignment: number[] }).assignment));
  const a = read(A.jsonl);
  const b = read(B.jsonl);
  return a.slice(0, Math.min(a.length, b.length)).flatMap((s, i) => (s === b[i] ? [] : [i + 1]));
}

/** Every Binlens page on screen (each webview is two nested iframes), for finding the two editors beside the compare view. */
async function binlensPages(vs: VsCodeSession): Promise<Frame[]> {
  const out: Frame[] = [];
  for (const outer of await vs.page.locator('iframe.webview.ready').elementHandles()) {
    const frame = await outer.contentFrame();
    const inner = await (await frame?.$('#active-frame'))?.contentFrame();
    if (inner) out.push(inner);
  }
  return out;
}

const HOSTS = [
  { name: 'desktop', shot: 'compare-desktop', settings: {} },
  { name: 'web', shot: 'compare-web', settings: { 'remote.extensionKind': { 'binlens.binlens': ['web'] } } },
];

describe.each(HOSTS)('Compare With… in VS Code ($name)', ({ name, shot, settings }) => {
  let vs: VsCodeSession;

  beforeAll(async () => {
    vs = await VsCodeSession.start([A, B, FST_A, FST_B], settings);
  });

  afterAll(async () => {
    await vs?.stop();
  });

  it('compares two files selected in the explorer, and a clicked row opens both at that sample', async () => {
    const changed = changedSamples();
    expect(changed.length).toBeGreaterThan(1);
    const sample = changed[1]!;
    try {
      await vs.closeEditors();
      await vs.selectInExplorer([A.file, B.file]);
      await vs.contextMenu(B.file, 'Compare With…');
      const view = vs.webview();
      const outcome = view.locator('.diff-outcome');
      await expect.poll(() => outcome.textContent(), { timeout: 60_000 }).toMatch(/^\d+ differences \(exit code 1: the files differ\)$/);
      // One row per changed sample, each named as the CLI names it.
      for (const s of changed) await view.locator('[role="gridcell"]', { hasText: new RegExp(`^sample ${s}$`) }).waitFor({ timeout: 15_000 });
      expect(await view.locator('[role="tree"]').count()).toBe(2);
      await view.locator('.tree-row .note', { hasText: 'changed' }).first().waitFor({ timeout: 15_000 });
      await view.locator('[role="gridcell"]', { hasText: new RegExp(`^sample ${sample}$`) }).click();

      // Both files open beside the compare view, each with the sample's row active in its Samples table.
      await expect
        .poll(
          async () => {
            const rows: string[] = [];
            for (const f of await binlensPages(vs)) {
              if (
                (await f
                  .locator('.badge')
                  .first()
                  .textContent()
                  .catch(() => '')) !== 'ben'
              )
                continue;
              rows.push(
                (await f
                  .locator('.vt-row.active [role="gridcell"]')
                  .first()
                  .textContent()
                  .catch(() => null)) ?? '',
              );
            }
            return rows;
          },
          { timeout: 60_000 },
        )
        .toEqual([String(sample), String(sample)]);
      await vs.page.waitForTimeout(500);
      await vs.shot(shot);
    } catch (e) {
      await vs.shot(`failed-${shot}`);
      throw new Error(`${(e as Error).message}\n--- code-server log ---\n${vs.logTail()}`);
    }
  });

  it('from the palette in an open Binlens editor, offers the workspace’s other file of that extension and compares with it', async () => {
    try {
      await vs.open(A.file, 'ben');
      await vs.palette('Binlens: Compare With…');
      const pick = vs.page.locator('.quick-input-list .monaco-list-row', { hasText: B.file }).first();
      await pick.waitFor({ timeout: 15_000 });
      expect(await vs.page.locator('.quick-input-list .monaco-list-row', { hasText: A.file }).count()).toBe(0);
      await pick.click();
      const view = vs.page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');
      await expect.poll(() => view.locator('.diff-outcome').textContent(), { timeout: 60_000 }).toMatch(/\(exit code 1: the files differ\)$/);
      expect(await view.locator('.file').textContent()).toBe(`A: ${A.file} (ben: BEN Standard stream) · B: ${B.file} (ben: BEN MkvChain stream)`);
    } catch (e) {
      await vs.shot(`failed-${shot}-palette`);
      throw new Error(`${(e as Error).message}\n--- code-server log ---\n${vs.logTail()}`);
    }
  });

  it('a key row of two fst files opens both at a search from that key, each with its own value', async () => {
    try {
      await vs.closeEditors();
      await vs.selectInExplorer([FST_A.file, FST_B.file]);
      await vs.contextMenu(FST_B.file, 'Compare With…');
      const view = vs.webview();
      await expect.poll(() => view.locator('.diff-outcome').textContent(), { timeout: 60_000 }).toMatch(/\(exit code 1: the files differ\)$/);
      await view.locator('[role="gridcell"]', { hasText: /^key ab$/ }).click();
      // Each editor's file name with the key and value of its first search result, in name order.
      const firstResults = async () => {
        const out: string[][] = [];
        for (const f of await binlensPages(vs)) {
          if (
            (await f
              .locator('.badge')
              .first()
              .textContent()
              .catch(() => '')) !== 'fst'
          )
            continue;
          const file = (
            (await f
              .locator('.topbar .file')
              .textContent()
              .catch(() => '')) ?? ''
          ).split(' ')[0]!;
          const cells = await f
            .locator('.search-results [role="row"][aria-rowindex="2"] [role="gridcell"]')
            .allTextContents()
            .catch(() => []);
          out.push([file, ...cells.slice(0, 2)]);
        }
        return out.sort((x, y) => x[0]!.localeCompare(y[0]!));
      };
      await expect.poll(firstResults, { timeout: 60_000 }).toEqual([
        [FST_A.file, 'ab', tsvValue(FST_A.tsv, 'ab')],
        [FST_B.file, 'ab', tsvValue(FST_B.tsv, 'ab')],
      ]);
    } catch (e) {
      await vs.shot(`failed-${shot}-fst`);
      throw new Error(`${(e as Error).message}\n--- code-server log ---\n${vs.logTail()}`);
    }
  });

  if (name === 'web')
    it('ran in the web worker extension host', async () => {
      await vs.palette('Developer: Show Running Extensions');
      const entry = vs.page.locator('.monaco-list-row', { hasText: 'Binlens' }).first();
      await entry.waitFor({ timeout: 15_000 });
      expect(await entry.textContent()).toMatch(/web worker/i);
    });
});
