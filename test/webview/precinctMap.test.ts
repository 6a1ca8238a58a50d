import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planMapData } from '../../src/core/formats/ben/geo/planMap.js';
import { graphPrecincts } from '../../src/core/formats/ben/geo/geometry.js';
import { gridGeoGraph } from '../../src/core/formats/ben/geo/testing.js';
import { parseGraphJson } from '../../src/core/formats/ben/stats/graph.js';
import type { DocDTO, HostNotice, PlanPanelData } from '../../src/protocol/protocol.js';
import { seriousViolations } from '../helpers/axe.js';
import { launchBrowser } from '../helpers/browser.js';
import { openWebview } from './harness.js';

/** The plan panel over a 4×4 grid of unit squares (planar: offset to 1000), in the built webview. */
const DOC: DocDTO = {
  fileName: 'chain.bendl',
  size: 100,
  format: 'ben',
  formatLabel: 'BENDL',
  title: 'BEN chain',
  summary: [],
  warnings: [],
  root: { id: 'root', label: 'chain.bendl', childCount: 0 },
  tables: [],
  panels: [{ id: 'plan', title: 'Plan', kind: 'plan', params: [{ key: 'sample', label: 'Sample', type: 'number', min: 1, default: 1 }] }],
  searches: [],
  converters: [],
};
const INIT: HostNotice = { topic: 'init', payload: { kind: 'opened', doc: DOC, hexEditor: false } };

const graph = parseGraphJson(JSON.stringify(gridGeoGraph(4, 4, [1000, 1000])));
const MAP = planMapData(graphPrecincts(graph)!, graph, 'map-test');
/** Sample 1: column x is district x + 1; sample 2 moves node 1 (x 1, y 0) to district 3. */
const PLANS = [Array.from({ length: 16 }, (_, i) => (i % 4) + 1), Array.from({ length: 16 }, (_, i) => (i === 1 ? 3 : (i % 4) + 1))];
/** Theme colours the page is given: district d is PALETTE[d mod 6] at full strength (plan.ts). */
const THEME = {
  '--vscode-charts-blue': '#0000ff',
  '--vscode-charts-orange': '#ff8000',
  '--vscode-charts-green': '#00c000',
  '--vscode-charts-purple': '#8000ff',
  '--vscode-charts-red': '#ff0000',
  '--vscode-editor-background': '#ffffff',
  '--vscode-editor-foreground': '#000000',
};

function answer(op: string, params: Record<string, unknown>): PlanPanelData | undefined {
  if (op !== 'panel') return undefined;
  const p = params.params as Record<string, string | number>;
  const k = Number(p.sample ?? 1);
  const held = p.mapHeld === MAP.key;
  return {
    kind: 'plan',
    caption: `sample ${k}`,
    mode: 'district',
    values: PLANS[k - 1]!,
    stripLabel: 'strip',
    step: { param: 'sample', value: k, min: 1, max: 2 },
    mapKey: MAP.key,
    ...(held ? {} : { map: MAP }),
  };
}

/**
 * Node (x, y)'s centre in canvas pixels: the unit map fits 460 px (480 − 2·10), centred in 720,
 * y up: X = 130 + 460·(x + ½)/4, Y = 10 + 460·(1 − (y + ½)/4).
 */
const centre = (x: number, y: number) => [130 + (460 * (x + 0.5)) / 4, 10 + 460 * (1 - (y + 0.5) / 4)] as const;

async function pixel(page: Page, [x, y]: readonly [number, number]): Promise<number[]> {
  return page.locator('canvas.precinct-map').evaluate(
    (c: HTMLCanvasElement, [px, py]) => {
      const k = c.width / 720;
      return Array.from(
        c
          .getContext('2d')!
          .getImageData(Math.round(px! * k), Math.round(py! * k), 1, 1)
          .data.slice(0, 3),
      );
    },
    [x, y],
  );
}

async function toPage(page: Page, [x, y]: readonly [number, number]): Promise<{ x: number; y: number }> {
  const box = (await page.locator('canvas.precinct-map').boundingBox())!;
  return { x: box.x + (x * box.width) / 720, y: box.y + (y * box.height) / 480 };
}

describe('the plan on its precinct map, in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('fills precincts by district, asks for the shapes once, names a hovered precinct, selects its district on click, repaints only a step’s change', async () => {
    const { page, requests, violations } = await openWebview(browser, INIT, answer);
    await page.evaluate((theme) => Object.entries(theme).forEach(([k, v]) => document.documentElement.style.setProperty(k, v)), THEME);
    await page.getByRole('tab', { name: 'Plan' }).click();
    const canvas = page.locator('canvas.precinct-map');
    await canvas.waitFor();
    // The page says it holds the map, so the next answer is the key alone and the canvas stays.
    await expect.poll(() => requests.filter((r) => r.op === 'panel').length).toBe(2);
    expect((requests[1]!.params.params as Record<string, unknown>).mapHeld).toBe('map-test');
    // District 1 (x 0) orange, 2 green, 3 purple, 4 red; the grid's outside is the background.
    expect(await pixel(page, centre(0, 2))).toEqual([255, 128, 0]);
    expect(await pixel(page, centre(1, 0))).toEqual([0, 192, 0]);
    expect(await pixel(page, centre(3, 3))).toEqual([255, 0, 0]);
    expect(await pixel(page, [60, 240])).toEqual([255, 255, 255]);
    // The bold boundary between columns 0 and 1 (x = 130 + 115), black
    expect(await pixel(page, [245, 240])).toEqual([0, 0, 0]);

    const five = await toPage(page, centre(1, 1));
    await page.mouse.move(five.x, five.y);
    const tip = page.locator('.map-tooltip');
    await expect.poll(() => tip.textContent()).toBe('node 5: district 2; TOTPOP 105, G20PRESD 10, G20PRESR 10');
    expect(await tip.isVisible()).toBe(true);
    expect(await page.locator('.map-status').textContent()).toBe('node 5: district 2; TOTPOP 105, G20PRESD 10, G20PRESR 10');
    await page.mouse.click(five.x, five.y);
    await expect.poll(() => page.locator('.map-status').textContent()).toBe('district 2 selected: 4 precincts');
    await page.mouse.click(five.x, five.y);
    await expect.poll(() => page.locator('.map-status').textContent()).toBe('no district selected');

    // Next: node 1 turns purple, drawn by a partial repaint of it and its neighbours, on the same canvas.
    const before = JSON.parse((await canvas.getAttribute('data-frames'))!) as { full: number; partial: number };
    await page.getByRole('button', { name: 'Next ▶' }).click();
    await expect.poll(() => pixel(page, centre(1, 0))).toEqual([128, 0, 255]);
    const after = JSON.parse((await canvas.getAttribute('data-frames'))!) as { full: number; partial: number };
    expect(after).toMatchObject({ full: before.full, partial: before.partial + 1 });
    expect(requests.filter((r) => r.op === 'panel').every((r, i) => i === 0 || (r.params.params as Record<string, unknown>).mapHeld === 'map-test')).toBe(true);
    // The bold boundary between nodes 1 and 2 (both district 3 now) is gone: x = 130 + 230, black before
    expect((await pixel(page, [360, centre(1, 0)[1]]))[2]).toBeGreaterThan(100);
    expect(await pixel(page, [360, centre(1, 1)[1]])).toEqual([0, 0, 0]);

    // Keyboard: arrows pan a tenth of the view right and up, so node (2, 2) is in the centre; Enter selects its district 3; + zooms
    await canvas.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.map-status').textContent()).toBe('district 3 selected: 5 precincts');
    // The map draws once per animation frame whatever changed since the last, so the pan, the
    // selection and the zoom can share one frame on a busy machine: count the zoom's from the
    // frame after the selection.
    const fullFrames = async () => (JSON.parse((await canvas.getAttribute('data-frames'))!) as { full: number }).full;
    await page.evaluate(() => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn))));
    const selected = await fullFrames();
    expect(selected).toBeGreaterThan(after.full);
    await page.keyboard.press('+');
    await expect.poll(fullFrames).toBeGreaterThan(selected);
    expect(violations).toEqual([]);
    await page.close();
  });

  it('a step applies only the nodes that moved to the plan it holds; changes from a plan it does not hold make it ask for the whole plan', async () => {
    // Sample 3: sample 2 with node 2 (x 2, y 0) moved to district 2.
    const plans = [...PLANS, PLANS[1]!.map((d, n) => (n === 2 ? 2 : d))];
    const moved = (a: number[], b: number[]) => ({ nodes: b.flatMap((d, n) => (d === a[n] ? [] : [n])), districts: b.filter((d, n) => d !== a[n]) });
    const held: unknown[] = [];
    const { page, requests } = await openWebview(browser, INIT, (op, params) => {
      if (op !== 'panel') return undefined;
      const p = params.params as Record<string, string | number>;
      const k = Number(p.sample ?? 1);
      held.push(p.planHeld);
      const h = Number(p.planHeld ?? 0);
      // Sample 3's answer names sample 1 as its base, though the page holds sample 2: as after a lost response.
      const from = k === 3 && h >= 1 ? 1 : h;
      const changes = from >= 1 ? { from, ...moved(plans[from - 1]!, plans[k - 1]!) } : undefined;
      return {
        kind: 'plan',
        caption: `sample ${k}`,
        mode: 'district',
        values: changes ? [] : plans[k - 1]!,
        changes,
        stripLabel: 'strip',
        step: { param: 'sample', value: k, min: 1, max: 3 },
        mapKey: MAP.key,
        ...(p.mapHeld === MAP.key ? {} : { map: MAP }),
      };
    });
    await page.evaluate((theme) => Object.entries(theme).forEach(([k, v]) => document.documentElement.style.setProperty(k, v)), THEME);
    await page.getByRole('tab', { name: 'Plan' }).click();
    await page.locator('canvas.precinct-map').waitFor();
    await expect.poll(() => requests.filter((r) => r.op === 'panel').length).toBe(2);
    // The first request holds nothing; the one the map's arrival causes names sample 1's plan.
    expect(held.slice(0, 2)).toEqual([undefined, 1]);
    await page.getByRole('button', { name: 'Next ▶' }).click();
    await expect.poll(() => pixel(page, centre(1, 0))).toEqual([128, 0, 255]);
    expect(held[2]).toBe(1);
    // The rest of the plan is sample 1's: columns 0 and 3 keep their districts
    expect(await pixel(page, centre(0, 0))).toEqual([255, 128, 0]);
    expect(await pixel(page, centre(3, 0))).toEqual([255, 0, 0]);
    await page.getByRole('button', { name: 'Next ▶' }).click();
    // Refused (base 1, held 2): asked again holding nothing, and drawn from the whole plan.
    await expect.poll(() => held.length).toBe(5);
    expect(held.slice(3)).toEqual([2, 0]);
    await expect.poll(() => pixel(page, centre(2, 0))).toEqual([0, 192, 0]);
    expect(await pixel(page, centre(1, 0))).toEqual([128, 0, 255]);
    await page.close();
  });

  it('plays at the chosen speed, which survives the redraw of each step, and stops at the last sample', async () => {
    const { page, requests } = await openWebview(browser, INIT, answer);
    await page.evaluate((theme) => Object.entries(theme).forEach(([k, v]) => document.documentElement.style.setProperty(k, v)), THEME);
    await page.getByRole('tab', { name: 'Plan' }).click();
    await page.locator('canvas.precinct-map').waitFor();
    const speed = page.getByRole('combobox', { name: 'Play speed' });
    expect(await speed.locator('option').allTextContents()).toEqual(['2 plans/s', '5 plans/s', '10 plans/s', '30 plans/s', 'as fast as drawn']);
    await speed.selectOption({ label: 'as fast as drawn' });
    await page.getByRole('button', { name: '▶ Play' }).click();
    // Sample 2 is the last: Play steps there by itself and turns back into Play.
    await expect.poll(() => pixel(page, centre(1, 0))).toEqual([128, 0, 255]);
    await page.getByRole('button', { name: '▶ Play' }).waitFor();
    expect(requests.filter((r) => r.op === 'panel').map((r) => (r.params.params as Record<string, unknown>).sample)).toContain(2);
    expect(await page.getByRole('combobox', { name: 'Play speed' }).inputValue()).toBe('0');
    await page.close();
  });

  it('offers to pick a FeatureCollection through the host and to match its features by a property found in it', async () => {
    const { page, requests } = await openWebview(browser, INIT, (op, params) => {
      if (op === 'pickShapes') return { picked: true };
      const d = answer(op, params);
      const id = (params.params as Record<string, unknown> | undefined)?.shapesId;
      return (
        d && {
          ...d,
          pickShapes: true,
          features: { name: 'p.geojson', properties: ['GEOID', 'NAME'], id: typeof id === 'string' && id !== '' ? id : undefined },
        }
      );
    });
    await page.getByRole('tab', { name: 'Plan' }).click();
    const match = page.getByRole('combobox', { name: 'Match the features of p.geojson to nodes by' });
    await match.waitFor();
    expect(await match.locator('option').allTextContents()).toEqual(['feature order', 'property GEOID', 'property NAME']);
    expect(await match.inputValue()).toBe('');
    await match.selectOption('GEOID');
    await expect.poll(() => requests.filter((r) => r.op === 'panel').at(-1)?.params.params).toMatchObject({ shapesId: 'GEOID' });
    await expect.poll(() => match.inputValue()).toBe('GEOID');
    // The pick is the host's (no file named here); after it, features match by order again
    await page.getByRole('button', { name: 'Choose other precinct shapes…' }).click();
    await expect.poll(() => requests.some((r) => r.op === 'pickShapes')).toBe(true);
    expect(requests.find((r) => r.op === 'pickShapes')!.params).toEqual({});
    await expect.poll(() => requests.filter((r) => r.op === 'panel').at(-1)?.params.params).toMatchObject({ shapesId: '' });
    await page.close();
  });

  it('passes axe (WCAG 2.1 AA) with the map drawn, its tooltip shown', async () => {
    // axe is injected inline, so this page runs without the CSP the first test holds the map to.
    // With the shapes chooser shown: its button and select are checked too.
    const withChooser = (op: string, params: Record<string, unknown>) => {
      const d = answer(op, params);
      return d && { ...d, pickShapes: true, features: { name: 'p.geojson', properties: ['GEOID'] } };
    };
    const { page } = await openWebview(browser, INIT, withChooser, { bypassCSP: true });
    await page.getByRole('tab', { name: 'Plan' }).click();
    await page.locator('canvas.precinct-map').waitFor();
    const five = await toPage(page, centre(1, 1));
    await page.mouse.move(five.x, five.y);
    await page.locator('.map-tooltip').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });
});
