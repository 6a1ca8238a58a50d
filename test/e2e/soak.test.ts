import { readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEditor, visibleWebview } from './editors.js';
import { collectGarbage, mb, type HostUsage } from './hostProcess.js';
import { VsCodeSession, type WorkspaceFile } from './session.js';

/**
 * A window left open (issue 21 item 4): cycles of opening two editors, switching between their
 * tabs, scrolling, verifying and closing them bring the extension host back to where it was after
 * a warm-up, within 10 % in memory (its engine worker threads included: /proc VmRSS) and in
 * threads and open descriptors. Measured once the pool's idle threads have ended (30 s after the
 * last editor closed) and the host has collected its garbage (hostProcess.ts), as the median of
 * five samples a second apart. What V8 had yet to free was part of a spread of several per cent
 * between runs (+2.9 % and +9.0 % in two CI tries of one build; collected first, +3.4 % and
 * +7.2 %): the rest, memory malloc keeps or code space, is not measured yet. The issue asks for 200
 * cycles; a cycle takes about 13 s in code-server on this machine under load (20 cycles: 127 →
 * 138 MB, threads 13 → 13, descriptors 33 → 33 at a load average near 18), so `npm test` runs 20
 * and BINLENS_SOAK_CYCLES=200 runs the full soak (about 45 minutes).
 */
const CYCLES = Number(process.env.BINLENS_SOAK_CYCLES ?? 20);
const WARM_UP = 10;
/** The pool ends a thread 30 s after its last client (enginePool.ts idleMs). */
const SETTLE_MS = 35_000;

const FIXTURES = resolve('../shared/fixtures');
const files: WorkspaceFile[] = ['ben', 'fst', 'idv', 'xorb', 'bindu'].flatMap((family) =>
  readdirSync(join(FIXTURES, family), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ben|xben|fst|idv|xorb|bindu)$/.test(f) && !/corrupt|negative|damaged|truncat|bad_|mismatch/.test(f))
    .sort()
    .slice(0, 2)
    .map((f) => ({ file: `${family}-${basename(f)}`, from: join(FIXTURES, family, f) })),
);

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe('a window open for a long while (code-server)', () => {
  let vs: VsCodeSession;

  beforeAll(async () => {
    vs = await VsCodeSession.start(files, { 'workbench.editor.enablePreview': false, 'workbench.editor.enablePreviewFromQuickOpen': false });
  });

  afterAll(async () => {
    await vs?.stop();
  });

  /** Open two editors, switch back to the first, scroll it, verify it, close both. */
  async function cycle(i: number): Promise<void> {
    const a = files[i % files.length]!.file;
    const b = files[(i + 3) % files.length]!.file;
    await openEditor(vs, a);
    await openEditor(vs, b);
    await vs.page.locator('.tabs-container .tab', { hasText: a }).click();
    const view = await visibleWebview(vs);
    await view.locator('.file', { hasText: a }).waitFor({ timeout: 30_000 });
    await view.evaluate(() => {
      const scroller = document.querySelector<HTMLElement>('.vt-viewport') ?? document.scrollingElement;
      scroller?.scrollBy(0, 2000);
    });
    await vs.palette('Binlens: Verify');
    await vs.notification('Binlens verify').waitFor({ timeout: 60_000 });
    await vs.palette('Notifications: Clear All Notifications');
    await vs.closeEditors();
  }

  /** The host once nothing is open and the idle threads have ended: the median of five samples. */
  async function settled(): Promise<HostUsage> {
    await vs.page.waitForTimeout(SETTLE_MS);
    const collected = await collectGarbage((await vs.extensionHost()).pid);
    console.log(`soak: garbage ${collected ? 'collected' : 'not collected (no inspector answered)'} before the samples`);
    const samples: HostUsage[] = [];
    for (let k = 0; k < 5; k++) {
      samples.push(await vs.extensionHost());
      await vs.page.waitForTimeout(1000);
    }
    const pick = (key: 'rssBytes' | 'threads' | 'fds') => median(samples.map((s) => s[key]));
    return { pid: samples[0]!.pid, rssBytes: pick('rssBytes'), threads: pick('threads'), fds: pick('fds') };
  }

  it(`${CYCLES} cycles of open, switch, scroll, verify and close return to the baseline within 10 %`, async () => {
    await vs.step('soak', async () => {
      const start = await vs.extensionHost();
      for (let i = 0; i < WARM_UP; i++) await cycle(i);
      const base = await settled();
      const started = Date.now();
      for (let i = 0; i < CYCLES; i++) await cycle(WARM_UP + i);
      const cycleMs = (Date.now() - started) / CYCLES;
      const after = await settled();
      console.log(
        `soak: extension host at start ${mb(start.rssBytes)} MB; after ${WARM_UP} warm-up cycles ${mb(base.rssBytes)} MB, ${base.threads} threads, ${base.fds} fds; ` +
          `after ${CYCLES} more (${(cycleMs / 1000).toFixed(1)} s each) ${mb(after.rssBytes)} MB, ${after.threads} threads, ${after.fds} fds`,
      );
      expect(after.pid).toBe(base.pid);
      expect(after.rssBytes).toBeLessThanOrEqual(base.rssBytes * 1.1);
      expect(after.threads).toBeLessThanOrEqual(base.threads * 1.1);
      expect(after.fds).toBeLessThanOrEqual(base.fds * 1.1);
    });
  }, 3_600_000);
});
