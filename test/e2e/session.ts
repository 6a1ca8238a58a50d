import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Frame, FrameLocator, Locator, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { fixture } from '../helpers/fixtures.js';
// @ts-expect-error: plain ESM helper shared with `npm start`
import { startCodeServer } from '../../scripts/codeServer.mjs';

/**
 * A real VS Code (code-server 4.100) with the packaged Binlens VSIX, a throw-away workspace of
 * fixture copies, and Debian's Chromium driving it. Every e2e file starts one in `beforeAll`.
 * See ../shared/RECIPE-e2e.md for the traps this avoids.
 */
const ROOT = resolve(__dirname, '../..');
export const SHOTS = join(ROOT, 'test/e2e/screenshots');
const VSIX = join(ROOT, 'dist/binlens.vsix');

type Server = { url: string; logTail(n?: number): string; stop(): Promise<void> };

export interface WorkspaceFile {
  /** Name in the workspace. */
  readonly file: string;
  /** Path under ../shared/fixtures, or an absolute path (a file a test generated). */
  readonly from: string;
  /** A symbolic link instead of a copy: for the multi-GB files. */
  readonly link?: boolean;
}

export class VsCodeSession {
  private constructor(
    readonly page: Page,
    readonly workspace: string,
    private readonly browser: Browser,
    private readonly server: Server,
  ) {}

  /**
   * `settings` go into the user settings (a theme, or forcing the web extension host);
   * `bypassCSP` lets a test inject axe-core into the webviews.
   */
  static async start(files: readonly WorkspaceFile[], settings: Record<string, unknown> = {}, opts: { bypassCSP?: boolean } = {}): Promise<VsCodeSession> {
    if (!existsSync(VSIX)) throw new Error('dist/binlens.vsix is missing: run `npm test` (it builds and packages first)');
    mkdirSync(SHOTS, { recursive: true });
    const workspace = mkdtempSync(join(tmpdir(), 'binlens-e2e-ws-'));
    for (const f of files) (f.link ? symlinkSync : copyFileSync)(f.from.startsWith('/') ? f.from : fixture(f.from), join(workspace, f.file));
    const server: Server = await startCodeServer({ workspace, vsix: VSIX, settings });
    const browser = await launchBrowser();
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, bypassCSP: opts.bypassCSP });
    const session = new VsCodeSession(page, workspace, browser, server);
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`);
    await page.locator('.explorer-folders-view').waitFor({ timeout: 90_000 });
    await session.waitForBinlens();
    return session;
  }

  async stop(): Promise<void> {
    if (!this.page.isClosed()) await this.page.screenshot({ path: join(SHOTS, 'last.png') }).catch(() => undefined);
    await this.browser.close();
    await this.server.stop();
    rmSync(this.workspace, { recursive: true, force: true });
  }

  shot(name: string): Promise<Buffer> {
    return this.page.screenshot({ path: join(SHOTS, `${name}.png`) });
  }

  logTail(): string {
    return this.server.logTail();
  }

  /** Runs a palette command by its title. */
  async palette(command: string): Promise<void> {
    const page = this.page;
    await page.keyboard.press('Escape');
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: 10_000 });
    await input.fill(`>${command}`);
    // The row whose label starts with the command: a fuzzy match may rank another one first.
    const escaped = command.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: new RegExp(`^${escaped}`) }).first();
    await row.waitFor({ timeout: 10_000 });
    await row.click();
  }

  /** The explorer appears before extensions register; a double-click before that opens a text editor. */
  private async waitForBinlens(): Promise<void> {
    const page = this.page;
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

  explorerRow(name: string): Locator {
    return this.page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first();
  }

  /** The focused Binlens webview (two nested iframes). Close other editors first: one webview at a time. */
  webview(): FrameLocator {
    return this.page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
  }

  async closeEditors(): Promise<void> {
    await this.palette('View: Close All Editors');
    await this.page.waitForTimeout(500);
  }

  /** Closes every editor, double-clicks the file and waits for the Binlens badge. */
  async open(file: string, badge?: string): Promise<FrameLocator> {
    await this.closeEditors();
    await this.explorerRow(file).dblclick();
    const view = this.webview();
    await view.locator('.badge', badge ? { hasText: badge } : {}).waitFor({ timeout: 30_000 });
    return view;
  }

  /** Right-clicks an explorer row and picks a context-menu item (retried once: an early click can be swallowed). */
  async contextMenu(file: string, item: string): Promise<void> {
    for (let attempt = 0; attempt < 2; attempt++) {
      await this.explorerRow(file).click({ button: 'right' });
      await this.page.waitForTimeout(300);
      const entry = this.page.getByRole('menuitem', { name: item });
      if (await entry.count()) {
        await entry.first().click();
        return;
      }
      await this.page.keyboard.press('Escape');
    }
    throw new Error(`no "${item}" in the context menu of ${file}`);
  }

  /** The focused webview's document as a Playwright Frame (for scripts such as axe-core). */
  async webviewFrame(): Promise<Frame> {
    const outer = await (await this.page.locator('iframe.webview.ready').elementHandle())!.contentFrame();
    const inner = await (await outer!.locator('#active-frame').elementHandle())!.contentFrame();
    return inner!;
  }

  /** Picks a colour theme by its label in "Preferences: Color Theme" and waits until the workbench wears it. */
  async colorTheme(label: string, kind: 'vs' | 'vs-dark' | 'hc-black' | 'hc-light'): Promise<void> {
    await this.palette('Preferences: Color Theme');
    await this.page.locator('.quick-input-list .monaco-list-row', { hasText: /Default/ }).first().waitFor({ timeout: 10_000 });
    await this.page.locator('.quick-input-widget input').fill(label);
    // A row reads "<label><description>", e.g. "Light ModernDefault Light Modern".
    const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: new RegExp(`^${label}Default`) }).first();
    await row.waitFor({ timeout: 10_000 });
    await row.click();
    await this.page.waitForFunction((k) => document.querySelector('.monaco-workbench')?.classList.contains(k), kind, { timeout: 15_000 });
    await this.page.waitForTimeout(500);
  }

  notification(text: string): Locator {
    return this.page.locator('.notifications-toasts .notification-toast', { hasText: text });
  }
}
