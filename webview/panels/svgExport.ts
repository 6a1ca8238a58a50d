/**
 * A plot as a file of its own: the SVG with the theme's colours written in (its CSS variables mean
 * nothing outside the webview) over the editor background, and a PNG drawn from that SVG on a
 * canvas. Both stay in the webview; the host only saves the bytes.
 */

/** The computed properties that give an SVG element its look in the webview. */
const PROPS = [
  'fill',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'opacity',
  'font-size',
  'font-family',
  'font-weight',
  'text-anchor',
  'dominant-baseline',
] as const;

/** The SVG's markup, standalone: each element carries its computed style, a background rect first. */
export function standaloneSvg(source: SVGSVGElement): string {
  const copy = source.cloneNode(true) as SVGSVGElement;
  const from = [source, ...source.querySelectorAll('*')];
  const to = [copy, ...copy.querySelectorAll('*')];
  from.forEach((el, i) => {
    const style = getComputedStyle(el);
    const target = to[i]!;
    target.removeAttribute('class');
    for (const p of PROPS) {
      const v = style.getPropertyValue(p);
      if (v) target.setAttribute(p, v);
    }
  });
  const box = source.viewBox.baseVal;
  const background = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
  background.setAttribute('width', String(box.width));
  background.setAttribute('height', String(box.height));
  background.setAttribute(
    'fill',
    getComputedStyle(document.body).getPropertyValue('--vscode-editor-background').trim() || getComputedStyle(document.body).backgroundColor,
  );
  copy.insertBefore(background, copy.firstChild);
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.setAttribute('width', String(box.width));
  copy.setAttribute('height', String(box.height));
  return new XMLSerializer().serializeToString(copy);
}

/** The standalone SVG drawn on a canvas at `scale`, as base64 PNG bytes (the img-src CSP allows data: images). */
export async function pngBase64(source: SVGSVGElement, scale = 2): Promise<string> {
  const text = standaloneSvg(source);
  const box = source.viewBox.baseVal;
  const img = new Image();
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(box.width * scale);
  canvas.height = Math.round(box.height * scale);
  const g = canvas.getContext('2d')!;
  g.scale(scale, scale);
  g.drawImage(img, 0, 0, box.width, box.height);
  return canvas.toDataURL('image/png').split(',')[1]!;
}
