import type { ByteRange, Check, Field, Mark, Scalar, StructNode } from './model.js';
import { rethrowUnlessFormatError } from './errors.js';
import { utf8Text } from './io/utf8.js';
import type { FieldSpec, FixedLayout } from './io/layout.js';

/** Small constructors that keep format code close to its spec tables. */

export function range(offset: number, length: number): ByteRange {
  return { offset, length };
}

export function field(name: string, value: Scalar, at?: ByteRange, extra: { display?: string; mark?: Mark; note?: string } = {}): Field {
  return { name, value, range: at, ...extra };
}

/** A leaf node showing one field. */
export function leaf(label: string, value: Scalar | undefined, at?: ByteRange, extra: { mark?: Mark; note?: string } = {}): StructNode {
  return { label, value: value === undefined ? undefined : formatScalar(value), range: at, ...extra };
}

/** What a layout leaf shows: its value, or its value with a mark and a note. */
export type LeafShow = Scalar | readonly [Scalar, { mark?: Mark; note?: string }];

/**
 * One leaf per field of a fixed layout lying at `base`, in byte order, labelled with the field's
 * name and ranged from the declaration: the tree never repeats an offset the reader knows.
 */
export function layoutLeaves<D extends Record<string, FieldSpec>>(l: FixedLayout<D>, base: number, show: { readonly [K in keyof D]: LeafShow }): StructNode[] {
  return l.keys().map((key) => {
    const s = show[key];
    const [value, extra] = Array.isArray(s) ? (s as readonly [Scalar, { mark?: Mark; note?: string }]) : [s as Scalar, {}];
    return leaf(l.name(key), value, l.range(key, base), extra);
  });
}

/**
 * The node, marked as an error with `failure()` as its note while that says something. A check that
 * runs in the background (a CRC over a whole stream) is not known when the tree is built: the
 * getters read it each time the node is shown, and the engine sends the fresh top rows once it is.
 * The value is a getter too, so a node whose value is one (a background count) keeps it.
 */
export function checkedNode(node: StructNode, failure: () => string | undefined, label = node.label): StructNode {
  return {
    label,
    range: node.range,
    children: node.children,
    get value() {
      return node.value;
    },
    get mark() {
      return failure() === undefined ? node.mark : 'error';
    },
    get note() {
      return failure() ?? node.note;
    },
  };
}

export function formatScalar(v: Scalar): string {
  if (v === null) return 'null';
  return typeof v === 'string' ? v : String(v);
}

export function hex(n: number | bigint, width = 0): string {
  return `0x${n.toString(16).padStart(width, '0')}`;
}

const HEX_PAIRS = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** Bytes as lowercase hex pairs, `sep` between them (a table lookup: this runs per cell in byte columns). */
export function hexString(bytes: Uint8Array, sep = ''): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += (i > 0 ? sep : '') + HEX_PAIRS[bytes[i]!]!;
  return s;
}

/** The first `max` bytes as spaced hex pairs, with an ellipsis when there are more. */
export function hexBytes(bytes: Uint8Array, max = bytes.length): string {
  const s = hexString(bytes.subarray(0, max), ' ');
  return bytes.length > max ? `${s} …` : s;
}

/** Bytes as a quoted JSON string when they are UTF-8, else as 0x-prefixed hex. */
export function quotedTextOrHex(bytes: Uint8Array): string {
  const text = utf8Text(bytes);
  return text === undefined ? `0x${hexString(bytes)}` : JSON.stringify(text);
}

/** A node that says where reading stopped: the viewer keeps what came before it. */
export function errorNode(e: unknown, label = 'unreadable'): StructNode {
  rethrowUnlessFormatError(e);
  return { label, value: e.detail, range: e.offset === undefined ? undefined : range(e.offset, 0), mark: 'error', note: e.field };
}

export function pass(name: string, detail: string, offset?: number): Check {
  return { name, status: 'pass', detail, offset };
}

export function fail(name: string, detail: string, offset?: number, field?: string): Check {
  return { name, status: 'fail', detail, offset, field };
}

export function warn(name: string, detail: string, offset?: number): Check {
  return { name, status: 'warn', detail, offset };
}

export function info(name: string, detail: string, offset?: number): Check {
  return { name, status: 'info', detail, offset };
}

/** A failed check from a FormatError; anything else is a bug and propagates. */
export function failFrom(name: string, e: unknown): Check {
  // The offset travels separately, so the detail carries only the field and what is wrong.
  rethrowUnlessFormatError(e);
  return { name, status: 'fail', detail: e.field === undefined ? e.detail : `${e.field}: ${e.detail}`, offset: e.offset, field: e.field };
}

export function plural(n: number | bigint, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 || n === 1n ? one : many}`;
}
