/**
 * Pan and zoom for an SVG drawing through its viewBox (or a canvas through `onView`): drag or arrow keys pan, the wheel or +/−
 * zoom around the pointer or the centre, 0 fits the whole `extent`. The first view shows the
 * drawing's top-left corner at a readable scale.
 */
export interface PanZoom {
  zoom(factor: number, cx?: number, cy?: number): void;
  pan(dx: number, dy: number): void;
  fit(): void;
}

/** The first view's size in drawing units. */
const START = { w: 1100, h: 560 };

export interface View {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

/**
 * For a canvas, which has no viewBox: the first view's size (the canvas's, to fit the drawing),
 * the narrowest view (how far one may zoom in) and the callback that redraws for a view.
 */
export interface PanZoomOptions {
  readonly start?: { readonly w: number; readonly h: number };
  readonly minWidth?: number;
  readonly onView?: (view: View) => void;
}

export function panZoom(
  canvas: SVGSVGElement | HTMLCanvasElement,
  extent: { readonly width: number; readonly height: number },
  opts: PanZoomOptions = {},
): PanZoom {
  const { width, height } = extent;
  const start = opts.start ?? START;
  let view = { x: 0, y: 0, w: start.w, h: start.h };
  const fit = () => {
    const k = Math.max(width / start.w, height / start.h, 1);
    view = { x: 0, y: 0, w: start.w * k, h: start.h * k };
    apply();
  };
  const apply = () => (opts.onView ? opts.onView(view) : canvas.setAttribute('viewBox', `${view.x} ${view.y} ${view.w} ${view.h}`));
  const zoom = (factor: number, cx = view.x + view.w / 2, cy = view.y + view.h / 2) => {
    const w = Math.min(Math.max(view.w * factor, opts.minWidth ?? 60), Math.max(width, 200) * 4);
    const k = w / view.w;
    view = { x: cx - (cx - view.x) * k, y: cy - (cy - view.y) * k, w, h: view.h * k };
    apply();
  };
  const pan = (dx: number, dy: number) => {
    view = { ...view, x: view.x + dx * view.w, y: view.y + dy * view.h };
    apply();
  };
  // Typed listeners for either element (an SVG's and a canvas's event maps name the same events).
  const on = <K extends keyof GlobalEventHandlersEventMap>(type: K, f: (ev: GlobalEventHandlersEventMap[K]) => void) =>
    canvas.addEventListener(type, f as EventListener);
  on('wheel', (ev) => {
    ev.preventDefault();
    const box = canvas.getBoundingClientRect();
    const cx = view.x + ((ev.clientX - box.left) / Math.max(1, box.width)) * view.w;
    const cy = view.y + ((ev.clientY - box.top) / Math.max(1, box.height)) * view.h;
    zoom(ev.deltaY > 0 ? 1.2 : 1 / 1.2, cx, cy);
  });
  let drag: { x: number; y: number } | undefined;
  on('pointerdown', (ev) => {
    if ((ev.target as Element).closest('.state')) return;
    drag = { x: ev.clientX, y: ev.clientY };
    canvas.classList.add('dragging');
  });
  on('pointermove', (ev) => {
    if (!drag) return;
    const box = canvas.getBoundingClientRect();
    pan(-(ev.clientX - drag.x) / Math.max(1, box.width), -(ev.clientY - drag.y) / Math.max(1, box.height));
    drag = { x: ev.clientX, y: ev.clientY };
  });
  const end = () => {
    drag = undefined;
    canvas.classList.remove('dragging');
  };
  on('pointerup', end);
  on('pointerleave', end);
  on('keydown', (ev) => {
    if (ev.target !== canvas) return;
    const moves: Record<string, () => void> = {
      ArrowLeft: () => pan(-0.1, 0),
      ArrowRight: () => pan(0.1, 0),
      ArrowUp: () => pan(0, -0.1),
      ArrowDown: () => pan(0, 0.1),
      '+': () => zoom(1 / 1.2),
      '=': () => zoom(1 / 1.2),
      '-': () => zoom(1.2),
      '0': fit,
    };
    const move = moves[ev.key];
    if (move) {
      ev.preventDefault();
      move();
    }
  });
  apply();

  return { zoom, pan, fit };
}
