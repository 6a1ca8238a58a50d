import { FormatError } from '../../errors.js';

/** A parsed regex (syntax: regex.ts): sets of code points, raw bytes, and how they combine. */
export type Ast =
  | { t: 'set'; ranges: [number, number][] }
  | { t: 'byte'; lo: number; hi: number }
  | { t: 'cat'; items: Ast[] }
  | { t: 'alt'; items: Ast[] }
  | { t: 'rep'; item: Ast; min: number; max: number };

export const MAX_CP = 0x10ffff;
const MAX_REPEAT = 1000;

type Ranges = [number, number][];

/** `\d \w \s`; their capitals are the complements. */
const NAMED: Record<string, Ranges> = {
  d: [[0x30, 0x39]],
  w: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x5f, 0x5f],
    [0x61, 0x7a],
  ],
  s: [
    [0x09, 0x0d],
    [0x20, 0x20],
  ],
};
const SIMPLE_ESCAPES: Record<string, number> = { n: 0x0a, t: 0x09, r: 0x0d, f: 0x0c, v: 0x0b, '0': 0 };

/** Parses a pattern: a leading `^` and a trailing `$` change nothing, as the match is always whole. */
export function parseRegex(src: string): Ast {
  return new Parser(src).pattern();
}

/** A recursive-descent parser over the pattern's code points, one method per grammar rule. */
class Parser {
  private readonly cps: number[];
  private i = 0;

  constructor(src: string) {
    this.cps = Array.from(src, (c) => c.codePointAt(0)!);
  }

  private err(msg: string): never {
    throw new FormatError('corrupt', `regex: ${msg} at character ${this.i}`, { field: 'regex' });
  }

  private peek(): number | undefined {
    return this.cps[this.i];
  }

  private eat(c: string): boolean {
    if (this.cps[this.i] !== c.codePointAt(0)) return false;
    this.i++;
    return true;
  }

  /** pattern := '^'? alt, all of the input. */
  pattern(): Ast {
    this.eat('^');
    const ast = this.alt();
    if (this.i < this.cps.length) this.err(this.cps[this.i] === 0x29 ? 'unmatched )' : 'unexpected character');
    return ast;
  }

  /** alt := cat ('|' cat)* */
  private alt(): Ast {
    const items = [this.cat()];
    while (this.eat('|')) items.push(this.cat());
    return items.length === 1 ? items[0]! : { t: 'alt', items };
  }

  /** cat := repeat* up to '|', ')' or the end; a '$' that ends the pattern ends it. */
  private cat(): Ast {
    const items: Ast[] = [];
    while (this.i < this.cps.length && this.peek() !== 0x7c && this.peek() !== 0x29) {
      if (this.peek() === 0x24 && this.i === this.cps.length - 1) {
        this.i++;
        break;
      }
      items.push(this.repeat(this.atom()));
    }
    return items.length === 1 ? items[0]! : { t: 'cat', items };
  }

  /** repeat := atom ('*' | '+' | '?' | '{' bounds '}')* each with an optional lazy '?'. */
  private repeat(item: Ast): Ast {
    for (;;) {
      let bounds: [number, number];
      if (this.eat('*')) bounds = [0, Infinity];
      else if (this.eat('+')) bounds = [1, Infinity];
      else if (this.eat('?')) bounds = [0, 1];
      else if (this.peek() === 0x7b) bounds = this.bounds();
      else return item;
      this.eat('?');
      item = { t: 'rep', item, min: bounds[0], max: bounds[1] };
    }
  }

  /** bounds := '{' n (',' m?)? '}' */
  private bounds(): [number, number] {
    this.i++;
    const min = this.number();
    let max = min;
    if (this.eat(',')) max = this.peek() === 0x7d ? Infinity : this.number();
    if (!this.eat('}')) this.err('expected }');
    if (max < min) this.err(`bad repetition {${min},${max}}`);
    if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT)) this.err(`repetition above ${MAX_REPEAT}`);
    return [min, max];
  }

  private number(): number {
    const start = this.i;
    while (this.i < this.cps.length && this.cps[this.i]! >= 0x30 && this.cps[this.i]! <= 0x39) this.i++;
    if (start === this.i) this.err('expected a number');
    return Number(String.fromCodePoint(...this.cps.slice(start, this.i)));
  }

  /** atom := group | '.' | class | escape | a literal character */
  private atom(): Ast {
    const c = this.cps[this.i++];
    if (c === undefined) return this.err('unexpected end');
    switch (c) {
      case 0x28:
        return this.group();
      case 0x2e:
        return { t: 'set', ranges: complement([[0x0a, 0x0a]]) };
      case 0x5b:
        return this.cls();
      case 0x5c:
        return this.escape(false) as Ast;
      case 0x2a:
      case 0x2b:
      case 0x3f:
        return this.err('nothing to repeat');
      default:
        return { t: 'set', ranges: [[c, c]] };
    }
  }

  /** group := '(' ('?:')? alt ')', after its '('. */
  private group(): Ast {
    if (this.eat('?')) {
      if (!this.eat(':')) this.err('only (?: …) groups are supported');
    }
    const inner = this.alt();
    if (!this.eat(')')) this.err('missing )');
    return inner;
  }

  /** escape, after its backslash: ranges inside a class, an atom outside. */
  private escape(inClass: boolean): Ast | Ranges {
    const c = this.cps[this.i++];
    if (c === undefined) return this.err('trailing backslash');
    const ch = String.fromCodePoint(c);
    const named = NAMED[ch] ?? (NAMED[ch.toLowerCase()] ? complement(NAMED[ch.toLowerCase()]!) : undefined);
    if (named) return inClass ? named : { t: 'set', ranges: named };
    if (ch === 'x') return this.hexByte(inClass);
    if (ch === 'u' && this.eat('{')) {
      const cp = this.codePoint();
      return inClass ? [[cp, cp]] : { t: 'set', ranges: [[cp, cp]] };
    }
    const v = SIMPLE_ESCAPES[ch] ?? (/[A-Za-z0-9]/.test(ch) ? this.err(`unknown escape \\${ch}`) : c);
    return inClass ? [[v, v]] : { t: 'set', ranges: [[v, v]] };
  }

  /** `\xHH`, after the x: one raw byte (in a class, only an ASCII one). */
  private hexByte(inClass: boolean): Ast | Ranges {
    const h = String.fromCodePoint(...this.cps.slice(this.i, this.i + 2));
    if (!/^[0-9a-fA-F]{2}$/.test(h)) this.err('\\x needs two hex digits');
    this.i += 2;
    const b = parseInt(h, 16);
    if (inClass) return b < 0x80 ? [[b, b]] : this.err('\\xHH above 7f is a raw byte and cannot go in a class');
    return { t: 'byte', lo: b, hi: b };
  }

  /** `\u{…}`, after the '{'. */
  private codePoint(): number {
    const start = this.i;
    while (this.i < this.cps.length && this.cps[this.i] !== 0x7d) this.i++;
    const cp = parseInt(String.fromCodePoint(...this.cps.slice(start, this.i)), 16);
    if (!this.eat('}') || !(cp >= 0 && cp <= MAX_CP)) this.err('bad \\u{…}');
    return cp;
  }

  /** class := '[' '^'? item+ ']', after its '['; a ']' first is a literal. */
  private cls(): Ast {
    const negate = this.eat('^');
    const ranges: Ranges = [];
    let first = true;
    while (this.i < this.cps.length && (first || this.peek() !== 0x5d)) {
      first = false;
      this.classItem(ranges);
    }
    if (!this.eat(']')) this.err('missing ]');
    return { t: 'set', ranges: negate ? complement(ranges) : ranges };
  }

  /** item := char ('-' char)? | a named escape, added to `ranges`. */
  private classItem(ranges: Ranges): void {
    let lo: number;
    if (this.peek() === 0x5c) {
      this.i++;
      const r = this.escape(true) as Ranges;
      if (r.length !== 1 || r[0]![0] !== r[0]![1]) {
        ranges.push(...r);
        return;
      }
      lo = r[0]![0];
    } else lo = this.cps[this.i++]!;
    let hi = lo;
    if (this.peek() === 0x2d && this.cps[this.i + 1] !== undefined && this.cps[this.i + 1] !== 0x5d) {
      this.i++;
      if (this.peek() === 0x5c) {
        this.i++;
        hi = (this.escape(true) as Ranges)[0]![0];
      } else hi = this.cps[this.i++]!;
      if (hi < lo) this.err('class range out of order');
    }
    ranges.push([lo, hi]);
  }
}

/** Sorted, overlapping and touching ranges merged. */
export function normalise(ranges: Ranges): Ranges {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Ranges = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

function complement(ranges: Ranges): Ranges {
  const out: Ranges = [];
  let next = 0;
  for (const [lo, hi] of normalise(ranges)) {
    if (lo > next) out.push([next, lo - 1]);
    next = Math.max(next, hi + 1);
  }
  if (next <= MAX_CP) out.push([next, MAX_CP]);
  return out;
}
