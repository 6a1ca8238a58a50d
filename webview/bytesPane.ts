import * as l10n from '@vscode/l10n';
import type { RangeDTO } from '../src/protocol/protocol.js';
import { h, hexOffset } from './dom.js';

/** The bytes pane shows at most this many bytes of a range at once; buttons page through the rest. */
const SHOW = 1024;

export interface BytesSource {
  bytes(offset: number, length: number): Promise<{ offset: number; hex: string }>;
}

/** A hex and ASCII dump of the selected field's bytes, 16 per line, with the absolute offsets. */
export class BytesPane {
  readonly el: HTMLElement;
  private readonly title: HTMLElement;
  private readonly pre: HTMLElement;
  private readonly nav: HTMLElement;
  private range: RangeDTO | undefined;
  private start = 0;
  private request = 0;

  constructor(
    private readonly source: BytesSource,
    private readonly openInHex: ((offset: number) => void) | undefined,
  ) {
    this.title = h('span', { class: 'bytes-title', text: l10n.t('Select a field to see its bytes') });
    this.nav = h('span', { class: 'bytes-nav' });
    this.pre = h('pre', { class: 'bytes', tabindex: 0, role: 'region', 'aria-label': l10n.t('bytes of the selected field') });
    this.el = h('section', { class: 'bytes-pane', 'aria-label': l10n.t('Bytes') }, h('div', { class: 'bytes-head' }, this.title, this.nav), this.pre);
  }

  show(range: RangeDTO | undefined, label: string): void {
    this.range = range;
    this.start = range?.offset ?? 0;
    if (!range) {
      this.title.textContent = l10n.t('{0}: no byte range', label);
      this.pre.textContent = '';
      this.nav.replaceChildren();
      return;
    }
    void this.load(label);
  }

  private async load(label: string): Promise<void> {
    const range = this.range;
    if (!range) return;
    const id = ++this.request;
    const end = range.offset + range.length;
    const length = Math.min(SHOW, end - this.start);
    this.title.textContent = l10n.t('{0}: {1} bytes at {2} ({3})', label, range.length, hexOffset(range.offset), range.offset);
    const data = length > 0 ? await this.source.bytes(this.start, length) : { offset: this.start, hex: '' };
    if (id !== this.request) return;
    this.pre.textContent = dump(data.offset, data.hex);
    const buttons: HTMLElement[] = [];
    if (this.start > range.offset)
      buttons.push(this.button(l10n.t('◀ previous'), () => ((this.start = Math.max(range.offset, this.start - SHOW)), void this.load(label))));
    if (this.start + SHOW < end) buttons.push(this.button(l10n.t('next ▶'), () => ((this.start += SHOW), void this.load(label))));
    if (this.openInHex) buttons.push(this.button(l10n.t('Open in Hex Editor'), () => this.openInHex!(this.start)));
    this.nav.replaceChildren(...buttons);
  }

  private button(text: string, onClick: () => void): HTMLElement {
    const b = h('button', { type: 'button', class: 'link', text });
    b.addEventListener('click', onClick);
    return b;
  }
}

export function dump(offset: number, hex: string): string {
  const lines: string[] = [];
  const n = hex.length / 2;
  for (let i = 0; i < n; i += 16) {
    let hexPart = '';
    let ascii = '';
    for (let k = i; k < Math.min(n, i + 16); k++) {
      const b = parseInt(hex.slice(2 * k, 2 * k + 2), 16);
      hexPart += `${hex.slice(2 * k, 2 * k + 2)}${k % 16 === 7 ? '  ' : ' '}`;
      ascii += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.';
    }
    lines.push(`${(offset + i).toString(16).padStart(8, '0')}  ${hexPart.padEnd(49)} ${ascii}`);
  }
  return lines.join('\n');
}
