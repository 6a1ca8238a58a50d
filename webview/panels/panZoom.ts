/**
 * Pan and zoom for an SVG drawing through its viewBox: drag or arrow keys pan, the wheel or +/−
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

export function panZoom(canvas: SVGSVGElement, extent: { readonly width: number; readonly height: number }): PanZoom {
  const { width, height } = extent;
  let view = { x: 0, y: 0, w: START.w, h: START.h };
  const fit = () => {
    const k = Math.max(width / START.w, height / START.h, 1);
    view = { x: 0, y: 0, w: START.w * k, h: START.h * k };
    apply();
  };
  const apply = () => canvas.setAttribute('viewBox', `${view.x} ${view.y} ${view.w} ${view.h}`);
  const zoom = (factor: number, cx = view.x + view.w / 2, cy = view.y + view.h / 2) => {
    const w = Math.min(Math.max(view.w * factor, 60), Math.max(width, 200) * 4);
    const k = w / view.w;
    view = { x: cx - (cx - view.x) * k, y: cy - (cy - view.y) * k, w, h: view.h * k };
    apply();
  };
  const pan = (dx: number, dy: number) => {
    view = { ...view, x: view.x + dx * view.w, y: view.y + dy * view.h };
    apply();
  };
  canvas.addEventListener('wheel', (ev) => {
    ev.preventDefault();
    const box = canvas.getBoundingClientRect();
    const cx = view.x + ((ev.clientX - box.left) / Math.max(1, box.width)) * view.w;
    const cy = view.y + ((ev.clientY - box.top) / Math.max(1, box.height)) * view.h;
    zoom(ev.deltaY > 0 ? 1.2 : 1 / 1.2, cx, cy);
  });
  let drag: { x: number; y: number } | undefined;
  canvas.addEventListener('pointerdown', (ev) => {
    if ((ev.target as Element).closest('.state')) return;
    drag = { x: ev.clientX, y: ev.clientY };
    canvas.classList.add('dragging');
  });
  canvas.addEventListener('pointermove', (ev) => {
    if (!drag) return;
    const box = canvas.getBoundingClientRect();
    pan(-(ev.clientX - drag.x) / Math.max(1, box.width), -(ev.clientY - drag.y) / Math.max(1, box.height));
    drag = { x: ev.clientX, y: ev.clientY };
  });
  const end = () => {
    drag = undefined;
    canvas.classList.remove('dragging');
  };
  canvas.addEventListener('pointerup', end);
  canvas.addEventListener('pointerleave', end);
  canvas.addEventListener('keydown', (ev) => {
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
