import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseFile } from '../../src/core/formats/bindu/cases.testkit.js';
import { readContainer } from '../../src/core/formats/bindu/container.js';
import { frameLength } from '../../src/core/formats/bindu/model.js';
import { frame } from '../../src/core/formats/bindu/frames.js';
import { MemorySource } from '../../src/core/io/byteSource.js';
import { fixture, readFixture, readJson } from '../helpers/fixtures.js';
import { VsCodeSession } from './session.js';

/**
 * Issue 17 in a real VS Code: a xorb with one flipped byte in a chunk's stored payload shows that
 * chunk as damaged, a strict Convert stops there and offers Save Intact Part…, and Save Intact
 * Part… writes exactly the intact chunks and names the damaged one. The expected bytes come from
 * the fixture's input and its chunk list, never from Binlens.
 */
const DAMAGED_CHUNK = 1;

interface FixtureChunk {
  readonly payload_offset: number;
  readonly compressed_size: number;
  readonly unpacked_offset_start: number;
  readonly unpacked_offset_end: number;
  readonly scheme: string;
}

/** 01_none_only.xorb with one byte of a stored ('none') chunk inverted, and the decompressed bytes of its other chunks. */
function damagedXorb(dir: string): { path: string; intact: Buffer } {
  const bytes = readFixture('xorb/01_none_only.xorb');
  const chunks = readJson<{ chunks: FixtureChunk[] }>('xorb/01_none_only.json').chunks;
  const chunk = chunks[DAMAGED_CHUNK]!;
  // A stored chunk decodes to its payload as it is, so the flip changes the data and only the hash can tell.
  expect(chunk.scheme).toBe('none');
  bytes[chunk.payload_offset + Math.floor(chunk.compressed_size / 2)]! ^= 0xff;
  const path = join(dir, 'damaged.xorb');
  writeFileSync(path, bytes);
  const input = readFileSync(fixture('xorb/01_none_only.input.bin'));
  const intact = Buffer.concat(chunks.filter((_, i) => i !== DAMAGED_CHUNK).map((c) => input.subarray(c.unpacked_offset_start, c.unpacked_offset_end)));
  expect(intact.length).toBeLessThan(input.length);
  return { path, intact };
}

/**
 * A bindu past 8 MiB (so no CRC is checked at open) with an 8 MiB skippable padding frame whose
 * stored CRC-32C has one bit flipped: no table page reads that frame, only Verify does.
 */
async function paddedBindu(dir: string): Promise<string> {
  const bytes = await caseFile([frame(0x09, 1, new Uint8Array(8 << 20))]);
  const padding = (await readContainer(new MemorySource(bytes))).frames.find((f) => f.type === 0x09)!;
  bytes[padding.offset + frameLength(padding) - 1]! ^= 0x01;
  const path = join(dir, 'padded.bindu');
  writeFileSync(path, bytes);
  return path;
}

/** The padding frame's row in the structure tree (a top row: the root's child). */
const PADDING_FRAME = /^reserved core type 0x09 frame$/;

describe('damaged data in VS Code (code-server)', () => {
  let vs: VsCodeSession;
  let dir: string;
  let intact: Buffer;
  let out: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'binlens-e2e-integrity-'));
    const made = damagedXorb(dir);
    intact = made.intact;
    vs = await VsCodeSession.start([
      { file: 'damaged.xorb', from: made.path },
      { file: 'crashed.bendl', from: 'ben/spec-derived/spec_example_unfinalized.bendl' },
      { file: 'padded.bindu', from: await paddedBindu(dir) },
    ]);
    out = join(vs.workspace, 'damaged.bin');
  });

  afterAll(async () => {
    await vs?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const step = (name: string, body: () => Promise<void>) => vs.step(name, body, { shotAfter: true });

  /** The text of the toast that holds `text`. */
  const notice = async (text: string): Promise<string> => {
    const toast = vs.notification(text);
    await toast.waitFor({ timeout: 30_000 });
    return (await toast.textContent()) ?? '';
  };

  /** From the palette (the file's editor focused): pick a converter (the first row when `label` is undefined) and accept the proposed name. */
  const runFromPalette = async (command: string, label: string | undefined, proposed: string) => {
    await vs.palette('Notifications: Clear All Notifications');
    await vs.palette(command);
    const pick = vs.page.locator('.quick-input-list .monaco-list-row', label ? { hasText: label } : {}).first();
    await pick.waitFor({ timeout: 20_000 });
    if (!label) expect(await pick.textContent()).toMatch(/^Recover/);
    await pick.click();
    const input = vs.page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: 10_000 });
    await vs.page.waitForTimeout(300);
    expect(await input.inputValue()).toContain(proposed);
    await vs.page.keyboard.press('Enter');
  };
  const runToBin = (command: string) => runFromPalette(command, 'Decompressed bytes', 'damaged.bin');

  it('marks the damaged chunk "damaged" in the chunk table, with the reason in its accessible name', async () => {
    await step('integrity-chunks', async () => {
      const view = await vs.open('damaged.xorb', 'xorb');
      const grid = view.getByRole('grid', { name: 'Chunks' });
      await grid.waitFor({ timeout: 20_000 });
      // Row DAMAGED_CHUNK is the grid's row DAMAGED_CHUNK + 2 (the header is row 1).
      const cell = grid.locator(`[role=row][aria-rowindex="${DAMAGED_CHUNK + 2}"] [role=gridcell]`, { hasText: /^damaged$/ }).first();
      await cell.waitFor({ timeout: 15_000 });
      expect(await cell.getAttribute('aria-label')).toMatch(/^damaged: \S/);
      // The intact chunks show no damage.
      expect(await grid.locator('[role=gridcell]', { hasText: /^damaged/ }).count()).toBe(
        await grid.locator(`[role=row][aria-rowindex="${DAMAGED_CHUNK + 2}"] [role=gridcell]`, { hasText: /^damaged/ }).count(),
      );
    });
  });

  it('a strict Convert stops at the damaged chunk, writes nothing, and its Save Intact Part… button saves the intact chunks', async () => {
    await step('integrity-convert', async () => {
      rmSync(out, { force: true });
      await runToBin('Binlens: Convert');
      const failed = vs.notification('Binlens stopped converting damaged.xorb');
      await failed.waitFor({ timeout: 30_000 });
      expect(await failed.textContent()).toContain(`chunk ${DAMAGED_CHUNK}`);
      expect(existsSync(out)).toBe(false);
      // At a person's pace: VS Code shows at most 3 toasts per 800 ms and drops the rest (to the
      // notification centre), and the two progress toasts and the error would use them all.
      await vs.page.waitForTimeout(1000);
      await failed.getByRole('button', { name: 'Save Intact Part…' }).click();
      expect(await notice('Saved the intact part to damaged.bin')).toContain(`Left out (1): chunk ${DAMAGED_CHUNK} bytes`);
      expect(Buffer.compare(readFileSync(out), intact)).toBe(0);
    });
  });

  it('Save Intact Part… from the palette writes exactly the intact chunks and lists the damaged one', async () => {
    await step('integrity-save-intact', async () => {
      rmSync(out, { force: true });
      await runToBin('Binlens: Save Intact Part…');
      expect(await notice('Saved the intact part to damaged.bin')).toContain(`Left out (1): chunk ${DAMAGED_CHUNK} bytes`);
      expect(Buffer.compare(readFileSync(out), intact)).toBe(0);
    });
  });

  it("Verify from the palette with the editor open marks, in that editor's tree, the frame it found damaged", async () => {
    await step('integrity-verify-marks-tree', async () => {
      const view = await vs.open('padded.bindu', 'bindu');
      const row = (mark: string) =>
        view.locator(`[role="treeitem"][aria-level="2"].tree-item.mark-${mark}`, { has: view.locator('.tree-row > .label', { hasText: PADDING_FRAME }) });
      // Unknown and skippable: a warning until a check has read it.
      await row('warn').waitFor({ timeout: 20_000 });
      await vs.palette('Notifications: Clear All Notifications');
      await vs.palette('Binlens: Verify');
      expect(await notice('Binlens verify')).toContain('0 passed, 1 failed');
      await row('error').waitFor({ timeout: 20_000 });
      // The failed check as the Problems panel has it: the verify ran on a job thread and handed it to the editor.
      expect(await row('error').locator('.tree-row > .note').first().textContent()).toMatch(/frame CRC: .*stored 0x[0-9a-f]+, computed 0x[0-9a-f]+/);
    });
  });

  it('Save Intact Part… on a crashed BENDL offers Recover first and writes the recovered bundle', async () => {
    await step('integrity-recover', async () => {
      await vs.open('crashed.bendl', 'ben');
      // The first row of the pick list must be Recover: runFromPalette checks it when given no label.
      await runFromPalette('Binlens: Save Intact Part…', undefined, 'crashed.recovered.bendl');
      await notice('Saved the intact part to crashed.recovered.bendl');
      // A bundle again: the BENDL magic (specs/ben.md §6), "BENDL" and a zero byte.
      expect(readFileSync(join(vs.workspace, 'crashed.recovered.bendl')).subarray(0, 6).toString('latin1')).toBe('BENDL\0');
    });
  });
});
