import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOW_DAMAGED, damagedCell } from '../../src/core/integrity.js';
import { rowDTO } from '../../src/host/engine/dto.js';
import type {
  CountResultDTO,
  DocDTO,
  HostNotice,
  L10nBundle,
  NodeDTO,
  OpenResultDTO,
  PanelData,
  RowDTO,
  TableDTO,
  TopDTO,
} from '../../src/protocol/protocol.js';
import { FIRST_SCREEN } from '../../webview/firstScreen.js';
import { seriousViolations } from '../helpers/axe.js';
import { launchBrowser } from '../helpers/browser.js';
import { openWebview, type WebviewPage } from './harness.js';

/**
 * The built webview (dist/webview.js) in headless Chromium with a stubbed `acquireVsCodeApi`:
 * this test plays the extension host, answering the webview's requests with DTOs.
 */
const XSS = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
const ROWS = 5_000_000;

type FakeHost = Pick<WebviewPage, 'requests' | 'notices'>;

function doc(name: string): DocDTO {
  return {
    fileName: `${name}.fst`,
    size: 54,
    format: 'fst',
    formatLabel: 'Finite state transducer',
    title: `title ${name}`,
    summary: [
      { name: 'version', value: '3', range: { offset: 0, length: 8 } },
      { name, value: name, note: name },
    ],
    warnings: [{ name, status: 'warn', detail: name, offset: 4 }],
    root: { id: 'root', label: name, value: name, range: { offset: 0, length: 54 }, childCount: 2 },
    tables: [
      {
        id: 'keys',
        title: 'Keys',
        columns: [
          { key: 'i', title: 'row', type: 'number' },
          { key: 'k', title: name, type: 'text' },
        ],
        rowCount: { known: ROWS, complete: true },
        countable: false,
      },
    ],
    panels: PANELS.map((p) => ({ id: p.kind, title: `${p.kind} ${name}`, kind: p.kind, params: [{ key: 'x', label: name, type: 'string', default: name }] })),
    searches: [{ id: 'find', label: name, params: [{ key: 'q', label: name, type: 'string' }], columns: [{ key: 'k', title: name, type: 'text' }] }],
    converters: [],
  };
}

/** One payload of every panel kind, every string a file could have put there hostile. */
const PANELS: PanelData[] = [
  { kind: 'fields', groups: [{ title: XSS, fields: [{ name: XSS, value: XSS, mark: 'error' }] }] },
  { kind: 'text', language: 'json', text: XSS },
  {
    kind: 'chart',
    chart: 'bar',
    xLabel: XSS,
    yLabel: XSS,
    series: [
      {
        name: XSS,
        points: [
          [1, 2],
          [2, 3],
        ],
      },
    ],
  },
  { kind: 'pipeline', pipelines: [{ title: XSS, from: XSS, to: XSS, stages: [{ name: XSS, detail: XSS, mark: 'warn' }], note: XSS }] },
  { kind: 'tree', root: { label: XSS, detail: XSS, children: [{ label: XSS, mark: 'error' }, { label: XSS }] }, caption: XSS },
  {
    kind: 'automaton',
    states: [
      { id: 'a', label: XSS, layer: 0, row: 0, final: false, mark: 'selected' },
      { id: 'b', label: XSS, layer: 1, row: 0, final: true },
    ],
    edges: [{ from: 'a', to: 'b', label: XSS, path: true }],
    selectParam: 'x',
    note: XSS,
    details: [{ title: XSS, fields: [{ name: XSS, value: XSS }] }],
  },
  {
    kind: 'plan',
    caption: XSS,
    x: [0, 1, 2],
    y: [0, 1, 0],
    edges: [0, 1, 1, 2],
    mode: 'district',
    values: [1, 2, 1],
    stripLabel: XSS,
    sizes: [
      [1, 2],
      [2, 1],
    ],
    step: { param: 'x', value: 1, min: 1, max: 3 },
  },
  {
    kind: 'bars',
    xLabel: XSS,
    yLabel: XSS,
    innerLabel: XSS,
    lineLabel: XSS,
    categories: [XSS],
    bars: [{ label: XSS, value: 3, inner: 1, line: 2, category: 0 }],
  },
  { kind: 'layers', rows: [{ title: XSS, nodes: [{ id: 'a', label: XSS, detail: XSS, group: 1, mark: 'error' }] }], note: XSS },
  {
    kind: 'districts',
    caption: XSS,
    pickGraph: true,
    attributes: [XSS],
    choice: { population: XSS, elections: [[XSS, XSS]] },
    guessed: true,
    figures: [{ name: XSS, value: XSS, detail: XSS }],
    columns: [
      { title: XSS, numeric: false },
      { title: XSS, numeric: true },
    ],
    rows: [[XSS, XSS]],
  },
  {
    kind: 'ensemble',
    caption: XSS,
    state: 'done',
    attributes: [XSS],
    samples: 2,
    reference: { name: XSS, problem: XSS },
    histograms: [
      {
        id: XSS,
        title: XSS,
        label: XSS,
        unit: 'count',
        bins: [{ from: 0, to: 1, count: 2 }],
        n: 2,
        min: 0,
        median: 0,
        max: 1,
        mark: { value: 1, percentile: 75 },
      },
    ],
    boxes: [{ id: XSS, title: XSS, label: XSS, ranks: [{ rank: 1, n: 2, min: 0, q25: 0, median: 0.5, q75: 1, max: 1, mark: { value: 0.5, percentile: 50 } }] }],
    exports: { csv: XSS, jsonl: XSS },
  },
];

const CHILDREN: Record<string, NodeDTO[]> = {
  root: [
    { id: 'header', label: 'header', range: { offset: 0, length: 16 }, childCount: 1 },
    { id: 'frames', label: XSS, value: XSS, note: XSS, mark: 'error', range: { offset: 16, length: 38 }, childCount: null },
  ],
  header: [{ id: 'version', label: 'version', value: '3', range: { offset: 0, length: 8 }, childCount: 0 }],
};

interface PageOptions {
  bypassCSP?: boolean;
  /** What the host sends as `vscode.l10n.bundle`, and the `<html lang>` it writes. */
  l10n?: L10nBundle;
  lang?: string;
  hexEditor?: boolean;
  /** Rows of a table other than the default "key N" rows; undefined falls back to those. */
  rows?: (table: string, from: number, count: number) => RowDTO[] | undefined;
  /** What a finished count returns, instead of the bare row count. */
  counted?: CountResultDTO;
  /** What the `top` operation returns (the fresh top rows after a table's first page). */
  top?: TopDTO;
  /** The table the `table` operation returns for these parameter values, instead of the default. */
  table?: (table: string, params: Record<string, string | number | boolean>) => TableDTO | undefined;
}

async function openPage(browser: Browser, opened: OpenResultDTO, opts: PageOptions = {}): Promise<{ page: Page; host: FakeHost; violations: string[] }> {
  const init: HostNotice = { topic: 'init', payload: { ...opened, hexEditor: opts.hexEditor ?? false, l10n: opts.l10n } };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const answer = async (op: string, params: Record<string, any>, emit: (event: unknown) => Promise<void>) => {
    let result: unknown;
    if (op === 'children') result = (CHILDREN[params.node] ?? []).slice(params.from, params.from + params.count);
    else if (op === 'page' && opts.rows?.(params.table, params.from, params.count)) result = opts.rows(params.table, params.from, params.count);
    else if (op === 'page') {
      const rows: RowDTO[] = [];
      for (let i = params.from; i < Math.min(ROWS, params.from + params.count); i++)
        rows.push({ cells: [i, i === 3 ? XSS : `key ${i}`], range: { offset: i, length: 1 } });
      result = rows;
    } else if (op === 'bytes') result = { offset: params.offset, hex: '414243' };
    else if (op === 'top') result = opts.top;
    else if (op === 'panel') result = PANELS.find((p) => p.kind === params.panel);
    else if (op === 'search') {
      await emit([{ cells: [XSS] }, { cells: [{ text: XSS, title: XSS }] }]);
      result = { count: 2, note: XSS };
    } else if (op === 'count') {
      // Halfway, then done a moment later: long enough to see the progress and to page meanwhile.
      await emit({ done: 50, total: 100 });
      await new Promise((r) => setTimeout(r, 1500));
      result = opts.counted ?? { known: ROWS, complete: true };
    } else if (op === 'table' && opts.table?.(params.table, params.params)) result = opts.table(params.table, params.params);
    else if (op === 'table')
      result = {
        id: `keys?${params.params.view}`,
        title: 'Keys',
        columns: [
          { key: 'i', title: 'row' },
          { key: 'v', title: `shown as ${params.params.view}` },
        ],
        rowCount: { known: 3, complete: true },
        countable: false,
      };
    return result;
  };
  const { page, requests, notices, violations } = await openWebview(browser, init, answer, { bypassCSP: opts.bypassCSP, lang: opts.lang });
  return { page, host: { requests, notices }, violations };
}

describe('webview in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('renders summary, structure and a table, and keeps file strings as text', async () => {
    const { page, violations } = await openPage(browser, { kind: 'opened', doc: doc(XSS) });
    await page.locator('.badge').waitFor();
    expect(await page.locator('h1').textContent()).toBe(`title ${XSS}`);
    await page.locator('[role="treeitem"][aria-level="2"]').first().waitFor();
    expect(await page.locator('.tree-row .label').allTextContents()).toEqual([XSS, 'header', XSS]);
    await page.locator('[role="gridcell"]', { hasText: /^key 2$/ }).waitFor();
    expect(await page.locator('[role="row"][aria-rowindex="5"] [role="gridcell"]').nth(1).textContent()).toBe(XSS);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(violations).toEqual([]);
    await page.close();
  });

  it('renders every panel kind and search results with file strings as text, never markup', async () => {
    const { page, violations } = await openPage(browser, { kind: 'opened', doc: doc(XSS) });
    await page.locator('.badge').waitFor();
    for (const p of PANELS) {
      await page.locator('[role="tab"]', { hasText: `${p.kind} ` }).click();
      await page.locator('.panel-body:not([aria-busy])').waitFor();
      expect(await page.locator('.panel-body').textContent(), p.kind).toContain(XSS.slice(0, 12));
      expect(await page.locator('.panel-view label').first().textContent()).toContain(XSS);
    }
    await page.locator('[role="tab"]', { hasText: 'Search' }).click();
    await page.locator('.search-form button[type="submit"]').click();
    await page.locator('.search-results [role="gridcell"]').first().waitFor();
    expect(await page.locator('.search-results [role="gridcell"]').allTextContents()).toEqual([XSS, XSS]);
    expect(await page.locator('img, script:not([src])').count()).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(violations).toEqual([]);
    await page.close();
  });

  it('lines the header up with the rows although the titles use the UI font and the cells the editor font', async () => {
    const { page } = await openPage(browser, { kind: 'opened', doc: doc('keys') });
    await page.evaluate(() => {
      const root = document.documentElement.style;
      root.setProperty('--vscode-font-family', 'serif');
      root.setProperty('--vscode-editor-font-family', 'monospace');
      root.setProperty('--vscode-editor-font-size', '13px');
    });
    await page.locator('[role="gridcell"]', { hasText: /^key 0$/ }).waitFor();
    const edges = async (sel: string) =>
      page.locator(sel).evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => [Math.round(r.left), Math.round(r.right)]));
    const head = await edges('.vt-head [role="columnheader"]');
    const row = await edges('.vt-body [role="row"]:first-child [role="gridcell"]');
    expect(head).toHaveLength(2);
    expect(head).toEqual(row);
    await page.close();
  });

  it('pages a 5 000 000-row table: few rows in the DOM, a jump near the end fetches only that page', async () => {
    const { page, host } = await openPage(browser, { kind: 'opened', doc: doc('big') });
    const grid = page.locator('[role="grid"]');
    await page.locator('[role="gridcell"]', { hasText: /^key 0$/ }).waitFor();
    expect(await grid.getAttribute('aria-rowcount')).toBe(String(ROWS + 1));
    expect(await page.locator('.vt-body [role="row"]').count()).toBeLessThan(80);
    await page.fill('input.goto', '4999990');
    await page.press('input.goto', 'Enter');
    await page.locator('[role="gridcell"]', { hasText: /^key 4999990$/ }).waitFor();
    expect(await page.locator('.vt-row.active').getAttribute('aria-rowindex')).toBe('4999992');
    const pages = host.requests.filter((r) => r.op === 'page').map((r) => r.params.from as number);
    expect(pages.every((from) => from < 200 || from >= 4_999_800)).toBe(true);
    await page.keyboard.press('End');
    const last = page.locator('[role="gridcell"]', { hasText: new RegExp(`^key ${ROWS - 1}$`) });
    await last.waitFor();
    // A shorter table (the selected row's detail growing below it) keeps the active last row in
    // view and focused: at the end of a scaled table the old scroll position no longer reaches it.
    const size = page.viewportSize()!;
    await page.setViewportSize({ width: size.width, height: size.height - 60 });
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-rowindex'));
    await expect.poll(focused).toBe(String(ROWS + 1));
    // The same when a render is already due as the table gets shorter: that frame sees the new
    // height before the resize is observed.
    await page.evaluate(() => {
      const viewport = document.querySelector<HTMLElement>('.vt-viewport')!;
      viewport.dispatchEvent(new Event('scroll'));
      viewport.style.maxHeight = `${viewport.clientHeight - 60}px`;
    });
    await expect.poll(focused).toBe(String(ROWS + 1));
    // Scrolled away from the focused row and back, as by the mouse wheel: the row takes the focus back.
    await page.evaluate(() => (document.querySelector<HTMLElement>('.vt-viewport')!.scrollTop = 0));
    await page.locator('[role="gridcell"]', { hasText: /^key 0$/ }).waitFor();
    expect(await focused()).toBeNull();
    await page.evaluate(() => {
      const viewport = document.querySelector<HTMLElement>('.vt-viewport')!;
      viewport.scrollTop = viewport.scrollHeight;
    });
    await expect.poll(focused).toBe(String(ROWS + 1));
    const inView = () =>
      page.evaluate(() => {
        const row = document.activeElement!.getBoundingClientRect();
        const view = document.querySelector('.vt-viewport')!.getBoundingClientRect();
        return row.top >= view.top && row.bottom <= view.bottom;
      });
    expect(await inView()).toBe(true);
    await page.close();
  });

  it('asks for the pages of a new place at the scroll and draws them when they come, without waiting for an animation frame', async () => {
    // The host holds each answer until the test lets it go.
    const held: (() => void)[] = [];
    const release = () => held.splice(0).forEach((go) => go());
    const asked: number[] = [];
    const init: HostNotice = { topic: 'init', payload: { kind: 'opened', doc: doc('jump'), hexEditor: false } };
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const { page } = await openWebview(browser, init, async (op, params: Record<string, any>) => {
      if (op !== 'page') return undefined;
      asked.push(params.from as number);
      if (params.from > 0) await new Promise<void>((go) => held.push(go));
      return Array.from({ length: params.count as number }, (_, k) => ({ cells: [params.from + k, `key ${params.from + k}`] }));
    });
    await page.locator('[role="gridcell"]', { hasText: /^key 0$/ }).waitFor();
    // Frames stopped: callbacks wait in a queue, and go to the browser's frames when they start again.
    const frozen = () =>
      page.evaluate(() => {
        const w = window as unknown as { __raf?: typeof requestAnimationFrame; __queued: FrameRequestCallback[] };
        w.__raf ??= window.requestAnimationFrame.bind(window);
        w.__queued = [];
        window.requestAnimationFrame = (cb) => w.__queued.push(cb);
      });
    const thawed = () =>
      page.evaluate(() => {
        const w = window as unknown as { __raf: typeof requestAnimationFrame; __queued: FrameRequestCallback[] };
        window.requestAnimationFrame = w.__raf;
        for (const cb of w.__queued.splice(0)) w.__raf(cb);
      });
    const jump = () =>
      page.evaluate(
        () => (document.querySelector<HTMLElement>('.vt-viewport')!.scrollTop = document.querySelector<HTMLElement>('.vt-viewport')!.scrollHeight / 2),
      );
    // With no animation frame, the scroll alone asks for the page of the middle.
    await frozen();
    await jump();
    await expect.poll(() => asked.some((from) => from >= 2_400_000)).toBe(true);
    release();
    // A frame draws the place, its rows waiting; with frames stopped again, the rows come.
    await thawed();
    await page.evaluate(
      () => (document.querySelector<HTMLElement>('.vt-viewport')!.scrollTop = document.querySelector<HTMLElement>('.vt-viewport')!.scrollHeight * 0.75),
    );
    await page.locator('.vt-body [aria-busy="true"]').first().waitFor();
    await frozen();
    release();
    await expect.poll(() => page.locator('.vt-body [aria-busy="true"]').count()).toBe(0);
    expect(await page.locator('[role="gridcell"]', { hasText: /^key 37\d{5}$/ }).count()).toBeGreaterThan(0);
    await page.close();
  });

  it('asks for a place that spans two pages in one request, and draws the rows of both', async () => {
    const asked: { from: number; count: number }[] = [];
    const init: HostNotice = { topic: 'init', payload: { kind: 'opened', doc: doc('span'), hexEditor: false } };
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const { page } = await openWebview(browser, init, async (op, params: Record<string, any>) => {
      if (op !== 'page') return undefined;
      asked.push({ from: params.from, count: params.count });
      return Array.from({ length: params.count as number }, (_, k) => ({ cells: [params.from + k, `key ${params.from + k}`] }));
    });
    await page.locator('[role="gridcell"]', { hasText: /^key 0$/ }).waitFor();
    asked.length = 0;
    // Go to row brings the row to the middle of the view: the rows above it are another page's.
    await page.fill('input.goto', '2500100');
    await page.press('input.goto', 'Enter');
    await page.locator('[role="gridcell"]', { hasText: /^key 2500099$/ }).waitFor();
    await page.locator('[role="gridcell"]', { hasText: /^key 2500100$/ }).waitFor();
    expect(await page.locator('.vt-body [aria-busy="true"]').count()).toBe(0);
    expect(asked).toEqual([{ from: 2_500_000, count: 200 }]);
    await page.close();
  });

  it("marks the first screen once the table's rows on screen are filled, not at the tree (the scale test times it)", async () => {
    const held: (() => void)[] = [];
    const init: HostNotice = { topic: 'init', payload: { kind: 'opened', doc: doc('first'), hexEditor: false } };
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const { page } = await openWebview(browser, init, async (op, params: Record<string, any>) => {
      if (op === 'children') return [];
      if (op !== 'page') return undefined;
      await new Promise<void>((go) => held.push(go));
      return Array.from({ length: params.count as number }, (_, k) => ({ cells: [params.from + k, `key ${params.from + k}`] }));
    });
    const marks = () => page.evaluate((name) => performance.getEntriesByName(name).length, FIRST_SCREEN);
    await page.locator('[role="treeitem"]').first().waitFor();
    await expect.poll(() => held.length).toBeGreaterThan(0);
    expect(await marks()).toBe(0);
    held.splice(0).forEach((go) => go());
    await expect.poll(marks).toBe(1);
    await page.close();
  });

  it("shows a table's parameters as inputs and pages the table made for their values", async () => {
    const withParams = doc('params');
    const keys = {
      ...withParams.tables[0]!,
      params: [
        {
          key: 'view',
          label: 'View',
          type: 'choice' as const,
          default: 'a',
          choices: [
            { value: 'a', label: 'A' },
            { value: 'b', label: 'B' },
          ],
        },
      ],
    };
    const { page, host } = await openPage(browser, { kind: 'opened', doc: { ...withParams, tables: [keys] } });
    await page.locator('[role="gridcell"]', { hasText: /^key 0$/ }).waitFor();
    await page.locator('form.table-params select').selectOption('b');
    await page.locator('[role="columnheader"]', { hasText: 'shown as b' }).waitFor();
    expect(host.requests.find((r) => r.op === 'table')?.params).toEqual({ table: 'keys', params: { view: 'b' } });
    await page.locator('[role="gridcell"]', { hasText: /^key 2$/ }).waitFor();
    expect(host.requests.filter((r) => r.op === 'page').map((r) => r.params.table)).toContain('keys?b');
    await page.close();
  });

  it("shows a damaged cell as damaged in the theme's error colour, its reason in its accessible name; the show-anyway toggle shows the decoded value, labelled; a failed check offers Save Intact Part…", async () => {
    const reason = "BLAKE3 hash differs from the footer's";
    const chunks = (id: string, anyway: boolean): TableDTO => ({
      id,
      title: 'Chunks',
      columns: [
        { key: 'chunk', title: 'chunk', type: 'number' },
        { key: 'hash', title: 'hash', type: 'hex' },
      ],
      rowCount: { known: 3, complete: true },
      countable: false,
      params: anyway ? undefined : [SHOW_DAMAGED],
    });
    const rows = (table: string, from: number, count: number): RowDTO[] | undefined => {
      if (!table.startsWith('chunks')) return undefined;
      const anyway = table === 'chunks?anyway';
      return [0, 1, 2].slice(from, from + count).map((i) => rowDTO({ cells: [i, i === 1 ? damagedCell(reason, anyway ? 'ab12' : undefined) : `cafe0${i}`] }));
    };
    const base = doc('chunks');
    const warnings = [{ name: 'chunk 1 hash', status: 'fail' as const, detail: reason, offset: 17 }];
    const { page, host } = await openPage(
      browser,
      { kind: 'opened', doc: { ...base, warnings, tables: [chunks('chunks', false)] } },
      { rows, table: (_t, p) => (p.showDamaged ? chunks('chunks?anyway', true) : chunks('chunks', false)) },
    );
    await page.evaluate(() => document.documentElement.style.setProperty('--vscode-errorForeground', 'rgb(255, 0, 1)'));
    const damaged = page.locator('[role="gridcell"]', { hasText: /^damaged$/ });
    await damaged.waitFor();
    expect(await damaged.getAttribute('aria-label')).toBe(`damaged: ${reason}`);
    expect(await damaged.getAttribute('title')).toBe(reason);
    expect(await damaged.getAttribute('class')).toContain('mark-error');
    const colour = (l: typeof damaged) => l.evaluate((el) => getComputedStyle(el).color);
    expect(await colour(damaged)).toBe('rgb(255, 0, 1)');
    const intact = page.locator('[role="gridcell"]', { hasText: /^cafe00$/ });
    expect(await colour(intact)).not.toBe('rgb(255, 0, 1)');
    expect(await intact.getAttribute('aria-label')).toBeNull();
    // The boolean table parameter is a checkbox like any other; on, the table made for it shows the value, labelled.
    const toggle = page.getByRole('checkbox', { name: SHOW_DAMAGED.label });
    expect(await toggle.isChecked()).toBe(false);
    await toggle.check();
    const anyway = page.locator('[role="gridcell"]', { hasText: /^damaged: ab12$/ });
    await anyway.waitFor();
    expect(host.requests.find((r) => r.op === 'table')?.params).toEqual({ table: 'chunks', params: { showDamaged: true } });
    expect(await anyway.getAttribute('title')).toBe(`decoded anyway, although ${reason}`);
    expect(await anyway.getAttribute('aria-label')).toBe(`damaged: ab12: decoded anyway, although ${reason}`);
    expect(await colour(anyway)).toBe('rgb(255, 0, 1)');
    // A failed check puts Save Intact Part… beside Convert (documents without one keep three buttons, above).
    expect(await page.locator('.actions button').allTextContents()).toEqual(['Verify', 'Convert…', 'Save Intact Part…', 'Open as Text']);
    await page.getByRole('button', { name: 'Save Intact Part…' }).click();
    await expect.poll(() => host.notices).toEqual([{ topic: 'command', payload: { command: 'saveIntact' } }]);
    await page.close();
  });

  it('is keyboard navigable: tree arrows expand lazily, grid rows take the focus, selection shows bytes', async () => {
    const { page, host } = await openPage(browser, { kind: 'opened', doc: doc('keys') });
    const items = page.locator('[role="treeitem"]');
    await items.nth(1).waitFor();
    await items.first().focus();
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.querySelector('.label')?.textContent)).toBe('header');
    await page.keyboard.press('ArrowRight');
    await page.locator('[role="treeitem"][aria-level="3"]').waitFor();
    expect(await items.nth(1).getAttribute('aria-expanded')).toBe('true');
    expect(host.requests.some((r) => r.op === 'children' && r.params.node === 'header')).toBe(true);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.locator('pre.bytes', { hasText: 'ABC' }).waitFor();
    expect(await page.locator('.bytes-title').textContent()).toContain('version: 8 bytes at 0x0');
    await page.locator('[role="gridcell"]', { hasText: /^key 0$/ }).waitFor();
    await page.locator('.vt-row[tabindex="0"]').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-rowindex'))).toBe('4');
    const tabs = page.locator('[role="tab"]');
    expect(await tabs.allTextContents()).toEqual(['Summary', 'Keys', ...PANELS.map((p) => `${p.kind} keys`), 'Search']);
    await page.close();
  });

  it("draws a bar chart's bars inside its axis, one per slot, each centred over the tick that names its x", async () => {
    const { page } = await openPage(browser, { kind: 'opened', doc: doc('keys') });
    await page.getByRole('tab', { name: 'chart keys' }).click();
    await page.locator('svg.chart rect').first().waitFor();
    const layout = await page.locator('svg.chart').evaluate((svg) => {
      const n = (el: Element, a: string) => Number(el.getAttribute(a));
      const axis = svg.querySelector('line.axis')!;
      return {
        axis: [n(axis, 'x1'), n(axis, 'x2')],
        bars: [...svg.querySelectorAll('rect')].map((r) => [n(r, 'x'), n(r, 'x') + n(r, 'width')]),
        ticks: [...svg.querySelectorAll('text.tick')].map((t) => [t.textContent, n(t, 'x')]),
      };
    });
    // The payload's bars are x = 1 and x = 2 (PANELS): two slots splitting the axis in halves.
    const [left, right] = layout.axis as [number, number];
    const half = (right - left) / 2;
    expect(layout.ticks).toEqual([
      ['1', left + half / 2],
      ['2', left + half + half / 2],
    ]);
    expect(layout.bars).toHaveLength(2);
    layout.bars.forEach(([from, to], k) => {
      expect(from).toBeGreaterThanOrEqual(left + k * half);
      expect(to).toBeLessThanOrEqual(left + (k + 1) * half);
      expect((from! + to!) / 2).toBeCloseTo(layout.ticks[k]![1] as number, 6);
    });
    await page.close();
  });

  it('the bytes pane names the row that is selected, however it got selected: a key to a row not yet fetched, Go to row, the row that has the tab stop', async () => {
    // Row i of the fake host covers byte i, so the title's offset checks the row as well as its label.
    const { page } = await openPage(browser, { kind: 'opened', doc: doc('keys') });
    const title = () => page.locator('.bytes-title').textContent();
    const active = () => page.locator('.vt-row.active').getAttribute('aria-rowindex');
    await page.locator('[role="gridcell"]', { hasText: /^key 0$/ }).waitFor();
    await page.locator('.vt-row[tabindex="0"]').focus();
    await page.keyboard.press('Enter');
    await expect.poll(title).toBe('Keys row 0: 1 bytes at 0x0 (0)');
    // End moves to a row whose page is fetched after the key: the pane follows once it arrives.
    await page.keyboard.press('End');
    await expect.poll(active).toBe(String(ROWS + 1));
    await expect.poll(title).toBe(`Keys row ${ROWS - 1}: 1 bytes at 0x${(ROWS - 1).toString(16)} (${ROWS - 1})`);
    await page.fill('input.goto', '1234');
    await page.press('input.goto', 'Enter');
    await expect.poll(active).toBe('1236');
    await expect.poll(title).toBe('Keys row 1234: 1 bytes at 0x4d2 (1234)');
    // Scrolled away from the active row (the wheel moves no selection), the tab stop is a row in
    // view: Enter there selects that row, and arrows move from it.
    await page.evaluate(() => (document.querySelector<HTMLElement>('.vt-viewport')!.scrollTop = 0));
    await page.locator('[role="gridcell"]', { hasText: /^key 0$/ }).waitFor();
    await page.locator('.vt-row[tabindex="0"]').focus();
    const focused = await page.evaluate(() => Number(document.activeElement?.getAttribute('aria-rowindex')) - 2);
    await page.keyboard.press('Enter');
    await expect.poll(title).toBe(`Keys row ${focused}: 1 bytes at 0x${focused.toString(16)} (${focused})`);
    await page.keyboard.press('ArrowDown');
    await expect.poll(title).toBe(`Keys row ${focused + 1}: 1 bytes at 0x${(focused + 1).toString(16)} (${focused + 1})`);
    await page.close();
  });

  it('has no serious accessibility violations (axe-core, WCAG 2.1 AA) in the document and the unrecognised views', async () => {
    for (const opened of [
      { kind: 'opened', doc: doc('keys') } as const,
      { kind: 'unrecognised', fileName: 'x.fst', size: 3, reason: 'no', head: '000102' } as const,
    ]) {
      const { page } = await openPage(browser, opened, { bypassCSP: true });
      await page
        .locator(opened.kind === 'opened' ? '[role="gridcell"]' : '.unrecognised')
        .first()
        .waitFor();
      expect(await seriousViolations(page), JSON.stringify(await seriousViolations(page), null, 1)).toEqual([]);
      await page.close();
    }
  });

  it('shows "Not a Binlens format" with the reader\'s reason and the first bytes', async () => {
    const { page } = await openPage(browser, {
      kind: 'unrecognised',
      fileName: 'model.fst',
      size: 60,
      reason: `not a readable FST: ${XSS}`,
      head: '4f70656e467374',
    });
    await page.locator('.unrecognised').waitFor();
    expect(await page.locator('.unrecognised h1').textContent()).toBe('Not a Binlens format');
    expect(await page.locator('.unrecognised p').textContent()).toContain(XSS);
    expect(await page.locator('.unrecognised pre').textContent()).toContain('OpenFst');
    expect(await page.locator('img').count()).toBe(0);
    await page.close();
  });

  it("shows the host's translations: every UI string, label, aria-label and tooltip, never a file's string", async () => {
    const { page } = await openPage(browser, { kind: 'opened', doc: doc('keys') }, { l10n: PSEUDO });
    await page.locator('[role="gridcell"]', { hasText: /^key 0$/ }).waitFor();
    expect(await page.locator('.actions button').allTextContents()).toEqual(['⟦Verify⟧', '⟦Convert…⟧', '⟦Open as Text⟧']);
    expect(await page.locator('.actions button').first().getAttribute('title')).toBe('⟦Check every checksum and structure rule of this file⟧');
    expect(await page.locator('nav.structure').getAttribute('aria-label')).toBe('⟦Structure⟧');
    expect(await page.locator('[role="tree"]').getAttribute('aria-label')).toBe('⟦Structure⟧');
    expect(await page.locator('[role="tablist"]').getAttribute('aria-label')).toBe('⟦Views⟧');
    // Tab titles from the file stay as they are; the Binlens ones are translated.
    expect(await page.locator('[role="tab"]').allTextContents()).toEqual(['⟦Summary⟧', 'Keys', ...PANELS.map((p) => `${p.kind} keys`), '⟦Search⟧']);
    expect(await page.locator('input.goto').getAttribute('aria-label')).toBe('⟦Go to row⟧');
    expect(await page.locator('input.goto').getAttribute('placeholder')).toBe('⟦row #⟧');
    // Placeholders are filled in the translated text.
    expect(await page.locator('.row-count').textContent()).toBe('⟦5,000,000 rows⟧');
    expect(await page.locator('.file').textContent()).toBe('keys.fst · ⟦54 B⟧');
    await page.locator('.tree-row', { hasText: 'header' }).click();
    await page.locator('.bytes-title', { hasText: '⟦header: 16 bytes at 0x0 (0)⟧' }).waitFor();

    // Every state of the page: what is left after removing translated text and the file's strings has no words.
    const texts = [...(await uiTexts(page))];
    await page.locator('[role="tab"]', { hasText: '⟦Summary⟧' }).click();
    await page.locator('.summary-view').waitFor();
    expect(await page.locator('.summary-view dt button').getAttribute('title')).toBe('⟦bytes 0+8⟧');
    texts.push(...(await uiTexts(page)));
    for (const p of PANELS) {
      await page.locator('[role="tab"]', { hasText: `${p.kind} ` }).click();
      await page.locator('.panel-body:not([aria-busy])').waitFor();
      texts.push(...(await uiTexts(page)));
      if (p.kind === 'automaton') {
        expect(await page.locator('.automaton-tools button').allTextContents()).toEqual(['+', '−', '⟦Fit⟧']);
        // Its look comes from style.css (no inline styles): an edge on the path is drawn bold and
        // unfilled, the final state has its inner ring, the selected one the selection colour.
        const style = (sel: string, prop: string) =>
          page
            .locator(sel)
            .first()
            .evaluate((e, p) => getComputedStyle(e).getPropertyValue(p), prop);
        expect(await style('svg.automaton .edge.on-path', 'fill')).toBe('none');
        expect(await style('svg.automaton .edge.on-path', 'stroke-width')).toBe('2.5px');
        expect(await style('svg.automaton .final-ring', 'fill')).toBe('none');
        expect(await style('svg.automaton .state.selected .ring', 'stroke-width')).toBe('2px');
      }
      if (p.kind === 'bars') {
        expect(
          await page
            .locator('svg.chart rect.has-inner')
            .first()
            .evaluate((e) => getComputedStyle(e).fillOpacity),
        ).toBe('0.35');
        // A legend entry's label sits beside its swatch, not under it, however narrow the panel.
        await page.setViewportSize({ width: 320, height: 800 });
        const lines = await page
          .locator('.legend li')
          .first()
          .evaluate((li) => {
            const swatch = li.querySelector('.swatch')!.getBoundingClientRect();
            const text = document.createRange();
            text.selectNodeContents(li.lastChild!);
            return [...text.getClientRects()].map((r) => r.left - swatch.right);
          });
        expect(lines.length).toBeGreaterThan(0);
        for (const gap of lines) expect(gap).toBeGreaterThanOrEqual(0);
        await page.setViewportSize({ width: 1200, height: 800 });
      }
    }
    await page.locator('[role="tab"]', { hasText: '⟦Search⟧' }).click();
    await page.locator('.search-form button[type="submit"]').click();
    await page.locator('.search-results [role="gridcell"]').first().waitFor();
    await page.locator('.search-form .row-count', { hasText: '⟦2 results (' }).waitFor();
    texts.push(...(await uiTexts(page)));
    expect(untranslated(texts, FILE_STRINGS)).toEqual([]);
    await page.close();

    // The check has teeth: the same page in English leaves Binlens's own words.
    const english = await openPage(browser, { kind: 'opened', doc: doc('keys') });
    await english.page.locator('[role="gridcell"]', { hasText: /^key 0$/ }).waitFor();
    const left = untranslated(await uiTexts(english.page), FILE_STRINGS);
    expect(left).toEqual(expect.arrayContaining(['Verify', 'Structure', '5,000,000 rows', 'Go to row']));
    await english.page.close();
  });

  it('translates the "Not a Binlens format" page and keeps the reader\'s reason as it is', async () => {
    const opened = { kind: 'unrecognised', fileName: 'model.fst', size: 2048, reason: `not a readable FST: ${XSS}`, head: '4f70656e467374' } as const;
    const { page } = await openPage(browser, opened, { l10n: PSEUDO, hexEditor: true });
    await page.locator('.unrecognised').waitFor();
    expect(await page.locator('.unrecognised h1').textContent()).toBe('⟦Not a Binlens format⟧');
    expect(await page.locator('.unrecognised p').textContent()).toBe(`model.fst (⟦2.00 KiB⟧): not a readable FST: ${XSS}`);
    expect(await page.locator('.unrecognised button').allTextContents()).toEqual(['⟦Reopen with Text Editor⟧', '⟦Reopen with Hex Editor⟧']);
    expect(await page.locator('.unrecognised pre').getAttribute('aria-label')).toBe('⟦first bytes of the file⟧');
    expect(untranslated(await uiTexts(page), [opened.fileName, opened.reason])).toEqual([]);
    await page.close();
  });

  it('counts a table that needs a scan in the background, shows the progress and pages meanwhile', async () => {
    const base = doc('keys');
    // Nothing counted at open, as for a BEN stream without an index: the first rows must not wait for the count.
    const scanning = { ...base, tables: [{ ...base.tables[0]!, rowCount: { known: 0, complete: false }, countable: true }] };
    const { page, host } = await openPage(browser, { kind: 'opened', doc: scanning });
    await page.locator('[role="gridcell"]', { hasText: /^key 0$/ }).waitFor();
    const counter = page.locator('.row-count', { hasText: /^≥ [1-9][\d,]* rows so far \(counting: 50 %\)$/ });
    await counter.waitFor();
    expect(await page.locator('[role="grid"]').getAttribute('aria-rowcount')).toBe('-1');
    expect(await page.getByRole('button', { name: 'Count all' }).isHidden()).toBe(true);
    await page.locator('.row-count', { hasText: /^5,000,000 rows$/ }).waitFor();
    expect(await page.locator('[role="grid"]').getAttribute('aria-rowcount')).toBe(String(ROWS + 1));
    // Coming back to the tab does not count again.
    await page.getByRole('tab', { name: 'Summary' }).click();
    await page.getByRole('tab', { name: 'Keys', exact: true }).click();
    await page.locator('.row-count', { hasText: /^5,000,000 rows$/ }).waitFor();
    expect(host.requests.filter((r) => r.op === 'count')).toHaveLength(1);
    await page.close();
  });

  it('a finished count shows the settled counts in the summary and the structure tree, keeping what is expanded', async () => {
    const base = doc('keys');
    const scanning = {
      ...base,
      summary: [{ name: 'samples', value: '≥ 0' }],
      tables: [{ ...base.tables[0]!, rowCount: { known: 0, complete: false }, countable: true }],
    };
    const counted: CountResultDTO = {
      known: ROWS,
      complete: true,
      summary: [{ name: 'samples', value: '5,000,000' }],
      top: {
        root: { id: 'r2', label: 'keys', value: 'keys', childCount: 2 },
        children: [
          { id: 'h2', label: 'header', value: '16 bytes', childCount: 1 },
          { id: 'f2', label: XSS, value: '1,234 frames', range: { offset: 16, length: 38 }, childCount: null },
        ],
      },
    };
    const { page } = await openPage(browser, { kind: 'opened', doc: scanning }, { counted });
    await page.locator('.tree-row', { hasText: 'header' }).click();
    await page.locator('.tree-row', { hasText: 'version' }).waitFor();
    await page.locator('.row-count', { hasText: /^5,000,000 rows$/ }).waitFor();
    await page.locator('.tree-row', { hasText: '1,234 frames' }).waitFor();
    // The old note and mark went with the old value; the expanded header still shows its child.
    const frames = page.locator('.tree-row', { hasText: '1,234 frames' });
    expect(await frames.locator('.note').count()).toBe(0);
    expect(await frames.textContent()).toBe(`${XSS} = 1,234 frames  @10 +38`);
    expect(await page.locator('.tree-row', { hasText: 'header' }).first().textContent()).toBe('header = 16 bytes  @0 +16');
    expect(await page.locator('.tree-row', { hasText: 'version' }).isVisible()).toBe(true);
    await page.getByRole('tab', { name: 'Summary' }).click();
    expect(await page.locator('.summary-view dd').first().textContent()).toBe('5,000,000');
    await page.close();
  });

  it("after a table's first page the tree marks, in place and once, the node a check found damaged", async () => {
    // As an fst whose CRC fails: the keys table's first page ran the check; the header row now says so.
    const top: TopDTO = {
      root: { id: 'r2', label: 'keys', value: 'keys', childCount: 2 },
      children: [
        { id: 'h2', label: 'header', value: '16 bytes', mark: 'error', note: 'CRC-32C fails: stored 0x308afb0f, computed 0xb08afb0f', childCount: 1 },
        { id: 'f2', label: XSS, value: XSS, range: { offset: 16, length: 38 }, childCount: null },
      ],
    };
    const { page, host } = await openPage(browser, { kind: 'opened', doc: doc('keys') }, { top });
    const header = page.locator('[role="treeitem"][aria-level="2"]', { has: page.locator('.tree-row > .label', { hasText: /^header$/ }) });
    await header.locator('.tree-row').first().click();
    await page.locator('.tree-row', { hasText: 'version' }).waitFor();
    await page.locator('[role="gridcell"]', { hasText: /^key 2$/ }).waitFor();
    await page.locator('[aria-level="2"].tree-item.mark-error', { has: page.locator('.tree-row > .label', { hasText: /^header$/ }) }).waitFor();
    expect(await header.locator('.tree-row > .note').first().textContent()).toContain('CRC-32C fails: stored 0x308afb0f, computed 0xb08afb0f');
    // In place: the expanded header still shows its child; one request however many pages were read.
    expect(await page.locator('.tree-row', { hasText: 'version' }).isVisible()).toBe(true);
    await page.getByLabel('Go to row').fill('100000');
    await page.getByLabel('Go to row').press('Enter');
    await expect.poll(() => host.requests.some((r) => r.op === 'page' && (r.params.from as number) > 0)).toBe(true);
    expect(host.requests.filter((r) => r.op === 'top')).toHaveLength(1);
    await page.close();
  });

  it('indexes a table whose count is known in the background, showing the progress beside the count', async () => {
    const base = doc('keys');
    // An fst's keys: the footer gives the count, the walk leaves a checkpoint every 1024 rows.
    const indexing = { ...base, tables: [{ ...base.tables[0]!, countable: true }] };
    const { page, host } = await openPage(browser, { kind: 'opened', doc: indexing });
    await page.locator('[role="gridcell"]', { hasText: /^key 0$/ }).waitFor();
    await page.locator('.row-count', { hasText: /^5,000,000 rows \(indexing: 50 %\)$/ }).waitFor();
    expect(await page.locator('[role="grid"]').getAttribute('aria-rowcount')).toBe(String(ROWS + 1));
    await page.locator('.row-count', { hasText: /^5,000,000 rows$/ }).waitFor();
    expect(host.requests.filter((r) => r.op === 'count')).toHaveLength(1);
    await page.close();
  });

  it('shows a partial German bundle: translated strings, English for the rest, German digit grouping', async () => {
    const { page } = await openPage(browser, { kind: 'opened', doc: doc('keys') }, { l10n: GERMAN, lang: 'de' });
    await page.locator('[role="gridcell"]', { hasText: /^key 0$/ }).waitFor();
    expect(await page.locator('.actions button').allTextContents()).toEqual(['Prüfen', 'Convert…', 'Open as Text']);
    expect(await page.locator('[role="tab"]').first().textContent()).toBe('Übersicht');
    expect(await page.locator('[role="tab"]').last().textContent()).toBe('Search');
    expect(await page.locator('.row-count').textContent()).toBe('5.000.000 Zeilen');
    expect(await page.locator('input.goto').getAttribute('aria-label')).toBe('Gehe zu Zeile');
    expect(await page.locator('input.goto').getAttribute('placeholder')).toBe('Zeile Nr.');
    expect(await page.locator('nav.structure').getAttribute('aria-label')).toBe('Struktur');
    await page.locator('.tree-row', { hasText: 'header' }).click();
    await page.locator('.bytes-title', { hasText: 'header: 16 Bytes ab 0x0 (0)' }).waitFor();
    await page.close();
  });
});

/**
 * The exported bundle pseudo-translated: each English string shown as ⟦English⟧, keyed as a
 * translated bundle.l10n.<language>.json is (a string per key, comment keys included).
 */
const PSEUDO: L10nBundle = Object.fromEntries(
  Object.entries(JSON.parse(readFileSync(resolve(__dirname, '../../l10n/bundle.l10n.json'), 'utf8')) as Record<string, string | { message: string }>).map(
    ([key, v]) => [key, `⟦${typeof v === 'string' ? v : v.message}⟧`],
  ),
);

/** A few strings, as a partial translation would have them. */
const GERMAN: L10nBundle = {
  Verify: 'Prüfen',
  Summary: 'Übersicht',
  Structure: 'Struktur',
  '{0} rows': '{0} Zeilen',
  'Go to row': 'Gehe zu Zeile',
  'row #': 'Zeile Nr.',
  '{0}: {1} bytes at {2} ({3})': '{0}: {1} Bytes ab {2} ({3})',
};

/**
 * The strings the fake host sends that came from a "file" (the DTOs above), less ids and enum
 * values ('text', 'error'…) that would hide an untranslated UI word of the same spelling.
 */
const FILE_STRINGS: string[] = (() => {
  const out = new Set<string>();
  const codes = new Set(['id', 'kind', 'type', 'mark', 'status', 'language', 'chart', 'mode', 'key', 'selectParam', 'param']);
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.add(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) if (!codes.has(k)) walk(x);
  };
  walk([doc('keys'), PANELS, CHILDREN, XSS]);
  return [...out];
})();

/** The texts a user sees or hears: text nodes (not the hex dumps) and aria-label, title and placeholder attributes. */
function uiTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const root = document.getElementById('app')!;
    const out: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) if (!n.parentElement?.closest('pre.bytes') && n.textContent?.trim()) out.push(n.textContent);
    for (const el of root.querySelectorAll('*')) {
      for (const a of ['aria-label', 'title', 'placeholder']) {
        const v = el.getAttribute(a);
        if (v) out.push(v);
      }
    }
    return out;
  });
}

/** The texts that still hold a word once translated segments, file strings (and their clipped forms), row keys and offsets are removed. */
function untranslated(texts: readonly string[], fileStrings: readonly string[]): string[] {
  const files = [...new Set(fileStrings.flatMap((f) => [f, f.slice(0, 13)]))].filter((f) => f.length > 2).sort((a, b) => b.length - a.length);
  const left = new Set<string>();
  for (const text of texts) {
    let s = text;
    // Innermost first: a translation can wrap another ("⟦⟦state 1⟧, final⟧").
    for (let prev = ''; prev !== s; ) ((prev = s), (s = s.replace(/⟦[^⟦⟧]*⟧/g, ' ')));
    s = s
      .replace(/\bkey \d+\b/g, ' ')
      .replace(/\b0x[0-9a-f]+\b/g, ' ')
      .replace(/@[0-9a-f]+\b/g, ' ');
    // As whole words: the file's column "row" must not hide the UI's "rows".
    for (const f of files) s = s.replace(new RegExp(`(?<![A-Za-z])${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z])`, 'g'), ' ');
    if (/[A-Za-z]{2,}/.test(s)) left.add(text);
  }
  return [...left];
}
