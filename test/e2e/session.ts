import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Frame, FrameLocator, Locator, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { fixture } from '../helpers/fixtures.js';
import { extensionHostPid, hostUsage, type HostUsage } from './hostProcess.js';
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

type Server = { url: string; root: string; logTail(n?: number): string; stop(): Promise<void> };

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

  /** The extension host's memory (its engine worker threads included), threads and open descriptors. */
  async extensionHost(): Promise<HostUsage> {
    return hostUsage(await extensionHostPid(join(this.server.root, 'xdg-config')));
  }

  /**
   * One test step: on success, with `shotAfter`, a screenshot named `name`; on failure a
   * `failed-<name>` screenshot, and the error with the notifications shown and code-server's log.
   */
  async step(name: string, body: () => Promise<void>, opts: { shotAfter?: boolean } = {}): Promise<void> {
    try {
      await body();
      if (opts.shotAfter) {
        await this.page.waitForTimeout(300);
        await this.shot(name);
      }
    } catch (e) {
      await this.shot(`failed-${name}`).catch(() => undefined);
      const shown = await this.page
        .locator('.notifications-toasts .notification-toast')
        .allTextContents()
        .catch(() => []);
      throw new Error(`${(e as Error).message}\nnotifications: ${JSON.stringify(shown)}\n--- code-server log ---\n${this.logTail()}`);
    }
  }

  /** Runs a palette command by its title. */
  async palette(command: string): Promise<void> {
    const page = this.page;
    // The row whose label starts with the command: a fuzzy match may rank another one first.
    const escaped = command.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: new RegExp(`^${escaped}`) }).first();
    // The palette can close between the typing and the filtering (a soak cycle in a CI try: the row
    // stayed hidden in the unfiltered list for 10 s): type again into a fresh one.
    for (let attempt = 0; attempt < 3; attempt++) {
      await this.typeInQuickInput(`>${command}`);
      try {
        await row.waitFor({ timeout: 4_000 });
        break;
      } catch {
        // Hidden or absent: the palette closed under the typing.
      }
    }
    await row.waitFor({ timeout: 10_000 });
    await row.click();
  }

  /**
   * Types `text` into the command palette's input. F1 is pressed again until the input shows and
   * takes the text: a press right after an editor closed, or with a webview focused, can land where
   * nothing takes it, and the input can close again between showing and the typing.
   */
  async typeInQuickInput(text: string): Promise<void> {
    const input = this.page.locator('.quick-input-widget input');
    await this.page.keyboard.press('Escape');
    for (let attempt = 0; attempt < 5; attempt++) {
      await this.page.keyboard.press('F1');
      try {
        await input.fill(text, { timeout: 3_000 });
        return;
      } catch {
        // The press landed where nothing took it, or the input closed again: again.
      }
    }
    await input.fill(text, { timeout: 10_000 });
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

  /**
   * Selects exactly these explorer rows with Ctrl+clicks alone, checking the selection after each
   * round. A plain click would open the file, and when its editor finishes opening the explorer
   * reveals it, which replaces the selection; on a busy machine that lands after the Ctrl+clicks.
   */
  async selectInExplorer(files: readonly string[]): Promise<void> {
    const selected = this.page.locator('.explorer-folders-view .monaco-list-row[aria-selected="true"]');
    const wanted = (name: string) => files.some((f) => name.includes(f));
    let names: string[] = [];
    for (let round = 0; round < 4; round++) {
      names = await selected.allTextContents();
      const toggle = [...files.filter((f) => !names.some((n) => n.includes(f))), ...names.filter((n) => !wanted(n))];
      if (toggle.length === 0) return;
      for (const name of toggle) {
        const row = this.explorerRow(name);
        const was = await row.getAttribute('aria-selected');
        await row.click({ modifiers: ['Control'] });
        await waitForAttribute(row, 'aria-selected', was === 'true' ? 'false' : 'true');
      }
    }
    throw new Error(`explorer selection is [${names.join(', ')}], wanted [${files.join(', ')}]`);
  }

  /**
   * Right-clicks an explorer row and picks a context-menu item. Both clicks can be swallowed on a
   * busy machine (the menu ignores a click that comes too soon after it opened), so each is
   * repeated until it shows: the right-click until the menu is up, the pick until the menu is
   * gone. Never Escape: in the explorer it clears the selection, and a multi-file command would
   * then get one file.
   */
  async contextMenu(file: string, item: string): Promise<void> {
    const menu = this.page.locator('.context-view .monaco-menu');
    const entry = menu.getByRole('menuitem', { name: item }).first();
    const within = (l: Locator, state: 'visible' | 'hidden') =>
      l.waitFor({ state, timeout: 5_000 }).then(
        () => true,
        () => false,
      );
    for (let attempt = 0; attempt < 3; attempt++) {
      await this.explorerRow(file).click({ button: 'right' });
      if (!(await within(entry, 'visible'))) continue;
      for (let pick = 0; pick < 3; pick++) {
        await entry.click();
        if (await within(menu, 'hidden')) return;
      }
    }
    throw new Error(`no "${item}" in the context menu of ${file}, or it would not take the click`);
  }

  /**
   * Verifies these files from the explorer context menu (a multi-selection) and returns the text of
   * the summary notification.
   */
  async verifyFromExplorer(files: readonly string[]): Promise<string> {
    await this.closeEditors();
    await this.selectInExplorer(files);
    await this.contextMenu(files[files.length - 1]!, 'Verify');
    const toast = this.notification('Binlens verify');
    try {
      await toast.waitFor({ timeout: 60_000 });
    } catch (e) {
      await this.shot('failed-verify');
      const shown = await this.page.locator('.notifications-toasts .notification-toast').allTextContents();
      throw new Error(`${(e as Error).message}\nnotifications: ${JSON.stringify(shown)}\n--- code-server log ---\n${this.logTail()}`);
    }
    return (await toast.textContent()) ?? '';
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
    await this.page
      .locator('.quick-input-list .monaco-list-row', { hasText: /Default/ })
      .first()
      .waitFor({ timeout: 10_000 });
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

/** Waits (briefly) for an attribute to take a value; a click that was swallowed shows as a timeout the caller's next round repairs. */
async function waitForAttribute(element: Locator, name: string, value: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline && (await element.getAttribute(name)) !== value) await element.page().waitForTimeout(100);
}
