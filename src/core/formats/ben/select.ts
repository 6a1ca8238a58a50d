import { FormatError } from '../../errors.js';

/**
 * Which samples to keep when subsampling (0-based positions over expanded samples, half-open
 * ranges, as binary-ensemble 2.0's `subsample_*`): every k-th from the first, a range, a list.
 */
export type Selection =
  | { readonly kind: 'all' }
  | { readonly kind: 'every'; readonly step: number; readonly offset: number }
  | { readonly kind: 'range'; readonly start: number; readonly end: number }
  | { readonly kind: 'list'; readonly indices: readonly number[] };

/** How many samples of [first, first + count) the selection keeps (positions 0-based). */
export function selectedIn(sel: Selection, first: number, count: number): number {
  switch (sel.kind) {
    case 'all':
      return count;
    case 'every': {
      // Positions p ≥ offset with (p − offset) % step = 0, in [first, first + count).
      const upTo = (x: number) => (x <= sel.offset ? 0 : Math.ceil((x - sel.offset) / sel.step));
      return upTo(first + count) - upTo(first);
    }
    case 'range':
      return Math.max(0, Math.min(sel.end, first + count) - Math.max(sel.start, first));
    case 'list': {
      const lo = lowerBound(sel.indices, first);
      return lowerBound(sel.indices, first + count) - lo;
    }
  }
}

/** Position of the first selected sample in [first, first + count); call when `selectedIn` > 0. */
export function firstSelected(sel: Selection, first: number): number {
  switch (sel.kind) {
    case 'all':
      return first;
    case 'every': {
      const from = Math.max(first, sel.offset);
      return from + ((sel.step - ((from - sel.offset) % sel.step)) % sel.step);
    }
    case 'range':
      return Math.max(first, sel.start);
    case 'list':
      return sel.indices[lowerBound(sel.indices, first)]!;
  }
}

/** No sample at or after `position` can be selected any more: readers stop early. */
export function exhausted(sel: Selection, position: number): boolean {
  if (sel.kind === 'range') return position >= sel.end;
  if (sel.kind === 'list') return sel.indices.length === 0 || position > sel.indices[sel.indices.length - 1]!;
  return false;
}

function lowerBound(a: readonly number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Parses the user's words: "all", "every 10" (or "every 10 from 5"), "100..200" (half-open,
 * 0-based), or a list "0, 5, 17".
 */
export function parseSelection(text: string): Selection {
  const t = text.trim().toLowerCase();
  if (t === '' || t === 'all') return { kind: 'all' };
  const every = /^every\s+(\d+)(?:\s+from\s+(\d+))?$/.exec(t);
  if (every) {
    const step = Number(every[1]);
    if (step < 1) throw new FormatError('corrupt', 'every k needs k ≥ 1', { field: 'selection' });
    return { kind: 'every', step, offset: Number(every[2] ?? 0) };
  }
  const r = /^(\d+)\s*\.\.\s*(\d+)$/.exec(t);
  if (r) return { kind: 'range', start: Number(r[1]), end: Number(r[2]) };
  if (/^\d+(\s*,\s*\d+)*$/.test(t)) return { kind: 'list', indices: [...new Set(t.split(',').map((x) => Number(x.trim())))].sort((a, b) => a - b) };
  throw new FormatError('corrupt', `"${text}": use all, every K [from S], START..END (0-based, end excluded) or a list 0,5,17`, { field: 'selection' });
}
