import { describe, expect, it } from 'vitest';
import { caseFold } from './caseFolding.js';
import { type Ranges, normalise } from './codePointSets.js';
import { rangesOf, unicodeProperty } from './unicodeClasses.js';

/** Every code point a class matches, by a scan of every plane (what rangesOf shortcuts). */
function fullScan(jsClass: string): Ranges {
  const re = new RegExp(`^(?:${jsClass})$`, 'u');
  const out: Ranges = [];
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    if (re.test(String.fromCodePoint(cp))) out.push([cp, cp]);
  }
  return normalise(out);
}

const members = (ranges: Ranges) => ranges.flatMap(([lo, hi]) => Array.from({ length: hi - lo + 1 }, (_, k) => lo + k));

describe('Unicode classes read out of the JavaScript engine', () => {
  it.each(['\\p{Cn}', '\\p{Co}', '\\p{Noncharacter_Code_Point}', '\\p{Assigned}', '\\p{Default_Ignorable_Code_Point}', '\\P{L}'])(
    '%s scanned over planes 0–3 and 14 with a probe of the others equals a scan of every code point',
    (jsClass) => {
      expect(rangesOf(jsClass)).toEqual(fullScan(jsClass));
    },
  );

  it('a class is scanned once and then comes from the cache', () => {
    expect(rangesOf('\\p{Lu}')).toBe(rangesOf('\\p{Lu}'));
  });

  it.each<[string, string | undefined, string]>([
    ['Lu', undefined, '\\p{Lu}'],
    ['lu', undefined, '\\p{Lu}'],
    ['uppercase letter', undefined, '\\p{Lu}'],
    ['Uppercase-Letter', undefined, '\\p{Lu}'],
    ['ascii', undefined, '\\p{ASCII}'],
    ['white_space', undefined, '\\p{White_Space}'],
    ['greek', undefined, '\\p{Script=Greek}'],
    ['Old Italic', undefined, '\\p{Script=Old_Italic}'],
    ['gc', 'Nd', '\\p{Nd}'],
    ['General Category', 'decimal number', '\\p{Nd}'],
    ['script', 'grek', '\\p{Script=Greek}'],
    ['scx', 'Greek', '\\p{Script_Extensions=Greek}'],
  ])('\\p{%s%s} is spelt loosely, as regex-syntax allows, and means %s', (name, value, jsClass) => {
    expect(unicodeProperty(name, value)).toEqual(rangesOf(jsClass));
  });

  it.each<[string, string | undefined]>([
    ['Klingon', undefined],
    ['age', '6.0'],
    ['gc', 'Greek'],
    ['L}|.', undefined],
  ])('\\p{%s %s} is unknown, not a class', (name, value) => {
    expect(unicodeProperty(name, value)).toBeUndefined();
  });
});

describe('simple case folding read out of the JavaScript engine', () => {
  const cased = rangesOf('[\\p{Changes_When_Casemapped}\\p{Changes_When_Casefolded}]');
  const odd = Array.from('kKKsSſßẞσςΣıİiIθϑΘϴµμΜÅåǅǄǆ\u0345ιΙ\u1fbeᏸᏰꭰᎠ').map((c) => c.codePointAt(0)!);
  /** A second path through the engine: a case-insensitive backreference compares two characters' simple case folds. */
  const sameFold = (a: number, b: number) => /^(.)\1$/iu.test(String.fromCodePoint(a, b));

  it('every character with case lies in planes 0–1, the only ones folding scans', () => {
    expect(cased[cased.length - 1]![1]).toBeLessThan(0x20000);
  });

  it('each fold class holds characters with one simple case fold, and its members’ lower- and uppercase and the odd folds that share it', () => {
    const seen = new Set<number>();
    for (const c of members(cased)) {
      if (seen.has(c)) continue;
      const folded = members(caseFold([[c, c]]));
      folded.forEach((m) => seen.add(m));
      for (const m of folded) expect(sameFold(c, m), `${c.toString(16)} ~ ${m.toString(16)}`).toBe(true);
      const s = String.fromCodePoint(c);
      for (const o of [...Array.from(s.toLowerCase()), ...Array.from(s.toUpperCase())].map((x) => x.codePointAt(0)!).concat(odd)) {
        expect(folded.includes(o), `${c.toString(16)} ~ ${o.toString(16)}`).toBe(sameFold(c, o));
      }
    }
  });

  it('a set is folded by adding each member’s class: [a-z] gains A-Z, ſ and the Kelvin sign', () => {
    expect(caseFold([[0x61, 0x7a]])).toEqual(
      normalise([
        [0x41, 0x5a],
        [0x61, 0x7a],
        [0x17f, 0x17f],
        [0x212a, 0x212a],
      ]),
    );
  });
});
