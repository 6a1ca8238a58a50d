import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../errors.js';
import { regexAutomaton } from './regex.js';

/** Whether the pattern matches the whole key, stepping the automaton over its UTF-8 bytes. */
function matches(pattern: string, key: string): boolean {
  const a = regexAutomaton(pattern);
  let s = a.start();
  for (const b of new TextEncoder().encode(key)) s = a.accept(s, b);
  return a.isMatch(s);
}

function failure(pattern: string): FormatError {
  try {
    regexAutomaton(pattern);
  } catch (e) {
    if (e instanceof FormatError) return e;
    throw e;
  }
  throw new Error(`${pattern} was accepted`);
}

describe('regex classes of the fst crate (regex-syntax, Unicode on)', () => {
  it.each<[string, string, boolean]>([
    ['\\d', '٣', true],
    ['\\d', '²', false],
    ['\\w+', 'straße_日本語', true],
    ['\\w', 'é', true],
    ['\\w', '-', false],
    ['\\s', '\u3000', true],
    ['\\s', '\u200b', false],
    ['\\S', 'a', true],
    ['[\\w-]+', 'ü-x', true],
  ])('\\d \\w \\s are Unicode: %s on %j is %s', (pattern, key, expected) => {
    expect(matches(pattern, key)).toBe(expected);
  });

  it.each<[string, string, boolean]>([
    ['\\p{Greek}+', 'αβγ', true],
    ['\\pL\\pN', 'ж٣', true],
    ['\\p{L}', '1', false],
    ['\\P{L}', '1', true],
    ['\\p{Script=Cyrillic}', 'ж', true],
    ['\\p{sc:cyrl}', 'ж', true],
    ['\\p{scx=Greek}', '\u0342', true],
    ['\\p{gc!=Lu}', 'a', true],
    ['\\p{Uppercase Letter}', 'Ж', true],
    ['\\p{greek}', 'Ω', true],
    ['\\p{Any}', '\u{10fffd}', true],
    ['[\\p{Han}\\p{Hiragana}]+', '日本です', true],
  ])('\\p{…} classes by category, script or property, spelt loosely: %s on %j is %s', (pattern, key, expected) => {
    expect(matches(pattern, key)).toBe(expected);
  });
});

describe('regex flags of the fst crate', () => {
  it.each<[string, string, boolean]>([
    ['(?i)straße', 'STRAẞE', true],
    ['(?i)k', '\u212a', true],
    ['(?i)ı', 'I', false],
    ['(?i)σ', 'ς', true],
    ['(?i)[a-z]+', 'ſK', true],
    ['(?i)[^k]', '\u212a', false],
    ['(?i)\\p{Lu}', 'a', true],
    ['(?i)\\P{Lu}', 'a', false],
    ['a(?i)b|c', 'C', true],
    ['(?i:a)b', 'Ab', true],
    ['(?i:a)b', 'AB', false],
    ['(?i)a(?-i)b', 'AB', false],
    ['(?i)a(?-i:b)c', 'AbC', true],
    ['(a(?i)b)c', 'aBC', false],
  ])('(?i) folds simple case, scoped to its group: %s on %j is %s', (pattern, key, expected) => {
    expect(matches(pattern, key)).toBe(expected);
  });

  it.each<[string, string, boolean]>([
    ['.', '\n', false],
    ['(?s).', '\n', true],
    ['(?s:.)\\n.', '\n\n', false],
    ['(?x) a b  # a comment\n c', 'abc', true],
    ['(?x)[ a b ]+', 'ab', true],
    ['(?x)a\\ b', 'a b', true],
    ['(?x)a{ 1 , 2 }', 'aa', true],
    ['(?mU)a+', 'aa', true],
    ['(?u)\\w', 'é', true],
    ['(?P<x>a)(?<y>b)', 'ab', true],
    ['^a$|^b$', 'b', true],
    ['(?i)^a', 'A', true],
  ])('flags s x (m U u change nothing), named groups and anchors at the ends: %j on %j is %s', (pattern, key, expected) => {
    expect(matches(pattern, key)).toBe(expected);
  });
});

describe('regex bracket classes and escapes of the fst crate', () => {
  it.each<[string, string, boolean]>([
    ['[a-z&&[^aeiou]]+', 'xyz', true],
    ['[a-z&&[^aeiou]]+', 'xaz', false],
    ['[\\pL--\\p{Greek}]', 'α', false],
    ['[\\pL--\\p{Greek}]', 'a', true],
    ['[a-c~~b-d]+', 'ad', true],
    ['[a-c~~b-d]', 'b', false],
    ['[[:alpha:][:digit:]]+', 'a1', true],
    ['[[:^alpha:]]', 'a', false],
    ['[[:alpha:]]', 'é', false],
    ['[]a]+', ']a', true],
    ['[^]a]', ']', false],
    ['[a-]+', 'a-', true],
    ['[a[bc]]+', 'abc', true],
  ])('classes: nesting, && -- ~~, [:ascii:] names, a ] or - taken literally: %s on %j is %s', (pattern, key, expected) => {
    expect(matches(pattern, key)).toBe(expected);
  });

  it.each<[string, string, boolean]>([
    ['\\x{e9}', 'é', true],
    ['\\u00e9', 'é', true],
    ['\\U0001F600', '😀', true],
    ['\\u{1F600}', '😀', true],
    ['\\x41', 'A', true],
    ['\\a', '\x07', true],
    ['\\0', '\0', true],
  ])('code point escapes: %s on %j is %s', (pattern, key, expected) => {
    expect(matches(pattern, key)).toBe(expected);
  });
});

describe('regex constructs the fst crate lacks', () => {
  it.each<[string, string, number]>([
    ['a(?=b)', 'look-around (?=', 1],
    ['a(?!b)', 'look-around (?!', 1],
    ['(?<=a)b', 'look-around (?<=', 0],
    ['x(?<!a)b', 'look-around (?<!', 1],
    ['(a)\\1', 'backreference \\1', 3],
    ['(?P<n>a)\\k<n>', 'backreference \\k', 8],
    ['(?P<n>a)(?P=n)', 'backreference (?P=name)', 8],
    ['a\\bc', 'word boundary \\b', 1],
    ['a\\B', 'word boundary \\B', 1],
    ['\\<a', 'word boundary \\<', 0],
    ['\\Aa', 'anchor \\A', 0],
    ['a\\z', 'anchor \\z', 1],
    ['a^b', 'anchor ^', 1],
    ['(a$)', 'anchor $', 2],
    ['a$b', 'anchor $', 1],
    ['(?-u)a', '(?-u)', 0],
    ['ab(?q)', 'bad flags (?q)', 2],
    ['(?i-)a', 'bad flags (?i-)', 0],
    ['(?ii)a', 'bad flags (?ii', 0],
    ['(?#c)a', 'group (?#', 0],
    ['(?>a)', 'group (?>', 0],
    ['\\p{Klingon}', 'unknown Unicode property \\p{Klingon}', 0],
    ['\\p{Age=6.0}', 'unknown Unicode property \\p{Age=6.0}', 0],
    ['x[[:word:][:alphabet:]]', 'unknown ASCII class [:alphabet:]', 10],
    ['\\q', 'unknown escape \\q', 0],
    ['a\\012', 'octal escape \\0', 1],
    ['{2}', 'nothing to repeat', 0],
    ['\\u{d800}', 'bad code point escape', 0],
  ])('%s is refused, naming %s at character %i', (pattern, construct, at) => {
    const e = failure(pattern);
    expect(e.field).toBe('regex');
    expect(e.detail).toContain(construct);
    expect(e.detail).toMatch(new RegExp(`at character ${at}$`));
  });
});

describe('hostile regex patterns', () => {
  it.each(['('.repeat(5000), '['.repeat(5000), `a${'*'.repeat(5000)}`, `${'(?:'.repeat(200)}[${'['.repeat(60)}`])(
    'nesting past 250 levels is refused as a limit, not a stack overflow (%#)',
    (pattern) => {
      const e = failure(pattern);
      expect(e.code).toBe('limit');
      expect(e.detail).toContain('nesting deeper than 250');
    },
  );

  it('any string of regex punctuation either compiles or fails with a FormatError', () => {
    const piece = fc.constantFrom(
      '(',
      ')',
      '[',
      ']',
      '{',
      '}',
      '?',
      '*',
      '+',
      '|',
      '^',
      '$',
      '\\',
      '-',
      '&&',
      '~~',
      '--',
      ':',
      '=',
      '!',
      '<',
      '>',
      'P',
      'p',
      'x',
      'u',
      'i',
      's',
      '#',
      ' ',
      'a',
      '1',
      ',',
      '{1,2}',
      '[:alpha:]',
      '\\p{L}',
      '(?i)',
      '(?x)',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), (pieces) => {
        try {
          regexAutomaton(pieces.join(''));
        } catch (e) {
          expect(e).toBeInstanceOf(FormatError);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
