import { FormatError } from '../../errors.js';
import { caseFold } from './caseFolding.js';
import { MAX_CP, type Ranges, complement, intersect, normalise, single, subtract, symmetricDifference } from './codePointSets.js';
import { PERL_CLASSES, rangesOf, unicodeProperty } from './unicodeClasses.js';

/** The flags that change what matches: `i` case folding, `s` a `.` that matches `\n`, `x` spaces and `#` comments ignored. */
export interface Flags {
  i: boolean;
  s: boolean;
  x: boolean;
}

/** What an escape denotes: one character, a class, or (`\x80`–`\xFF` outside a class) one raw byte. */
export type Escaped = { cp: number } | { ranges: Ranges } | { byte: number };

const SIMPLE_ESCAPES: Record<string, number> = { n: 0x0a, t: 0x09, r: 0x0d, f: 0x0c, v: 0x0b, a: 0x07, '0': 0 };
const ZERO_WIDTH: Record<string, string> = { b: 'word boundary', B: 'word boundary', A: 'anchor', z: 'anchor', '<': 'word boundary', '>': 'word boundary' };
/** regex-syntax's `[[:name:]]` classes, ASCII by definition. */
const ASCII_CLASSES: Record<string, Ranges> = {
  alnum: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  alpha: [
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  ascii: [[0x00, 0x7f]],
  blank: [
    [0x09, 0x09],
    [0x20, 0x20],
  ],
  cntrl: [
    [0x00, 0x1f],
    [0x7f, 0x7f],
  ],
  digit: [[0x30, 0x39]],
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [
    [0x21, 0x2f],
    [0x3a, 0x40],
    [0x5b, 0x60],
    [0x7b, 0x7e],
  ],
  space: [
    [0x09, 0x0d],
    [0x20, 0x20],
  ],
  upper: [[0x41, 0x5a]],
  word: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x5f, 0x5f],
    [0x61, 0x7a],
  ],
  xdigit: [
    [0x30, 0x39],
    [0x41, 0x46],
    [0x61, 0x66],
  ],
};
const MAX_NESTING = 250;
const SET_OPERATORS: Record<string, (a: Ranges, b: Ranges) => Ranges> = { '&': intersect, '-': subtract, '~': symmetricDifference };

/** The pattern's code points, the position in them, the flags in force, and the grammar rules that denote sets of characters. */
export class ClassParser {
  protected readonly cps: number[];
  protected i = 0;
  protected flags: Flags = { i: false, s: false, x: false };
  /** How many groups, classes and repetitions enclose the position. */
  protected depth = 0;

  constructor(src: string) {
    this.cps = Array.from(src, (c) => c.codePointAt(0)!);
  }

  protected err(msg: string, at = this.i, code: 'corrupt' | 'limit' = 'corrupt'): never {
    throw new FormatError(code, `regex: ${msg} at character ${at}`, { field: 'regex' });
  }

  /** Groups, classes and repetitions of repetitions are parsed (and compiled) recursively: their nesting is capped, as regex-syntax caps it. */
  protected nested<T>(at: number, parse: () => T): T {
    this.checkDepth(1, at);
    this.depth++;
    const inner = parse();
    this.depth--;
    return inner;
  }

  /** Fails when `more` levels inside the position would pass the cap. */
  protected checkDepth(more: number, at: number): void {
    if (this.depth + more > MAX_NESTING) this.err(`nesting deeper than ${MAX_NESTING}`, at, 'limit');
  }

  protected peek(ahead = 0): number | undefined {
    return this.cps[this.i + ahead];
  }

  protected eat(c: string): boolean {
    if (this.cps[this.i] !== c.codePointAt(0)) return false;
    this.i++;
    return true;
  }

  protected text(from: number, to = this.i): string {
    return String.fromCodePoint(...this.cps.slice(from, to));
  }

  /** In `x` mode, spaces and `#` comments up to the end of the line mean nothing, in a class too. */
  protected skipSpace(): void {
    if (!this.flags.x) return;
    for (let c = this.peek(); c !== undefined; c = this.peek()) {
      if (c === 0x23) while (this.i < this.cps.length && this.cps[this.i++] !== 0x0a);
      else if (/\p{White_Space}/u.test(String.fromCodePoint(c))) this.i++;
      else return;
    }
  }

  /** A set under the flags in force: with `i`, closed under case folding. */
  protected folded(ranges: Ranges): Ranges {
    return this.flags.i ? caseFold(ranges) : ranges;
  }

  /** escape, after its backslash. */
  protected escape(inClass: boolean): Escaped {
    const at = this.i - 1;
    const c = this.cps[this.i++];
    if (c === undefined) return this.err('trailing backslash', at);
    const ch = String.fromCodePoint(c);
    const perl = PERL_CLASSES[ch.toLowerCase()];
    if (perl) return { ranges: ch === ch.toLowerCase() ? rangesOf(perl) : complement(rangesOf(perl)) };
    if (ch === 'p' || ch === 'P') return { ranges: this.property(ch === 'P', at) };
    if (ch === 'x') return this.hex(inClass, at);
    if (ch === 'u' || ch === 'U') return { cp: this.codePoint(ch === 'u' ? 4 : 8, at) };
    if (ZERO_WIDTH[ch]) return this.err(`${ZERO_WIDTH[ch]} \\${ch} is not supported`, at);
    if (/[1-9]/.test(ch) || ch === 'k') return this.err(`backreference \\${ch} is not supported`, at);
    if (ch === '0' && /[0-7]/.test(String.fromCodePoint(this.peek() ?? 0x20))) return this.err('octal escape \\0… is not supported', at);
    const v = SIMPLE_ESCAPES[ch] ?? (/[A-Za-z0-9]/.test(ch) ? this.err(`unknown escape \\${ch}`, at) : c);
    return { cp: v };
  }

  /** `\pL`, `\p{name}`, `\p{key=value}` (or `:`, or `!=` for the complement), after the p. */
  private property(negate: boolean, at: number): Ranges {
    let body: string;
    if (this.eat('{')) {
      const start = this.i;
      while (this.i < this.cps.length && this.peek() !== 0x7d) this.i++;
      if (!this.eat('}')) this.err('missing } of \\p{…}', at);
      body = this.text(start, this.i - 1);
    } else body = String.fromCodePoint(this.cps[this.i++] ?? this.err('\\p needs a name', at));
    const m = /^([^=:!]*)(!?)[=:](.*)$/.exec(body);
    if (m?.[2]) negate = !negate;
    const ranges = m ? unicodeProperty(m[1]!, m[3]!) : unicodeProperty(body);
    if (!ranges) return this.err(`unknown Unicode property \\p{${body}}`, at);
    const f = this.folded(ranges);
    return negate ? complement(f) : f;
  }

  /** `\xHH` or `\x{…}`, after the x: a character, or outside a class a raw byte for HH above 7f. */
  private hex(inClass: boolean, at: number): Escaped {
    if (this.peek() === 0x7b) return { cp: this.codePoint(0, at) };
    const h = this.text(this.i, this.i + 2);
    if (!/^[0-9a-fA-F]{2}$/.test(h)) this.err('\\x needs two hex digits', at);
    this.i += 2;
    const b = parseInt(h, 16);
    if (b < 0x80) return { cp: b };
    return inClass ? this.err('\\xHH above 7f is a raw byte and cannot go in a class', at) : { byte: b };
  }

  /** `{…}` or exactly `digits` hex digits (0: braces required), after the escape's letter. */
  private codePoint(digits: number, at: number): number {
    const braced = this.eat('{');
    if (!braced && digits === 0) this.err('bad \\x{…}', at);
    const start = this.i;
    while (this.i < this.cps.length && (braced ? this.peek() !== 0x7d : this.i - start < digits)) this.i++;
    const h = this.text(start);
    const cp = /^[0-9a-fA-F]+$/.test(h) ? parseInt(h, 16) : NaN;
    if ((braced && !this.eat('}')) || !(cp >= 0 && cp <= MAX_CP) || (cp >= 0xd800 && cp <= 0xdfff)) this.err('bad code point escape', at);
    return cp;
  }

  /** class := '[' '^'? operand (('&&' | '--' | '~~') operand)* ']', after its '['; folded, then negated. */
  protected cls(): Ranges {
    const at = this.i - 1;
    const negate = this.eat('^');
    let ranges = this.union(true);
    for (let op = this.operator(); op; op = this.operator()) ranges = op(ranges, this.union(false));
    if (!this.eat(']')) this.err('missing ]', at);
    const f = this.folded(ranges);
    return negate ? complement(f) : f;
  }

  private operator(): ((a: Ranges, b: Ranges) => Ranges) | undefined {
    const c = this.peek();
    if (c === undefined || c !== this.peek(1)) return undefined;
    const op = SET_OPERATORS[String.fromCodePoint(c)];
    if (op) this.i += 2;
    return op;
  }

  /** operand := item*, up to ']' or an operator; a ']' or '-' first is a literal. */
  private union(first: boolean): Ranges {
    const ranges: Ranges = [];
    for (this.skipSpace(); this.i < this.cps.length; this.skipSpace(), first = false) {
      const c = this.peek()!;
      if ((c === 0x5d && !first) || (c === this.peek(1) && SET_OPERATORS[String.fromCodePoint(c)] && !(first && c === 0x2d))) break;
      ranges.push(...this.classItem());
    }
    return normalise(ranges);
  }

  /** item := '[:name:]' | '[' nested class | escape | char ('-' char)? */
  private classItem(): Ranges {
    const at = this.i;
    if (this.eat('[')) {
      const ascii = /^:(\^?)([a-z]+):\]/.exec(this.text(this.i, this.i + 12));
      if (!ascii) return this.nested(at, () => this.cls());
      const set = ASCII_CLASSES[ascii[2]!] ?? this.err(`unknown ASCII class [:${ascii[2]}:]`, at);
      this.i += ascii[0].length;
      return ascii[1] ? complement(set) : set;
    }
    const lo = this.classChar();
    if (typeof lo !== 'number') return lo;
    this.skipSpace();
    if (this.peek() !== 0x2d || this.peek(1) === undefined || this.peek(1) === 0x5d || this.peek(1) === 0x2d) return single(lo);
    this.i++;
    this.skipSpace();
    const hi = this.classChar();
    if (typeof hi !== 'number') return this.err('a class range must end in a character', at);
    if (hi < lo) this.err('class range out of order', at);
    return [[lo, hi]];
  }

  /** One character, or the class an escape such as `\d` denotes. */
  private classChar(): number | Ranges {
    if (!this.eat('\\')) return this.cps[this.i++]!;
    const e = this.escape(true);
    return 'cp' in e ? e.cp : 'ranges' in e ? e.ranges : this.err('raw byte in a class');
  }
}
