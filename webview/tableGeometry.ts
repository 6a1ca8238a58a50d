/**
 * The virtual table's arithmetic, free of the DOM so it is tested without a browser: which rows a
 * scroll position shows, where to scroll to bring a row into view, and where a key moves the
 * active row. Past `MAX_SCROLL_PX` (browsers cap element heights near 33 M px) scroll positions
 * map to rows by ratio.
 */

export const ROW_PX = 22;
export const MAX_SCROLL_PX = 8_000_000;
/** Rows rendered above and below the visible ones, so a small scroll shows no gap. */
export const OVERSCAN = 8;

/** What the table spans and how it is scrolled. */
export interface Viewport {
  readonly rows: number;
  readonly scrollTop: number;
  /** The viewport's height in pixels. */
  readonly height: number;
}

/** Whether the rows need more pixels than an element may have, so positions map by ratio. */
export function scaled(rows: number): boolean {
  return rows * ROW_PX > MAX_SCROLL_PX;
}

/** Whole rows that fit in the viewport. */
export function visibleRows(height: number): number {
  return Math.floor(height / ROW_PX);
}

/** The height of the scrolled content. */
export function spacerHeight(rows: number): number {
  return Math.min(rows * ROW_PX, MAX_SCROLL_PX);
}

/** The first row in view. */
export function firstVisible(v: Viewport): number {
  if (!scaled(v.rows)) return Math.floor(v.scrollTop / ROW_PX);
  const ratio = Math.min(1, v.scrollTop / Math.max(1, MAX_SCROLL_PX - v.height));
  return Math.round(ratio * Math.max(0, v.rows - visibleRows(v.height)));
}

/** Whether `row` is fully in view. */
export function inView(v: Viewport, row: number): boolean {
  const first = firstVisible(v);
  return row >= first && row < first + visibleRows(v.height);
}

/** The rows to render (the visible ones plus overscan) and the offset that places the first. */
export function renderWindow(v: Viewport): { first: number; count: number; offsetPx: number } {
  const shown = firstVisible(v);
  const first = Math.max(0, shown - OVERSCAN);
  const count = Math.max(0, Math.min(v.rows - first, Math.ceil(v.height / ROW_PX) + 2 * OVERSCAN));
  const offsetPx = scaled(v.rows) ? v.scrollTop - (shown - first) * ROW_PX : first * ROW_PX;
  return { first, count, offsetPx: Math.max(0, offsetPx) };
}

/**
 * The scroll position that puts `row` in the middle of the view, or undefined when it is already
 * in view (its last visible line excepted, so a row half under the edge is brought in).
 */
export function revealScrollTop(v: Viewport, row: number): number | undefined {
  const first = firstVisible(v);
  const visible = Math.max(1, visibleRows(v.height));
  if (row >= first && row < first + visible - 1) return undefined;
  const target = Math.max(0, row - Math.floor(visible / 2));
  return scaled(v.rows) ? Math.min(1, target / Math.max(1, v.rows - visible)) * (MAX_SCROLL_PX - v.height) : target * ROW_PX;
}

/** Where a navigation key moves the active row (clamped by the caller), or undefined for other keys. */
export function keyTarget(key: string, active: number, rows: number, height: number): number | undefined {
  const page = Math.max(1, visibleRows(height) - 1);
  switch (key) {
    case 'ArrowDown':
      return active + 1;
    case 'ArrowUp':
      return active - 1;
    case 'PageDown':
      return active + page;
    case 'PageUp':
      return active - page;
    case 'Home':
      return 0;
    case 'End':
      return rows - 1;
    default:
      return undefined;
  }
}

/** `index` within the table's rows. */
export function clampRow(index: number, rows: number): number {
  return Math.max(0, Math.min(rows - 1, index));
}
