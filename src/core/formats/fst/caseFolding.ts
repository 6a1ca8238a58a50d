import { type Ranges, normalise } from './codePointSets.js';
import { caseInsensitiveRangesOf } from './unicodeClasses.js';

/**
 * `(?i)`: a set closed under simple case folding, as regex-syntax does: a character stands for every
 * character with the same simple case fold (`k`, `K` and the Kelvin sign K; `ß` and `ẞ`, but not `ı` and
 * `I`). JavaScript's u-mode `i` flag has the same rule, so the set, written as a class, is run with it over
 * the characters that have case.
 */
export function caseFold(ranges: Ranges): Ranges {
  if (ranges.length === 0) return ranges;
  const cls = `[${ranges.map(([lo, hi]) => `\\u{${lo.toString(16)}}-\\u{${hi.toString(16)}}`).join('')}]`;
  return normalise([...ranges, ...caseInsensitiveRangesOf(cls)]);
}
