import type { Frame } from 'playwright-core';
import { FIRST_SCREEN } from '../../webview/firstScreen.js';
import type { VsCodeSession } from './session.js';

/**
 * Many Binlens editors in one window, opened by Quick Open (the explorer shows only the rows that
 * fit, and its double-click waits on its own reveal), for the scale and soak tests.
 */

/** Quick Open with the file's row listed, so Enter opens it. */
export async function quickOpen(vs: VsCodeSession, file: string): Promise<void> {
  const row = vs.page.locator('.quick-input-list .monaco-list-row', { hasText: file }).first();
  // The input can close again after the text went in (an editor closing moves the focus), and
  // then no row ever comes: typed again, up to three times.
  for (let attempt = 0; attempt < 2; attempt++) {
    await vs.typeInQuickInput(file);
    if (
      await row.waitFor({ timeout: 5_000 }).then(
        () => true,
        () => false,
      )
    )
      return;
  }
  await vs.typeInQuickInput(file);
  await row.waitFor({ timeout: 15_000 });
}

export interface Opened {
  /** From Enter in Quick Open to the page's first screen (its mark, webview/firstScreen.ts), in ms. */
  readonly total: number;
  /** Of that, Binlens's part: from its page's HTML arriving to the first screen (ms); the rest is VS Code's editor and webview frames. */
  readonly binlens: number;
}

/** Opens a workspace file in its Binlens editor by Quick Open and waits for its first screen. */
export async function openEditor(vs: VsCodeSession, file: string): Promise<Opened> {
  const page = vs.page;
  await quickOpen(vs, file);
  const started = Date.now();
  await page.keyboard.press('Enter');
  const view = page.frameLocator('iframe.webview.ready >> visible=true').frameLocator('#active-frame');
  await view.locator('.file', { hasText: file }).waitFor({ timeout: 30_000 });
  await view.locator('[role="gridcell"]:not(.loading), [role="treeitem"]').first().waitFor({ timeout: 30_000 });
  // The page's own marks, not the time this process noticed: locator polling across the two
  // frames waits up to 500 ms between looks.
  const frame = await visibleWebview(vs);
  await frame.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, FIRST_SCREEN, { timeout: 30_000 });
  const { origin, arrived, shown } = await frame.evaluate((mark) => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    return { origin: performance.timeOrigin, arrived: nav.responseEnd, shown: performance.getEntriesByName(mark)[0]!.startTime };
  }, FIRST_SCREEN);
  return { total: Math.round(origin + shown - started), binlens: Math.round(shown - arrived) };
}

/** The page of the Binlens editor on screen (hidden editors' pages are dropped). */
export async function visibleWebview(vs: VsCodeSession): Promise<Frame> {
  const outer = await (await vs.page.locator('iframe.webview.ready >> visible=true').elementHandle())!.contentFrame();
  return (await (await outer!.locator('#active-frame').elementHandle())!.contentFrame())!;
}
