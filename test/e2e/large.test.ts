import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { largeBenSamples, largeFile, largeFileFits } from '../../bench/large.js';
import { VsCodeSession } from './session.js';

/**
 * A 2.2 GB BEN stream (past 2^31 bytes) in a real VS Code: the first screen comes from the
 * header and the first frames, the sample count runs in the background with its progress in the
 * table's counter (the webview test watches that), and End then lands on the last sample, read through the frame index.
 */
const room = largeFileFits('ben-2g');
if (!room.fits) console.warn(`e2e large: skipped, ${room.why} (set BINLENS_LARGE_DIR to a larger disk)`);

describe.runIf(room.fits)('a 2 GB BEN stream in VS Code (code-server)', () => {
  let vs: VsCodeSession;
  let samples: number;

  beforeAll(async () => {
    const ben = await largeFile('ben-2g');
    samples = largeBenSamples(ben);
    vs = await VsCodeSession.start([{ file: 'large.ben', from: ben, link: true }]);
  });

  afterAll(async () => {
    await vs?.stop();
  });

  it('opens at once, counts in the background and scrolls to the last sample', async () => {
    try {
      const started = Date.now();
      const view = await vs.open('large.ben', 'ben');
      const opened = Date.now() - started;
      await view.locator('[role="gridcell"]', { hasText: /^1$/ }).first().waitFor({ timeout: 30_000 });
      const firstScreen = Date.now() - started;
      await vs.shot('large-ben-first-screen');
      const total = samples.toLocaleString('en-US');
      await view.locator('.row-count', { hasText: new RegExp(`^${total} rows$`) }).waitFor({ timeout: 170_000 });
      const counted = Date.now() - started;

      await view.locator('[role="gridcell"]', { hasText: /^1$/ }).first().click();
      await vs.page.keyboard.press('End');
      // The active row is the last one, and it is sample `samples` (1-based), read from its frame.
      await view
        .locator('[role="row"][aria-selected="true"] [role="gridcell"]', { hasText: new RegExp(`^${samples}$`) })
        .first()
        .waitFor({ timeout: 30_000 });
      expect(await view.locator('[role="gridcell"]', { hasText: new RegExp(`^${samples + 1}$`) }).count()).toBe(0);
      await vs.shot('large-ben-last-sample');
      console.log(
        `2 GB BEN in code-server: header shown ${opened} ms and first rows ${firstScreen} ms after the double-click, ${total} samples counted after ${counted} ms`,
      );
    } catch (e) {
      await vs.shot('failed-large-ben');
      throw new Error(`${(e as Error).message}\n--- code-server log ---\n${vs.logTail()}`);
    }
  });
});
