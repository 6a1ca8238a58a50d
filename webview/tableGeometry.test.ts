import { describe, expect, it } from 'vitest';
import {
  MAX_SCROLL_PX,
  OVERSCAN,
  ROW_PX,
  clampRow,
  firstVisible,
  inView,
  keyTarget,
  renderWindow,
  revealScrollTop,
  scaled,
  spacerHeight,
} from './tableGeometry.js';

// 10 whole rows fit in 230 px (10 × 22 = 220).
const H = 230;

describe('a table short enough to scroll by pixels', () => {
  const rows = 1000;

  it('shows the row under the scroll position first, and renders overscan around the view', () => {
    expect(firstVisible({ rows, scrollTop: 22 * 40 + 5, height: H })).toBe(40);
    expect(renderWindow({ rows, scrollTop: 22 * 40, height: H })).toEqual({
      first: 40 - OVERSCAN,
      count: 11 + 2 * OVERSCAN,
      offsetPx: (40 - OVERSCAN) * ROW_PX,
    });
  });

  it('renders no rows past the end, and none before the start', () => {
    expect(renderWindow({ rows: 5, scrollTop: 0, height: H })).toEqual({ first: 0, count: 5, offsetPx: 0 });
    expect(renderWindow({ rows: 0, scrollTop: 0, height: H })).toEqual({ first: 0, count: 0, offsetPx: 0 });
  });

  it('does not scroll to a row already in view, and centres one that is not', () => {
    const v = { rows, scrollTop: 22 * 100, height: H };
    expect(revealScrollTop(v, 100)).toBeUndefined();
    expect(revealScrollTop(v, 108)).toBeUndefined();
    // The last visible line may be cut off by the edge: it is brought in.
    expect(revealScrollTop(v, 109)).toBe((109 - 5) * ROW_PX);
    expect(revealScrollTop(v, 3)).toBe(0);
    expect(inView(v, 109)).toBe(true);
    expect(inView(v, 110)).toBe(false);
  });
});

describe('a table too tall for an element, scrolled by ratio', () => {
  const rows = 10_000_000;

  it('needs scaling exactly past the pixel cap', () => {
    expect(scaled(MAX_SCROLL_PX / ROW_PX)).toBe(false);
    expect(scaled(Math.floor(MAX_SCROLL_PX / ROW_PX) + 1)).toBe(true);
    expect(spacerHeight(rows)).toBe(MAX_SCROLL_PX);
  });

  it('maps the top to row 0 and the bottom to the last screenful', () => {
    expect(firstVisible({ rows, scrollTop: 0, height: H })).toBe(0);
    expect(firstVisible({ rows, scrollTop: MAX_SCROLL_PX - H, height: H })).toBe(rows - 10);
    expect(firstVisible({ rows, scrollTop: (MAX_SCROLL_PX - H) / 2, height: H })).toBe(Math.round((rows - 10) / 2));
  });

  it('reveals any row so that it is then in view', () => {
    for (const row of [0, 1, 12_345, rows / 2, rows - 11, rows - 1]) {
      const top = revealScrollTop({ rows, scrollTop: 0, height: H }, row);
      const after = { rows, scrollTop: top ?? 0, height: H };
      expect(inView(after, row)).toBe(true);
    }
  });

  it('places the rendered rows so the first visible one sits at the scroll position', () => {
    const v = { rows, scrollTop: 4_000_000, height: H };
    const w = renderWindow(v);
    expect(w.offsetPx + (firstVisible(v) - w.first) * ROW_PX).toBe(v.scrollTop);
  });
});

describe('keys', () => {
  it('move by one, by a page less one row, and to either end', () => {
    expect(keyTarget('ArrowDown', 5, 100, H)).toBe(6);
    expect(keyTarget('ArrowUp', 5, 100, H)).toBe(4);
    expect(keyTarget('PageDown', 5, 100, H)).toBe(14);
    expect(keyTarget('PageUp', 5, 100, H)).toBe(-4);
    expect(keyTarget('Home', 5, 100, H)).toBe(0);
    expect(keyTarget('End', 5, 100, H)).toBe(99);
    expect(keyTarget('a', 5, 100, H)).toBeUndefined();
    expect(clampRow(-4, 100)).toBe(0);
    expect(clampRow(140, 100)).toBe(99);
  });
});
