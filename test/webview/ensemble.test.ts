import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnsemblePanelData } from '../../src/protocol/protocol.js';
import { seriousViolations } from '../helpers/axe.js';
import { launchBrowser } from '../helpers/browser.js';
import { benPanelInit, openWebview } from './harness.js';

/** The ensemble panel of the built webview, against a host played by the test. */
const INIT = benPanelInit({ id: 'ensemble', title: 'Ensemble', kind: 'ensemble', params: [] });

const READY: EnsemblePanelData = {
  kind: 'ensemble',
  caption: 'graph: G.json, 16 nodes; 4 plans not measured yet',
  state: 'ready',
  attributes: ['TOTPOP', 'CD'],
  histograms: [],
  boxes: [],
};

/**
 * Four plans: cut edges 10, 11, 11, 13 (a bar per integer 10..13: 1, 2, 0, 1), the reference at 11
 * (below 1, equal 2: percentile 100·(1 + 2/2)/4 = 50); two ranks of D share.
 */
const DONE: EnsemblePanelData = {
  kind: 'ensemble',
  caption: 'graph: G.json, 16 nodes; 4 plans',
  state: 'done',
  attributes: ['TOTPOP', 'CD'],
  samples: 4,
  reference: { name: 'sample 2' },
  histograms: [
    {
      id: 'cut_edges',
      title: 'Cut edges',
      label: 'cut edges',
      unit: 'count',
      bins: [
        { from: 9.5, to: 10.5, count: 1 },
        { from: 10.5, to: 11.5, count: 2 },
        { from: 11.5, to: 12.5, count: 0 },
        { from: 12.5, to: 13.5, count: 1 },
      ],
      n: 4,
      min: 10,
      median: 11,
      max: 13,
      mark: { value: 11, percentile: 50 },
    },
  ],
  boxes: [
    {
      id: 'e0.shares',
      title: 'G20PRES: D vote share by district, sorted',
      label: 'D share',
      ranks: [
        { rank: 1, n: 4, min: 0.3, q25: 0.32, median: 0.35, q75: 0.4, max: 0.45, mark: { value: 0.4, percentile: 75 } },
        { rank: 2, n: 4, min: 0.55, q25: 0.6, median: 0.62, q75: 0.65, max: 0.7, mark: { value: 0.6, percentile: 37.5 } },
      ],
    },
  ],
  exports: { csv: 'statistic,title\ncut_edges,Cut edges\n', jsonl: '{"statistic":"cut_edges"}\n' },
};

const panelParams = (r: { params: Record<string, unknown> }) => r.params.params as Record<string, unknown>;

describe('ensemble panel in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('runs the pass with progress, then draws each plot as a titled image with a summary, a table and the reference marked', async () => {
    const { page, requests } = await openWebview(
      browser,
      INIT,
      async (op, params, emit) => {
        if (op !== 'panel') return undefined;
        if (!(params.params as Record<string, unknown>).run) return READY;
        await emit({ done: 1024, total: 4096 });
        return DONE;
      },
      { bypassCSP: true },
    ); // axe injects a script
    await page.getByRole('tab', { name: 'Ensemble' }).click();
    await page.getByRole('button', { name: 'Measure every plan' }).click();
    const cut = page.getByRole('img', { name: /Cut edges/ });
    await cut.waitFor();
    expect(panelParams(requests.filter((r) => r.op === 'panel').at(-1)!).run).toBe(1);
    // a bar per bin, the reference line, its label with the percentile; the image is named by title and summary
    expect(await cut.locator('rect.ensemble-bar').count()).toBe(4);
    expect(await cut.locator('line.ensemble-mark').count()).toBe(1);
    expect(await cut.locator('.ensemble-mark-label').textContent()).toBe('11 · percentile 50.0');
    expect(await cut.getAttribute('aria-labelledby')).toBe('ensemble-title-cut_edges ensemble-summary-cut_edges');
    expect(await page.locator('#ensemble-summary-cut_edges').textContent()).toBe('4 plans: min 10, median 11, max 13. Reference: 11, percentile 50.0.');
    // the reference line stands over the middle of the 11 bar: bars are slots of equal width
    const [bar, line] = await Promise.all([cut.locator('rect.ensemble-bar').nth(1).boundingBox(), cut.locator('line.ensemble-mark').boundingBox()]);
    expect(Math.abs(bar!.x + bar!.width / 2 - (line!.x + line!.width / 2))).toBeLessThan(2);
    // box plots: a box per rank, the reference as a dot per rank, in the text too
    const boxes = page.getByRole('img', { name: /D vote share/ });
    expect(await boxes.locator('g.ensemble-box').count()).toBe(2);
    expect(await boxes.locator('g.ensemble-box circle.ensemble-mark-dot').count()).toBe(2);
    expect(await page.locator('#ensemble-summary-e0-shares').textContent()).toBe(
      '2 ranks; median D share from 35.00 % (rank 1) to 62.00 % (rank 2). Reference: rank 1 40.00 % (percentile 75.0); rank 2 60.00 % (percentile 37.5).',
    );
    // the table alternative
    await page.getByText('Table').nth(1).click();
    expect(await page.locator('[data-plot="e0.shares"] tbody tr').first().locator('td').allTextContents()).toEqual([
      '30.00 %',
      '32.00 %',
      '35.00 %',
      '40.00 %',
      '45.00 %',
      '40.00 %',
      'percentile 75.0',
    ]);
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  it('a reference by sample number or attribute goes back as a parameter; a file is asked of the host', async () => {
    const { page, requests } = await openWebview(browser, INIT, (op) => (op === 'panel' ? DONE : op === 'pickReference' ? { picked: true } : undefined));
    await page.getByRole('tab', { name: 'Ensemble' }).click();
    const kind = page.getByRole('combobox', { name: 'Reference plan' });
    await kind.waitFor();
    expect(await kind.inputValue()).toBe('sample');
    await page.getByRole('spinbutton', { name: 'Reference sample number' }).fill('3');
    await page.getByRole('button', { name: 'Mark' }).click();
    await expect.poll(() => panelParams(requests.filter((r) => r.op === 'panel').at(-1)!).reference).toBe('sample:3');
    await kind.selectOption('attribute');
    await page.getByRole('combobox', { name: 'Reference attribute' }).selectOption('CD');
    await page.getByRole('button', { name: 'Mark' }).click();
    await expect.poll(() => panelParams(requests.filter((r) => r.op === 'panel').at(-1)!).reference).toBe('attribute:CD');
    await kind.selectOption('file');
    await page.getByRole('button', { name: 'Mark' }).click();
    await expect.poll(() => panelParams(requests.filter((r) => r.op === 'panel').at(-1)!).reference).toBe('file');
    expect(requests.some((r) => r.op === 'pickReference')).toBe(true);
    await page.close();
  });

  it('exports: statistics as CSV and JSONL, a plot as standalone SVG (theme colours written in) and as PNG bytes', async () => {
    const saved: Record<string, unknown>[] = [];
    const { page, violations } = await openWebview(browser, INIT, (op, params) => {
      if (op === 'saveExport') return (saved.push(params), { saved: true });
      return op === 'panel' ? DONE : undefined;
    });
    await page.getByRole('tab', { name: 'Ensemble' }).click();
    await page.getByRole('button', { name: 'Export the statistics as CSV' }).click();
    await page.getByRole('button', { name: 'Export the statistics as JSONL' }).click();
    await page.getByRole('button', { name: 'Export Cut edges as SVG' }).click();
    await page.getByRole('button', { name: 'Export Cut edges as PNG' }).click();
    await expect.poll(() => saved.length).toBe(4);
    expect(saved[0]).toEqual({ kind: 'csv', name: 'ensemble-statistics', data: DONE.exports!.csv });
    expect(saved[1]).toEqual({ kind: 'jsonl', name: 'ensemble-statistics', data: DONE.exports!.jsonl });
    const svgText = saved[2]!.data as string;
    expect(saved[2]!.kind).toBe('svg');
    expect(svgText).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svgText).not.toMatch(/var\(--vscode|class=/);
    // the reference line keeps its colour as a value (the harness page has no theme: whatever the variable gave)
    expect(svgText).toMatch(/<line[^>]*stroke-width="2px"/);
    const png = Buffer.from(saved[3]!.data as string, 'base64');
    expect(saved[3]!.kind).toBe('png');
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // 560 × 240 drawn at twice the size: the IHDR's width and height
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1120, 480]);
    expect(violations).toEqual([]);
    await page.close();
  });

  it('cancel during the pass stops the request and goes back to the view before it', async () => {
    let release: (() => void) | undefined;
    const { page, requests } = await openWebview(browser, INIT, async (op, params, emit) => {
      if (op !== 'panel') return undefined;
      if (!(params.params as Record<string, unknown>).run) return READY;
      await emit({ done: 2048, total: 8192 });
      await new Promise<void>((r) => (release = r));
      return DONE;
    });
    await page.getByRole('tab', { name: 'Ensemble' }).click();
    await page.getByRole('button', { name: 'Measure every plan' }).click();
    await page.getByRole('status').filter({ hasText: 'Working: 2,048 of 8,192' }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => requests.filter((r) => r.op === 'panel').length).toBe(3);
    expect(panelParams(requests.at(-1)!).run).toBeUndefined();
    await page.getByRole('button', { name: 'Measure every plan' }).waitFor();
    release?.();
    expect(await page.getByRole('img').count()).toBe(0);
    await page.close();
  });
});
