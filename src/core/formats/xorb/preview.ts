import { hexString } from '../../describe.js';
/**
 * Renders a chunk's decoded bytes for the preview panel: hex with ASCII, text, or the numbers
 * model weights are stored as (float32, bfloat16, float16, little-endian), which is what BG4
 * chunks usually hold.
 */
export type PreviewView = 'hex' | 'text' | 'float32' | 'bf16' | 'fp16';

export const PREVIEW_VIEWS: readonly PreviewView[] = ['hex', 'text', 'float32', 'bf16', 'fp16'];

/** Bytes shown at once: enough to judge the content, small enough to draw at once. */
export const PREVIEW_BYTES = 4096;

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

function bf16(bits: number): number {
  u32[0] = bits << 16;
  return f32[0]!;
}

function fp16(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >> 10) & 0x1f;
  const frac = bits & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

/** The numbers of a float view, little-endian; trailing bytes that do not fill one are left out. */
export function floats(bytes: Uint8Array, view: 'float32' | 'bf16' | 'fp16'): number[] {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: number[] = [];
  if (view === 'float32') for (let i = 0; i + 4 <= bytes.length; i += 4) out.push(dv.getFloat32(i, true));
  else for (let i = 0; i + 2 <= bytes.length; i += 2) out.push(view === 'bf16' ? bf16(dv.getUint16(i, true)) : fp16(dv.getUint16(i, true)));
  return out;
}

function printable(b: number): boolean {
  return (b >= 0x20 && b < 0x7f) || b === 0x0a || b === 0x0d || b === 0x09;
}

/** Fraction of values that look like model weights: finite, and zero or of a small magnitude. */
function plausibleFloats(values: readonly number[]): number {
  if (values.length === 0) return 0;
  return values.filter((v) => v === 0 || (Math.abs(v) >= 1e-6 && Math.abs(v) <= 64)).length / values.length;
}

export interface Guess {
  readonly view: PreviewView;
  /** Bytes to skip so values line up: a chunk cut by the chunker can start inside a value. */
  readonly shift: number;
}

/**
 * The view a person most likely wants for these bytes: text when nearly all bytes are printable,
 * else the float type and alignment under which nearly all values look like weights (narrower
 * types win near-ties: pairs of 16-bit values also read as plausible float32s), else hex.
 */
export function guessView(bytes: Uint8Array): Guess {
  if (bytes.length > 0 && bytes.filter(printable).length / bytes.length > 0.95) return { view: 'text', shift: 0 };
  let best: Guess = { view: 'hex', shift: 0 };
  let score = 0.9;
  for (const view of ['bf16', 'fp16', 'float32'] as const) {
    for (let shift = 0; shift < (view === 'float32' ? 4 : 2); shift++) {
      const s = plausibleFloats(floats(bytes.subarray(shift), view));
      if (s > score + 0.02) ((best = { view, shift }), (score = s));
    }
  }
  return best;
}

function hexLines(bytes: Uint8Array, base: number): string {
  const lines: string[] = [];
  for (let i = 0; i < bytes.length; i += 16) {
    const row = bytes.subarray(i, i + 16);
    const hex = hexString(row, ' ');
    const ascii = [...row].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${(base + i).toString(16).padStart(8, '0')}  ${hex.padEnd(47)}  |${ascii}|`);
  }
  return lines.join('\n');
}

function floatLines(bytes: Uint8Array, base: number, view: 'float32' | 'bf16' | 'fp16'): string {
  const width = view === 'float32' ? 4 : 2;
  const values = floats(bytes, view);
  const lines: string[] = [];
  for (let i = 0; i < values.length; i += 8) {
    const cells = values.slice(i, i + 8).map((v) => (Number.isInteger(v) ? String(v) : v.toPrecision(6)).padStart(13));
    lines.push(`${(base + i * width).toString(16).padStart(8, '0')} ${cells.join(' ')}`);
  }
  return lines.join('\n');
}

/** `bytes` start at byte `base` of the chunk. */
export function renderPreview(bytes: Uint8Array, base: number, view: PreviewView): string {
  switch (view) {
    case 'hex':
      return hexLines(bytes, base);
    case 'text':
      // Control characters other than line breaks and tabs would garble the view; show them as ·.
      return new TextDecoder('utf-8').decode(bytes).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '·');
    default:
      return floatLines(bytes, base, view);
  }
}
