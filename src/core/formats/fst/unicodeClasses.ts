import { type Ranges, normalise } from './codePointSets.js';

/**
 * Unicode classes (`\p{…}`, `\d \w \s`) as code point ranges, read out of the JavaScript engine's own
 * `\p{…}` and case-insensitive matching rather than from tables kept here: the Unicode version is the
 * engine's (`process.versions.unicode` in Node). A class is built on first use by running `\p{…}+` over
 * strings of consecutive code points, and cached.
 *
 * Only planes 0–3 and the start of 14 are scanned: planes 4–13 hold no characters, 15–16 only private use
 * and 14 nothing past U+E0FFF, each uniform apart from its two noncharacters, so one probe of the interior and
 * one of the end stand for the rest (scanning it would cost about five times as much; unicodeClasses.test.ts
 * checks the shortcut against a full scan).
 */

/** Runs of code points with a constant UTF-16 width, scanned in full, each made into a string when first scanned. */
const SEGMENTS: [number, number][] = [
  [0x0000, 0xd7ff],
  [0xe000, 0xffff],
  [0x10000, 0x1ffff],
  [0x20000, 0x3ffff],
  [0xe0000, 0xe0fff],
];
/** Where a plane is uniform up to its two noncharacters: planes 4–13 (empty), 15–16 (private use), plane 14 past its tags and selectors. */
const UNIFORM = [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16].map((p) => (p === 14 ? 0xe1000 : p << 16));
/** Every character with a case fold class lies in planes 0–1 (unicodeClasses.test.ts checks). */
const CASED_BELOW = 0x20000;

const segmentTexts: string[] = [];

/** A segment as a string, from UTF-16 units filled by loops simple enough to be quick on their first and only run. */
function text(s: number): string {
  const [lo, hi] = SEGMENTS[s]!;
  if (segmentTexts[s] !== undefined) return segmentTexts[s];
  let units: Uint16Array | Uint32Array;
  if (hi <= 0xffff) {
    units = new Uint16Array(hi - lo + 1);
    for (let k = 0; k < units.length; k++) units[k] = lo + k;
  } else {
    // One surrogate pair per element, the high one first in little-endian order.
    units = new Uint32Array(hi - lo + 1);
    const first = lo - 0x10000;
    for (let k = 0; k < units.length; k++) units[k] = (0xd800 + ((first + k) >> 10)) | ((0xdc00 + ((first + k) & 0x3ff)) << 16);
  }
  return (segmentTexts[s] = new TextDecoder('utf-16le').decode(units));
}

/** The runs of code points below `limit` that `runs` (a global `(?:…)+`) matches. */
function scan(runs: RegExp, limit: number): Ranges {
  const ranges: Ranges = [];
  SEGMENTS.forEach(([lo], s) => {
    if (lo >= limit) return;
    const width = lo > 0xffff ? 2 : 1;
    const all = text(s);
    runs.lastIndex = 0;
    for (let m = runs.exec(all); m; m = runs.exec(all)) ranges.push([lo + m.index / width, lo + (m.index + m[0].length) / width - 1]);
  });
  return ranges;
}

const cache = new Map<string, Ranges>();

/** The code points a JavaScript class matches (`\p{L}`, `[\p{Nd}\p{Pc}]`); throws the engine's SyntaxError for a name it does not know. */
export function rangesOf(jsClass: string): Ranges {
  let ranges = cache.get(jsClass);
  if (ranges) return ranges;
  const one = new RegExp(`^(?:${jsClass})$`, 'u');
  ranges = scan(new RegExp(`(?:${jsClass})+`, 'gu'), Infinity);
  for (const start of UNIFORM) {
    const end = start | 0xffff;
    if (one.test(String.fromCodePoint(start))) ranges.push([start, end - 2]);
    if (one.test(String.fromCodePoint(end - 1))) ranges.push([end - 1, end]);
  }
  ranges = normalise(ranges);
  cache.set(jsClass, ranges);
  return ranges;
}

/**
 * The characters that a JavaScript class matches with the `i` flag, which in u mode compares simple case
 * folds, as regex-syntax's `(?i)` does; only where cased characters are (the rest is the class's own).
 */
export function caseInsensitiveRangesOf(jsClass: string): Ranges {
  const key = `(?i)${jsClass}`;
  let ranges = cache.get(key);
  if (!ranges) cache.set(key, (ranges = scan(new RegExp(`(?:${jsClass})+`, 'giu'), CASED_BELOW)));
  return ranges;
}

/** regex-syntax's Unicode `\d \w \s`: decimal digits, UTS #18's word characters, White_Space. */
export const PERL_CLASSES: Record<string, string> = {
  d: '\\p{Nd}',
  w: '[\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}]',
  s: '\\p{White_Space}',
};

/** The keys of `\p{key=value}`, loosely spelt (regex-syntax's matching: case, spaces, `_` and `-` ignored), as JavaScript names them. */
const KEYS: Record<string, string> = {
  gc: 'General_Category',
  generalcategory: 'General_Category',
  sc: 'Script',
  script: 'Script',
  scx: 'Script_Extensions',
  scriptextensions: 'Script_Extensions',
};

const loose = (s: string) => s.toLowerCase().replace(/[\s_-]/g, '');

/** How a loosely spelt name may be written in JavaScript, which wants the exact spelling: as given, Title_Case, UPPER. */
function spellings(name: string): string[] {
  const words = name.trim().split(/[\s_-]+/);
  const title = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()).join('_');
  return [...new Set([name.trim(), words.join('_'), title, title.toUpperCase()])].filter((s) => /^\w+$/.test(s));
}

function tryRanges(jsClass: string): Ranges | undefined {
  try {
    return rangesOf(jsClass);
  } catch (e) {
    if (e instanceof SyntaxError) return undefined;
    throw e;
  }
}

/**
 * `\p{name}` or `\p{key=value}`: a binary property, general category or script (searched in that order,
 * as regex-syntax does), or a category or script by its key; undefined for a name neither knows.
 */
export function unicodeProperty(name: string, value?: string): Ranges | undefined {
  if (value !== undefined) {
    const key = KEYS[loose(name)];
    if (!key) return undefined;
    for (const v of spellings(value)) {
      const r = tryRanges(`\\p{${key}=${v}}`);
      if (r) return r;
    }
    return undefined;
  }
  for (const v of spellings(name)) {
    const r = tryRanges(`\\p{${v}}`) ?? tryRanges(`\\p{Script=${v}}`);
    if (r) return r;
  }
  return undefined;
}
