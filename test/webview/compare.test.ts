import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComparePayload, DocDTO, NodeDTO, RowDTO } from '../../src/protocol/protocol.js';
import { seriousViolations } from '../helpers/axe.js';
import { launchBrowser } from '../helpers/browser.js';
import { openWebview } from './harness.js';

/**
 * The compare view of the built webview (dist/webview.js) in headless Chromium, and a document
 * editor's answer to a compare view's reveal: this test plays the extension host.
 */
const XSS = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';

function doc(
  name: string,
  tables = [
    {
      id: 'samples',
      title: 'Samples',
      columns: [{ key: 's', title: 'sample', type: 'number' as const }],
      rowCount: { known: 500, complete: true },
      countable: false,
    },
  ],
): DocDTO {
  return {
    fileName: `${name}.ben`,
    size: 100,
    format: 'ben',
    formatLabel: 'BEN',
    title: `BEN ${name}`,
    summary: [],
    warnings: [],
    root: { id: 'root', label: `${name}.ben`, childCount: 3 },
    tables,
    panels: [],
    searches: [{ id: 'range', label: 'Range', params: [{ key: 'from', label: 'From', type: 'string' }], columns: [{ key: 'k', title: 'key', type: 'text' }] }],
    converters: [],
  };
}

/**
 * Top-level rows: the header is the same, the frame count changed, of two rows labelled "part"
 * the second changed (rows pair by label and occurrence), the last row is only in B.
 */
const TOP: Record<'a' | 'b', NodeDTO[]> = {
  a: [
    { id: 'h', label: 'header', value: 'standard', childCount: 0 },
    { id: 'f', label: 'frames', value: '37', childCount: 0 },
    { id: 'p1', label: 'part', value: '1', childCount: 0 },
    { id: 'p2', label: 'part', value: '2', childCount: 0 },
  ],
  b: [
    { id: 'h', label: 'header', value: 'standard', childCount: 0 },
    { id: 'f', label: 'frames', value: '48', childCount: 0 },
    { id: 'p1', label: 'part', value: '1', childCount: 0 },
    { id: 'p2', label: 'part', value: '3', childCount: 0 },
    { id: 'i', label: XSS, value: XSS, childCount: 0 },
  ],
};

/** 250 differences, the third with a hostile text. */
const DIFF_ROWS: RowDTO[] = Array.from({ length: 250 }, (_, i) => ({
  cells: ['sample-changed', `sample ${i + 1}`, i === 2 ? XSS : `${i + 1} nodes changed district`],
}));

const COMPARE: ComparePayload = { a: { kind: 'opened', doc: doc('a') }, b: { kind: 'opened', doc: doc('b') } };

/** The compare view's host: each side's tree, a diff that streams its row count then ends with 250 differences. */
async function compareHost(op: string, p: Record<string, unknown>, emit: (e: unknown) => Promise<void>): Promise<unknown> {
  if (op === 'children') return p.node === 'root' ? TOP[p.side as 'a' | 'b'] : [];
  if (op === 'diff') {
    await emit({ rows: 100 });
    await new Promise((r) => setTimeout(r, 300));
    return { exitCode: 1, differences: 260, counts: { 'sample-changed': 260 }, rows: 250, dropped: 10 };
  }
  if (op === 'page') return DIFF_ROWS.slice(p.from as number, (p.from as number) + (p.count as number));
  return undefined;
}

describe('compare view in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows both structures with the changed and one-sided top-level rows noted, and the outcome with its exit code', async () => {
    const { page, violations } = await openWebview(browser, { topic: 'compare', payload: COMPARE }, compareHost);
    const trees = page.locator('[role="tree"]');
    await expect.poll(() => trees.count()).toBe(2);
    await page.locator('[role="treeitem"][aria-level="2"]').nth(8).waitFor();
    const rows = async (k: number) => trees.nth(k).locator('[role="treeitem"][aria-level="2"]').allTextContents();
    expect(await rows(0)).toEqual(['header = standard', 'frames = 37  · ≠ changed: 48', 'part = 1', 'part = 2  · ≠ changed: 3']);
    expect(await rows(1)).toEqual([
      'header = standard',
      'frames = 48  · ≠ changed: 37',
      'part = 1',
      'part = 3  · ≠ changed: 2',
      `${XSS} = ${XSS}  · ≠ only in B`,
    ]);
    expect(await trees.nth(0).getAttribute('aria-label')).toBe('A: a.ben');
    expect(await page.locator('.topbar .file').textContent()).toBe('A: a.ben (ben: BEN a) · B: b.ben (ben: BEN b)');
    await expect.poll(() => page.locator('.diff-outcome').textContent()).toBe('260 differences; the first 250 are listed (exit code 1: the files differ)');
    expect(await page.locator('[role="grid"]').getAttribute('aria-rowcount')).toBe('251');
    await page.locator('[role="gridcell"]', { hasText: /^sample 3$/ }).waitFor();
    expect(await page.locator('[role="row"][aria-rowindex="4"] [role="gridcell"]').nth(2).textContent()).toBe(XSS);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(violations).toEqual([]);
    await page.close();
  });

  it('asks the host to open both files at a row on a click or Enter, never on arrow keys alone', async () => {
    const { page, requests } = await openWebview(browser, { topic: 'compare', payload: COMPARE }, compareHost);
    const reveals = () => requests.filter((r) => r.op === 'reveal').map((r) => r.params.row);
    await page.locator('[role="gridcell"]', { hasText: /^sample 5$/ }).click();
    await expect.poll(reveals).toEqual([4]);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.waitForTimeout(200);
    expect(reveals()).toEqual([4]);
    await page.keyboard.press('Enter');
    await expect.poll(reveals).toEqual([4, 6]);
    await expect.poll(() => page.locator('.status').textContent()).toBe('opened both files at difference 7');
    await page.close();
  });

  it('says why there is no diff when a side is damaged (exit code 2)', async () => {
    const trouble = async (op: string, p: Record<string, unknown>, emit: (e: unknown) => Promise<void>) =>
      op === 'diff'
        ? { exitCode: 2, differences: 0, counts: {}, rows: 0, dropped: 0, trouble: { side: 'B', message: `CRC-32C fails ${XSS}` } }
        : compareHost(op, p, emit);
    const { page } = await openWebview(browser, { topic: 'compare', payload: COMPARE }, trouble);
    await expect
      .poll(() => page.locator('.diff-outcome.mark-error').textContent())
      .toBe(`cannot compare: file B: CRC-32C fails ${XSS} (exit code 2: unreadable or damaged data, no diff)`);
    await page.close();
  });

  it('shows why a side did not open, beside the other side’s structure', async () => {
    const payload: ComparePayload = {
      a: COMPARE.a,
      b: { kind: 'unrecognised', fileName: 'b.ben', size: 3, reason: `not a BEN stream ${XSS}`, head: '000102' },
    };
    const unread = async (op: string, p: Record<string, unknown>, emit: (e: unknown) => Promise<void>) =>
      op === 'diff'
        ? { exitCode: 2, differences: 0, counts: {}, rows: 0, dropped: 0, trouble: { side: 'B', message: `b.ben: not a BEN stream` } }
        : compareHost(op, p, emit);
    const { page } = await openWebview(browser, { topic: 'compare', payload }, unread);
    await expect.poll(() => page.locator('[role="tree"]').count()).toBe(1);
    expect(await page.locator('.compare-structures .mark-error').textContent()).toBe(`not a BEN stream ${XSS}`);
    await expect.poll(() => page.locator('.diff-outcome').textContent()).toMatch(/^cannot compare: file B: b\.ben: not a BEN stream \(exit code 2/);
    await page.close();
  });

  it('has no serious accessibility violations', async () => {
    const { page } = await openWebview(browser, { topic: 'compare', payload: COMPARE }, compareHost, { bypassCSP: true });
    await page.locator('[role="gridcell"]').first().waitFor();
    await page.locator('[role="treeitem"][aria-level="2"]').nth(8).waitFor();
    const found = await seriousViolations(page);
    expect(found, JSON.stringify(found, null, 1)).toEqual([]);
    await page.close();
  });

  it('a document’s editor shows the row or runs the search a reveal names', async () => {
    const rowsOf = (p: Record<string, unknown>) => Array.from({ length: p.count as number }, (_, i) => ({ cells: [(p.from as number) + i + 1] }));
    const { page, send } = await openWebview(browser, { topic: 'init', payload: { kind: 'opened', doc: doc('a'), hexEditor: false } }, async (op, p, emit) => {
      if (op === 'page') return rowsOf(p);
      if (op === 'search') {
        await emit([{ cells: [`from ${String((p.params as Record<string, unknown>).from)}`] }]);
        return { count: 1 };
      }
      return op === 'children' ? [] : undefined;
    });
    await page.locator('[role="gridcell"]').first().waitFor();
    await send({ topic: 'reveal', payload: { kind: 'row', table: 'samples', row: 400 } });
    const active = page.locator('.vt-row.active');
    await expect.poll(() => active.getAttribute('aria-rowindex')).toBe('402');
    await expect.poll(() => active.textContent()).toBe('401');
    await send({ topic: 'reveal', payload: { kind: 'search', search: 'range', params: { from: 'ab\\x00' } } });
    await expect.poll(() => page.locator('.search-results [role="gridcell"]').first().textContent()).toBe('from ab\\x00');
    expect(await page.locator('[role="tab"][aria-selected="true"]').textContent()).toBe('Search');
    expect(await page.locator('.search-form input[name="from"]').inputValue()).toBe('ab\\x00');
    await page.close();
  });
});
