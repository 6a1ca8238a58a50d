import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { fixture } from '../helpers/fixtures.js';
// @ts-expect-error: plain ESM helper shared with `npm start`
import { startCodeServer } from '../../scripts/codeServer.mjs';

/**
 * Binlens in a real VS Code: code-server 4.100 with the packaged VSIX installed, driven through
 * Debian's Chromium. See ../shared/RECIPE-e2e.md for why it is done this way.
 */
const ROOT = resolve(__dirname, '../..');
const SHOTS = join(ROOT, 'test/e2e/screenshots');
const VSIX = join(ROOT, 'dist/binlens.vsix');

/** One file per family, opened by double-click; the badge shows the family, the tree a node of its structure. */
const FAMILIES = [
  { family: 'fst', file: 'small.map.fst3.fst', from: 'fst/small.map.fst3.fst', node: 'footer' },
  { family: 'ben', file: 'flags_set.bendl', from: 'ben/independent/flags_set.bendl', node: 'directory' },
  { family: 'xorb', file: '02_lz4_text.xorb', from: 'xorb/02_lz4_text.xorb', node: 'footer V1' },
  { family: 'idv', file: 'datatypes.idv', from: 'idv/mlnet-testdata/datatypes.idv', node: 'table of contents' },
  { family: 'bindu', file: 'sample.bindu', from: 'bindu/sample.bindu', node: 'Footer frame' },
];
const DAMAGED = [
  { file: 'zero_count.mkv_chain.ben', from: 'ben/negative/zero_count.mkv_chain.ben', problem: 'repeat count 0' },
  { file: '95_bad_scheme_byte.xorb', from: 'xorb/95_bad_scheme_byte.xorb', problem: 'unknown compression scheme 3' },
];

type Server = { url: string; logTail(n?: number): string; stop(): Promise<void> };

describe('Binlens in VS Code (code-server)', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  let workspace: string;

  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`) });

  async function palette(command: string): Promise<void> {
    await page.keyboard.press('Escape');
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: 10_000 });
    await input.fill(`>${command}`);
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: command }).first();
    await row.waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
  }

  /** The explorer appears before extensions register; a double-click before that opens a text editor. */
  async function waitForBinlens(): Promise<void> {
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      await page.keyboard.press('Escape');
      await page.keyboard.press('F1');
      await page.locator('.quick-input-widget input').fill('>Binlens: Verify');
      await page.waitForTimeout(700);
      const found = await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Binlens: Verify' }).count();
      await page.keyboard.press('Escape');
      if (found > 0) return;
      await page.waitForTimeout(1000);
    }
    throw new Error('Binlens commands never appeared in the palette');
  }

  function explorerRow(name: string) {
    return page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first();
  }

  function webview(): FrameLocator {
    return page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
  }

  async function closeEditors(): Promise<void> {
    await palette('View: Close All Editors');
    await page.waitForTimeout(500);
  }

  beforeAll(async () => {
    if (!existsSync(VSIX)) throw new Error('dist/binlens.vsix is missing: run `npm test` (it builds and packages first)');
    mkdirSync(SHOTS, { recursive: true });
    workspace = mkdtempSync(join(tmpdir(), 'binlens-e2e-ws-'));
    for (const f of [...FAMILIES, ...DAMAGED]) copyFileSync(fixture(f.from), join(workspace, f.file));
    server = await startCodeServer({ workspace, vsix: VSIX });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`);
    await page.locator('.explorer-folders-view').waitFor({ timeout: 90_000 });
    await waitForBinlens();
  });

  afterAll(async () => {
    if (page && !page.isClosed()) await page.screenshot({ path: join(SHOTS, 'last.png') }).catch(() => undefined);
    await browser?.close();
    await server?.stop();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  it.each(FAMILIES)('double-click opens a $family file in the Binlens editor', async ({ family, file, node }) => {
    try {
      await closeEditors();
      await explorerRow(file).dblclick();
      const view = webview();
      await view.locator('.badge', { hasText: family }).waitFor({ timeout: 30_000 });
      await view.locator('.tree-row .label', { hasText: node }).first().waitFor({ timeout: 15_000 });
      await page.waitForTimeout(300);
      await shot(family);
    } catch (e) {
      await shot(`failed-${family}`);
      throw new Error(`${(e as Error).message}\n--- code-server log ---\n${server.logTail()}`);
    }
  });

  it('Verify from the explorer context menu reports the damage in a notification and the Problems panel', async () => {
    await closeEditors();
    await explorerRow(DAMAGED[0]!.file).click();
    await explorerRow(DAMAGED[1]!.file).click({ modifiers: ['Control'] });
    let clicked = false;
    for (let attempt = 0; attempt < 2 && !clicked; attempt++) {
      await explorerRow(DAMAGED[1]!.file).click({ button: 'right' });
      await page.waitForTimeout(300);
      const item = page.getByRole('menuitem', { name: 'Verify' });
      if (await item.count()) {
        await item.first().click();
        clicked = true;
      }
    }
    expect(clicked).toBe(true);
    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'Binlens verify' });
    await toast.waitFor({ timeout: 60_000 });
    expect(await toast.textContent()).toContain('0 passed, 2 failed');
    await palette('View: Focus Problems');
    const problems = page.locator('.markers-panel');
    for (const d of DAMAGED) await problems.locator('.monaco-list-row', { hasText: d.problem }).first().waitFor({ timeout: 15_000 });
    await shot('verify-problems');
  });

  it('Convert from the palette writes the chosen output next to the file', async () => {
    await closeEditors();
    await explorerRow('small.map.fst3.fst').dblclick();
    await webview().locator('.badge').waitFor({ timeout: 30_000 });
    await palette('Binlens: Convert');
    const pick = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Annotated structure' }).first();
    await pick.waitFor({ timeout: 20_000 });
    await pick.click();
    // The save dialog (VS Code's simple dialog here) proposes small.map.fst3.binlens-dump next to the source.
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: 10_000 });
    await page.waitForTimeout(300);
    expect(await input.inputValue()).toContain('small.map.fst3.binlens-dump');
    await page.keyboard.press('Enter');
    await page.locator('.notifications-toasts .notification-toast', { hasText: 'Converted to small.map.fst3.binlens-dump' }).waitFor({ timeout: 30_000 });
    const out = join(workspace, 'small.map.fst3.binlens-dump');
    expect(existsSync(out)).toBe(true);
    expect(readFileSync(out, 'utf8')).toMatch(/^binlens-dump 1\nfile: small\.map\.fst3\.fst\n/);
    await shot('convert');
  });
});
