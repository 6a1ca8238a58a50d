import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { Locator, Page } from 'playwright-core';
import { graphPrecincts } from '../../src/core/formats/ben/geo/geometry.js';
import { planMapData } from '../../src/core/formats/ben/geo/planMap.js';
import { planChanges } from '../../src/core/formats/ben/planChanges.js';
import { gridGeoGraph } from '../../src/core/formats/ben/geo/testing.js';
import { parseGraphJson } from '../../src/core/formats/ben/stats/graph.js';
import type { PlanMapData } from '../../src/core/views.js';
import type { DocDTO, PlanPanelData } from '../../src/protocol/protocol.js';
import { launchBrowser } from '../../test/helpers/browser.js';
import type { BenchCase, BenchResult } from '../types.js';

/**
 * The plan on its precinct map at 150 000 precincts (issue 20: ≥ 30 frames per second while panning
 * and playing). A 388 × 388 grid of squares in 18 column districts, drawn by the built webview
 * (dist/webview.js) in headless Chromium under its CSP, the test playing the host as
 * test/webview/harness.ts does. Frames are counted by requestAnimationFrame, so a frame is only
 * done when the page could paint again: pan frames at the whole map and zoomed in 8×; play frames
 * are steps of the chain (each moves 40 precincts across district lines), timed from the click on
 * Next to the repaint, host round trip included; a step carries only its change (PLAN_MAP_WHOLE=1:
 * the whole plan, for comparison).
 */
const SIDE = Number(process.env.PLAN_MAP_SIDE ?? 388);
const DISTRICTS = 18;
const STEPS = 30;
const PAN_FRAMES = 60;
const MOVED = 40;
const ZOOM_PRESSES = 12;
const DIST = resolve('dist');
/** PLAN_MAP_WHOLE=1: every step sends the whole plan, as before the steps carried only their change. */
const WHOLE = process.env.PLAN_MAP_WHOLE === '1';

function plans(): number[][] {
  const base = Array.from({ length: SIDE * SIDE }, (_, i) => Math.floor(((i % SIDE) * DISTRICTS) / SIDE) + 1);
  const out = [base];
  let seed = 7;
  const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % 1_000_000) / 1_000_000;
  for (let s = 1; s <= STEPS; s++) {
    const next = out[s - 1]!.slice();
    // A precinct on a district line takes its left neighbour's district: what a chain step does.
    for (let m = 0; m < MOVED; m++) {
      const y = Math.floor(rand() * SIDE);
      const line = Math.ceil((Math.floor(rand() * (DISTRICTS - 1)) + 1) * (SIDE / DISTRICTS));
      next[y * SIDE + line] = next[y * SIDE + line - 1]!;
    }
    out.push(next);
  }
  return out;
}

const DOC: DocDTO = {
  fileName: 'grid150k.bendl',
  size: 1,
  format: 'ben',
  formatLabel: 'BENDL',
  title: 'BEN chain',
  summary: [],
  warnings: [],
  root: { id: 'root', label: 'grid150k.bendl', childCount: 0 },
  tables: [],
  panels: [{ id: 'plan', title: 'Plan', kind: 'plan', params: [{ key: 'sample', label: 'Sample', type: 'number', min: 1, default: 1 }] }],
  searches: [],
  converters: [],
};

/** What the page functions use of the browser's globals (this file is type-checked without the DOM library). */
interface PageGlobals {
  postMessage(message: unknown, origin: string): void;
  requestAnimationFrame(f: (t: number) => void): number;
  KeyboardEvent: new (type: string, init: { key: string; bubbles: boolean }) => Event;
  atob(base64: string): string;
  Int32Array: Int32ArrayConstructor;
  Uint32Array: Uint32ArrayConstructor;
  document: {
    querySelector(selector: string): { getAttribute(name: string): string | null } | null;
    querySelectorAll(selector: string): Iterable<{ click(): void }>;
  };
}

/** The key that stands for a typed array in the JSON text the bench posts. */
const TYPED = '$typedArray';

const PAGE = `<!DOCTYPE html><html lang="en"><head><title>Binlens</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src http://binlens.test; script-src 'nonce-n0nce'; img-src http://binlens.test data:">
<link rel="stylesheet" href="/webview.css"></head><body><div id="app"></div>
<script nonce="n0nce">window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__toHost(m), getState: () => undefined, setState: () => {} });</script>
<script nonce="n0nce" src="/webview.js"></script></body></html>`;

type Frames = { full: number; partial: number; fullMs: number; partialMs: number; scanMs: number };
type HostMessage = { kind: string; topic?: string; op?: string; id?: number; params?: { params?: Record<string, unknown> } };

/**
 * Posts as the host does. As JSON text: Playwright serialises an object argument value by value, minutes
 * for the map's lists. Typed arrays go beside it as base64 (Playwright's own typed-array encoding takes
 * seconds in Node for 10 MB) and are put back in place, as VS Code's webview.postMessage does. With a
 * map, the page times the message itself (`inPage`): posted → the map's first frame painted, which is
 * what the page costs; the rest of the first map's time is this stand-in host's transport.
 */
function poster(page: Page, inPage: number[]) {
  return async (m: unknown, withMap = false) => {
    const typed: [string, string][] = [];
    const text = JSON.stringify(m, (_k, v: unknown) =>
      ArrayBuffer.isView(v) ? { [TYPED]: typed.push([v.constructor.name, Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64')]) - 1 } : v,
    );
    const pageMs = await page.evaluate(
      async ([t, typed, key, timed]) => {
        const w = globalThis as unknown as PageGlobals;
        const message = JSON.parse(t) as unknown;
        const arrays = typed.map(([kind, b64]) => {
          const text = w.atob(b64);
          const bytes = new Uint8Array(text.length);
          for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
          return new w[kind as 'Int32Array' | 'Uint32Array'](bytes.buffer);
        });
        const restore = (v: unknown): unknown => {
          if (v === null || typeof v !== 'object') return v;
          if (key in v) return arrays[(v as Record<string, number>)[key]!];
          // Lists by index: Object.keys of the 150 000 node ids would make as many strings.
          const o = v as Record<string | number, unknown>;
          const keys = Array.isArray(v) ? v.keys() : Object.keys(o);
          for (const k of keys) if (o[k] !== null && typeof o[k] === 'object') o[k] = restore(o[k]);
          return v;
        };
        const t0 = performance.now();
        w.postMessage(restore(message), '*');
        if (!timed) return 0;
        const raf = () => new Promise((r) => w.requestAnimationFrame(r));
        while (!w.document.querySelector('canvas.precinct-map')) await raf();
        await raf();
        return performance.now() - t0;
      },
      [text, typed, TYPED, withMap] as const,
    );
    if (withMap) inPage.push(pageMs);
  };
}

/** The engine's answer for sample k (ben/panels.ts): only the change when the page holds a plan of the chain, the map until it holds that. */
function answer(chain: number[][], map: PlanMapData, p: Record<string, unknown>): PlanPanelData {
  const k = Number(p.sample ?? 1);
  const held = Number(p.planHeld ?? 0);
  const changes = WHOLE || !(held >= 1 && held <= chain.length) ? undefined : planChanges(chain[held - 1]!, chain[k - 1]!, held, chain[k - 1]!.length / 3);
  return {
    kind: 'plan',
    caption: `sample ${k}`,
    mode: 'district',
    values: changes ? [] : chain[k - 1]!,
    changes,
    stripLabel: 'strip',
    step: { param: 'sample', value: k, min: 1, max: chain.length },
    mapKey: map.key,
    ...(p.mapHeld === map.key ? {} : { map }),
  };
}

/** PLAN_MAP_PROFILE=prefix: Chromium's CPU profile of a phase, written to prefix-NAME.cpuprofile. */
async function profiler(page: Page) {
  const cdp = process.env.PLAN_MAP_PROFILE ? await page.context().newCDPSession(page) : undefined;
  return async <T>(name: string, f: () => Promise<T>): Promise<T> => {
    if (!cdp) return f();
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    const r = await f();
    const { profile } = await cdp.send('Profiler.stop');
    writeFileSync(`${process.env.PLAN_MAP_PROFILE}-${name}.cpuprofile`, JSON.stringify(profile));
    return r;
  };
}

/**
 * Pan: one arrow key per frame, the next only once the page painted (two rAFs: the draw's, then ours).
 * Each frame's JS (the canvas's fullMs grows by it) is kept too: its median holds still under load, the mean does not.
 */
function pan(canvas: Locator, n: number): Promise<{ ms: number; median: number }> {
  return canvas.evaluate(async (c, count: number) => {
    const w = globalThis as unknown as PageGlobals;
    const raf = () => new Promise((r) => w.requestAnimationFrame(r));
    const drawn = () => (JSON.parse(c.getAttribute('data-frames')!) as { fullMs: number }).fullMs;
    await raf();
    const t0 = performance.now();
    const each: number[] = [];
    for (let i = 0; i < count; i++) {
      const before = drawn();
      c.dispatchEvent(new w.KeyboardEvent('keydown', { key: i % 20 < 10 ? 'ArrowRight' : 'ArrowLeft', bubbles: true }));
      await raf();
      each.push(drawn() - before);
    }
    return { ms: performance.now() - t0, median: each.sort((x, y) => x - y)[count >> 1]! };
  }, n);
}

/**
 * Play: Next, then wait for the repaint it causes, in the page: Playwright's click and polls took
 * ~60 ms a step of their own, more than the step. The host's answer still crosses to Node and back.
 */
function play(page: Page, steps: number): Promise<number> {
  return page.evaluate(async (count: number) => {
    const w = globalThis as unknown as PageGlobals;
    const raf = () => new Promise((r) => w.requestAnimationFrame(r));
    const painted = () => {
      const f = JSON.parse(w.document.querySelector('canvas.precinct-map')!.getAttribute('data-frames')!) as { full: number; partial: number };
      return f.full + f.partial;
    };
    const t0 = performance.now();
    for (let s = 0; s < count; s++) {
      const want = painted() + 1;
      const next = [...w.document.querySelectorAll('.plan-steps button')].at(-1)!;
      next.click();
      while (painted() < want) await raf();
    }
    return performance.now() - t0;
  }, steps);
}

/** BENCH_DEBUG: a hash of the pixels after each phase, so a change to the drawing code can show it draws the same map. */
async function pixels(canvas: Locator, phase: string): Promise<void> {
  if (!process.env.BENCH_DEBUG) return;
  const hash = await canvas.evaluate(
    (c: { getContext(k: '2d'): { getImageData(...a: number[]): { data: Uint8ClampedArray } } | null; width: number; height: number }) => {
      const d = new Uint32Array(c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data.buffer);
      let h = 0x811c9dc5;
      for (let i = 0; i < d.length; i++) h = Math.imul(h ^ d[i]!, 16777619) >>> 0;
      return h.toString(16);
    },
  );
  process.stderr.write(`pixels after ${phase}: ${hash}\n`);
}

interface Measured {
  readonly firstMs: number;
  readonly firstInPage: readonly number[];
  readonly panWhole: { ms: number; median: number };
  readonly panZoomed: { ms: number; median: number };
  readonly playMs: number;
  /** The canvas's frame counters before the whole-map pan, after it, before the zoomed pan, after it and after play. */
  readonly f: readonly Frames[];
}

function resultTable({ firstMs, firstInPage, panWhole, panZoomed, playMs, f }: Measured): string {
  const fps = (frames: number, ms: number) => ((1000 * frames) / ms).toFixed(1);
  const drawMs = (a: Frames, b: Frames) =>
    `${((b.fullMs - a.fullMs) / Math.max(1, b.full - a.full)).toFixed(1)} (scan ${((b.scanMs - a.scanMs) / Math.max(1, b.full - a.full)).toFixed(1)})`;
  const [f0, f1, f2, f3, f4] = f as [Frames, Frames, Frames, Frames, Frames];
  return [
    '| plan map, 150 544 precincts | frames | frames/s | JS per frame: mean (scan), median |',
    '|---|---:|---:|---:|',
    `| first map (tab click → canvas) | 1 | — | ${firstMs} ms to the first frame, ${firstInPage.map((ms) => ms.toFixed(0)).join(', ')} ms of it in the page (posted → painted) |`,
    `| pan, whole map in view | ${PAN_FRAMES} | ${fps(PAN_FRAMES, panWhole.ms)} | ${drawMs(f0, f1)}, ${panWhole.median.toFixed(1)} ms |`,
    `| pan, zoomed in ${(1.2 ** ZOOM_PRESSES).toFixed(1)}× | ${PAN_FRAMES} | ${fps(PAN_FRAMES, panZoomed.ms)} | ${drawMs(f2, f3)}, ${panZoomed.median.toFixed(1)} ms |`,
    `| play: Next → repaint (${MOVED} precincts moved, ${WHOLE ? 'whole plan sent' : 'only the change sent'}, host round trip included) | ${STEPS} | ${fps(STEPS, playMs)} | ${((f4.partialMs - f3.partialMs) / Math.max(1, f4.partial - f3.partial)).toFixed(1)} ms partial repaint (${f4.partial - f3.partial} partial, ${f4.full - f3.full} full) |`,
  ].join('\n');
}

/** The page opened, the host played by `answer`, then the first map, the pans and play measured. */
async function measure(page: Page, chain: number[][], map: PlanMapData): Promise<Measured> {
  await page.route('http://binlens.test/**', (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/') return route.fulfill({ contentType: 'text/html', body: PAGE });
    return route.fulfill({ body: readFileSync(join(DIST, path.slice(1))), contentType: path.endsWith('.css') ? 'text/css' : 'text/javascript' });
  });
  const firstInPage: number[] = [];
  const post = poster(page, firstInPage);
  await page.exposeFunction('__toHost', async (m: HostMessage) => {
    if (m.kind === 'notify' && m.topic === 'ready') await post({ kind: 'notify', topic: 'init', payload: { kind: 'opened', doc: DOC, hexEditor: false } });
    if (m.kind !== 'request') return;
    const p = m.params?.params ?? {};
    const result = m.op === 'panel' ? answer(chain, map, p) : undefined;
    const t = Date.now();
    await post({ kind: 'response', id: m.id, ok: true, result }, result?.map !== undefined);
    if (process.env.BENCH_DEBUG) process.stderr.write(`posted ${m.op} ${JSON.stringify(p)} in ${Date.now() - t} ms\n`);
  });
  await page.goto('http://binlens.test/');
  const profile = await profiler(page);
  const opened = Date.now();
  const canvas = page.locator('canvas.precinct-map');
  // Not a Playwright click: it waits for the page's input handling, which the first map's message holds up.
  await profile('first', async () => {
    await page.getByRole('tab', { name: 'Plan' }).dispatchEvent('click');
    await canvas.waitFor({ timeout: 120_000 });
  });
  const firstMs = Date.now() - opened;
  if (process.env.BENCH_DEBUG) process.stderr.write(`first map after ${firstMs} ms: ${await canvas.getAttribute('data-frames')}\n`);
  const frames = async () => JSON.parse((await canvas.getAttribute('data-frames'))!) as Frames;
  await pixels(canvas, 'the first map');
  const f = [await frames()];
  const panWhole = await profile('pan', () => pan(canvas, PAN_FRAMES));
  f.push(await frames());
  await pixels(canvas, 'the whole-map pan');
  // Twelve presses of + zoom in 1.2^12 ≈ 8.9×.
  for (let z = 0; z < ZOOM_PRESSES; z++) await canvas.press('+');
  f.push(await frames());
  const panZoomed = await profile('zoomed', () => pan(canvas, PAN_FRAMES));
  f.push(await frames());
  await pixels(canvas, 'the zoomed pan');
  const playMs = await play(page, STEPS);
  f.push(await frames());
  await pixels(canvas, 'play');
  return { firstMs, firstInPage, panWhole, panZoomed, playMs, f };
}

export const cases: BenchCase[] = [
  {
    id: 'plan-map-150k',
    title: 'Plan map: 150 544 precincts, pan and play frames in Chromium',
    runs: 1,
    async prepare(data) {
      // v8's serialisation, which keeps the levels' typed arrays (as the worker's structured clone does).
      const file = join(data, `planmap${SIDE}.v8`);
      if (existsSync(file)) return;
      const g = parseGraphJson(JSON.stringify(gridGeoGraph(SIDE, SIDE, [1000, 1000])));
      writeFileSync(file, serialize(planMapData(graphPrecincts(g)!, g, 'bench-map')));
    },
    async run(data): Promise<BenchResult> {
      const map = deserialize(readFileSync(join(data, `planmap${SIDE}.v8`))) as PlanMapData;
      const browser = await launchBrowser();
      try {
        const m = await measure(await browser.newPage({ viewport: { width: 1200, height: 900 } }), plans(), map);
        return { items: 2 * PAN_FRAMES + STEPS, timedMs: m.panWhole.ms + m.panZoomed.ms + m.playMs, table: resultTable(m) };
      } finally {
        await browser.close();
      }
    },
  },
];
