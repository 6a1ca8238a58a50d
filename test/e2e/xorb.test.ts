import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { xorbImporters } from '../../src/core/formats/xorb/convert.js';
import { xorbHandler } from '../../src/core/formats/xorb/handler.js';
import { MemorySource } from '../../src/core/io/byteSource.js';
import { xorshiftBytes } from '../helpers/bytes.js';
import { memoryTarget } from '../helpers/documents.js';
import { fixture } from '../helpers/fixtures.js';
import { VsCodeSession } from './session.js';

/**
 * A xorb of all three schemes (noise is stored, text takes LZ4, float weights take BG4),
 * written by Binlens's own importer, opened by double-click in a real VS Code.
 */
async function mixedXorb(dir: string): Promise<{ path: string; bg4: number }> {
  const noise = xorshiftBytes(150_000);
  const input = Buffer.concat([noise, ...['02_lz4_text', '03_bg4_float32'].map((n) => readFileSync(fixture(`xorb/${n}.input.bin`)))]);
  const target = memoryTarget();
  await xorbImporters.find((i) => i.id === 'xorb')!.run(new MemorySource(new Uint8Array(input)), target, {}, { scheme: 'auto', form: 'full' });
  const bytes = target.files.get('')!;
  const path = join(dir, 'mixed.xorb');
  writeFileSync(path, bytes);
  const info = (await xorbHandler.open(new MemorySource(bytes), {})).info() as { chunks: { scheme: string }[] };
  return { path, bg4: info.chunks.findIndex((c) => c.scheme === 'bg4-lz4') };
}

describe('xorb in VS Code (code-server)', () => {
  let vs: VsCodeSession;
  let dir: string;
  let bg4 = -1;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'binlens-e2e-xorb-'));
    const mixed = await mixedXorb(dir);
    bg4 = mixed.bg4;
    vs = await VsCodeSession.start([{ file: 'mixed.xorb', from: mixed.path }]);
  });

  afterAll(async () => {
    await vs?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const step = (name: string, body: () => Promise<void>) => vs.step(name, body, { shotAfter: true });

  it('shows the chunk table with every scheme and the chunk hashes', async () => {
    await step('xorb-chunks', async () => {
      const view = await vs.open('mixed.xorb', 'xorb');
      const grid = view.getByRole('grid', { name: 'Chunks' });
      await grid.waitFor({ timeout: 20_000 });
      for (const scheme of ['none', 'lz4', 'bg4-lz4']) await grid.getByRole('gridcell', { name: scheme, exact: true }).first().waitFor({ timeout: 15_000 });
      const hashes = grid.locator('[role=gridcell].hex');
      await hashes.first().waitFor();
      expect(await hashes.first().textContent()).toMatch(/^[0-9a-f]{64}$/);
    });
  });

  it('draws the chunk size chart coloured by scheme, and reads a bar out from the keyboard', async () => {
    await step('xorb-chart', async () => {
      const view = vs.webview();
      await view.getByRole('tab', { name: 'Chunk sizes' }).click();
      const chart = view.locator('.bars-panel svg.chart');
      await chart.waitFor({ timeout: 15_000 });
      expect(await view.locator('.bars-panel .legend li').allTextContents()).toEqual(expect.arrayContaining(['none', 'lz4', 'bg4-lz4']));
      await chart.focus();
      await vs.page.keyboard.press('End');
      expect(await view.locator('.bars-readout').textContent()).toMatch(/^chunk \d+: (none|lz4|bg4-lz4), \d+ bytes/);
    });
  });

  it('draws the merkle tree up to the xorb hash', async () => {
    await step('xorb-merkle', async () => {
      const view = vs.webview();
      await view.getByRole('tab', { name: 'Merkle tree' }).click();
      await view.locator('svg.layers').waitFor({ timeout: 15_000 });
      expect(await view.locator('svg.layers [aria-label^="root (xorb hash)"]').count()).toBe(1);
    });
  });

  it('previews a BG4 chunk as float32 values', async () => {
    await step('xorb-preview', async () => {
      const view = vs.webview();
      await view.getByRole('tab', { name: 'Chunk preview' }).click();
      const chunk = view.getByRole('spinbutton', { name: 'Chunk', exact: true });
      expect(bg4).toBeGreaterThan(0);
      await chunk.fill(String(bg4));
      await chunk.press('Enter');
      await view.locator('.text-panel', { hasText: `chunk ${bg4} · bg4-lz4` }).waitFor({ timeout: 15_000 });
      expect(await view.locator('.text-panel').textContent()).toMatch(/as float32 \(guessed\)/);
    });
  });
});
