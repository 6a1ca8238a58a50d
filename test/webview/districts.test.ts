import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DistrictsPanelData } from '../../src/protocol/protocol.js';
import { seriousViolations } from '../helpers/axe.js';
import { launchBrowser } from '../helpers/browser.js';
import { benPanelInit, openWebview } from './harness.js';

/** The districts panel of the built webview, against a host played by the test. */
const INIT = benPanelInit({
  id: 'districts',
  title: 'Districts',
  kind: 'districts',
  params: [{ key: 'sample', label: 'Sample', type: 'number', min: 1, default: 1 }],
});

const TABLE: DistrictsPanelData = {
  kind: 'districts',
  caption: 'sample 1: 16 nodes, 2 districts; graph: G.json',
  pickGraph: true,
  attributes: ['TOTPOP', 'G20PRESD', 'G20PRESR'],
  choice: { population: 'TOTPOP', elections: [['G20PRESD', 'G20PRESR']] },
  guessed: true,
  figures: [
    { name: 'Cut edges', value: '4', detail: 'of 24 edges of the graph' },
    { name: 'G20PRES: seats', value: 'D 1, R 1' },
  ],
  columns: [
    { title: 'District', numeric: false },
    { title: 'TOTPOP', numeric: true },
    { title: 'Deviation', numeric: true },
    { title: 'G20PRES D', numeric: true },
    { title: 'D share', numeric: true },
    { title: 'G20PRES R', numeric: true },
    { title: 'R share', numeric: true },
    { title: 'G20PRES winner', numeric: false },
  ],
  rows: [
    ['1', '840', '-1.18 %', '120', '40.00 %', '180', '60.00 %', 'R'],
    ['2', '860', '+1.18 %', '200', '62.50 %', '120', '37.50 %', 'D'],
  ],
};

const NO_GRAPH: DistrictsPanelData = {
  ...TABLE,
  missing: 'No graph: choose the graph JSON the sampler read.',
  figures: [],
  columns: [],
  rows: [],
  attributes: [],
  choice: { elections: [] },
};

describe('districts panel in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('draws the district table with column and row headers, the figures, and sends a changed choice back as JSON', async () => {
    const { page, requests, violations } = await openWebview(browser, INIT, (op) => (op === 'panel' ? TABLE : undefined), { bypassCSP: true });
    await page.getByRole('tab', { name: 'Districts' }).click();
    const table = page.getByRole('table');
    await table.waitFor();
    expect(await table.locator('caption').textContent()).toBe('2 districts');
    expect(await page.getByRole('columnheader').allTextContents()).toEqual(TABLE.columns.map((c) => c.title));
    expect(await page.getByRole('rowheader').allTextContents()).toEqual(['1', '2']);
    expect(await table.locator('tbody tr').nth(1).locator('td').allTextContents()).toEqual(TABLE.rows[1]!.slice(1));
    // numbers right-aligned, the winner not
    expect(
      await table
        .locator('tbody td')
        .first()
        .evaluate((e) => getComputedStyle(e).textAlign),
    ).toBe('right');
    expect(
      await table
        .locator('tbody td')
        .last()
        .evaluate((e) => getComputedStyle(e).textAlign),
    ).toBe('left');
    expect(await page.locator('.districts-figures dt').allTextContents()).toEqual(['Cut edges', 'G20PRES: seats']);
    expect(await page.locator('.districts-figures dd').first().textContent()).toBe('4 (of 24 edges of the graph)');

    // The population attribute by keyboard: Tab reaches the select, a key changes it.
    const population = page.getByRole('combobox', { name: 'Population attribute' });
    await population.focus();
    await population.selectOption('G20PRESR');
    await expect.poll(() => requests.filter((r) => r.op === 'panel').length).toBe(2);
    const last = () => JSON.parse((requests.filter((r) => r.op === 'panel').at(-1)!.params.params as Record<string, string>).attributes!) as unknown;
    expect(last()).toEqual({ population: 'G20PRESR', elections: [['G20PRESD', 'G20PRESR']] });
    await page.getByRole('button', { name: 'Add a party to election 1' }).click();
    await expect.poll(last).toEqual({ population: 'TOTPOP', elections: [['G20PRESD', 'G20PRESR', 'TOTPOP']] });
    await page.getByRole('button', { name: 'Remove election 1' }).click();
    await expect.poll(last).toEqual({ population: 'TOTPOP', elections: [] });
    await page.getByRole('button', { name: 'Add election' }).click();
    await expect.poll(last).toEqual({
      population: 'TOTPOP',
      elections: [
        ['G20PRESD', 'G20PRESR'],
        ['TOTPOP', 'G20PRESD'],
      ],
    });

    // The table scrolls in a focusable region, named for screen readers.
    const region = page.getByRole('region', { name: 'District table' });
    await region.focus();
    expect(await region.evaluate((e) => e === document.activeElement)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    expect(violations).toEqual([]);
    await page.close();
  });

  it('without a graph: says so, keeps no table, and a pick asks the host then redraws with the choice cleared', async () => {
    let picked = false;
    const { page, requests } = await openWebview(browser, INIT, (op) => {
      if (op === 'pickGraph') return { picked: (picked = true) };
      return op === 'panel' ? (picked ? TABLE : NO_GRAPH) : undefined;
    });
    await page.getByRole('tab', { name: 'Districts' }).click();
    await page.getByRole('status').filter({ hasText: 'No graph' }).waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    await page.getByRole('button', { name: 'Choose graph…' }).click();
    await page.getByRole('table').waitFor();
    const ops = requests.map((r) => r.op);
    expect(ops.slice(ops.indexOf('pickGraph'))).toEqual(['pickGraph', 'panel']);
    expect((requests.at(-1)!.params.params as Record<string, unknown>).attributes).toBe('');
    expect(await page.getByRole('button', { name: 'Choose another graph…' }).count()).toBe(1);
    await page.close();
  });
});
