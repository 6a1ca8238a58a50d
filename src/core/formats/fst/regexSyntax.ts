import { complement, single } from './codePointSets.js';
import { ClassParser, type Flags } from './regexClass.js';

export { MAX_CP, normalise } from './codePointSets.js';

/** A parsed regex: sets of code points, raw bytes, and how they combine. */
export type Ast =
  | { t: 'set'; ranges: [number, number][] }
  | { t: 'byte'; lo: number; hi: number }
  | { t: 'cat'; items: Ast[] }
  | { t: 'alt'; items: Ast[] }
  | { t: 'rep'; item: Ast; min: number; max: number };

const MAX_REPEAT = 1000;
/** Flags that change nothing for a whole-key match: `m` (`^ $` are only allowed at the ends), `U` (greed), `u` (already on). */
const INERT_FLAGS = 'mUu';

/**
 * Parses a pattern with the meaning the fst crate's regex gives it (regex-syntax, Unicode on): `\d \w \s`
 * and `\p{…}` are Unicode classes, `(?i)` folds simple case, flags `i s x` (and `m U u`, which change nothing
 * here) go in `(?flags)` or `(?flags:…)`, classes nest and take `&& -- ~~` and `[:ascii:]` names. `^` and `$`
 * are allowed only where they change nothing, as the match is always whole. `\x80`–`\xFF` outside a class
 * stay one raw byte each, for keys that are not UTF-8 (regex-syntax means U+0080–U+00FF). Look-around and
 * backreferences (regex-syntax has neither), word boundaries and anchors inside the pattern (fst's regex
 * refuses them) fail naming the construct and its offset.
 */
export function parseRegex(src: string): Ast {
  return new Parser(src).pattern();
}

/** A recursive-descent parser over the pattern's code points, one method per grammar rule (sets of characters: regexClass.ts). */
class Parser extends ClassParser {
  /** pattern := alt, all of the input. */
  pattern(): Ast {
    const ast = this.alt();
    if (this.i < this.cps.length) this.err(this.peek() === 0x29 ? 'unmatched )' : 'unexpected character');
    return ast;
  }

  /** alt := cat ('|' cat)* */
  private alt(): Ast {
    const items = [this.cat()];
    while (this.eat('|')) items.push(this.cat());
    return items.length === 1 ? items[0]! : { t: 'alt', items };
  }

  /** cat := '^'? repeat* '$'?, up to '|', ')' or the end; the anchors only where a whole key starts or ends. */
  private cat(): Ast {
    const items: Ast[] = [];
    for (this.skipSpace(); this.i < this.cps.length && this.peek() !== 0x7c && this.peek() !== 0x29; this.skipSpace()) {
      if (this.peek() === 0x5e && this.depth === 0 && items.length === 0) {
        this.i++;
        continue;
      }
      if (this.peek() === 0x24 && this.depth === 0) {
        this.i++;
        this.skipSpace();
        if (this.i < this.cps.length && this.peek() !== 0x7c) this.err('anchor $ before the end is not supported', this.i - 1);
        break;
      }
      const atom = this.atom();
      if (atom) items.push(this.repeat(atom));
    }
    return items.length === 1 ? items[0]! : { t: 'cat', items };
  }

  /** repeat := atom ('*' | '+' | '?' | '{' bounds '}')* each with an optional lazy '?'. */
  private repeat(item: Ast): Ast {
    for (let chain = 0; ; ) {
      this.skipSpace();
      let bounds: [number, number];
      if (this.eat('*')) bounds = [0, Infinity];
      else if (this.eat('+')) bounds = [1, Infinity];
      else if (this.eat('?')) bounds = [0, 1];
      else if (this.peek() === 0x7b) bounds = this.bounds();
      else return item;
      this.skipSpace();
      this.eat('?');
      this.checkDepth(++chain, this.i - 1);
      item = { t: 'rep', item, min: bounds[0], max: bounds[1] };
    }
  }

  /** bounds := '{' n (',' m?)? '}' */
  private bounds(): [number, number] {
    const at = this.i++;
    const min = this.number();
    let max = min;
    if (this.eat(',')) {
      this.skipSpace();
      max = this.peek() === 0x7d ? Infinity : this.number();
    }
    if (!this.eat('}')) this.err('expected }');
    if (max < min) this.err(`bad repetition {${min},${max}}`, at);
    if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT)) this.err(`repetition above ${MAX_REPEAT}`, at);
    return [min, max];
  }

  private number(): number {
    this.skipSpace();
    const start = this.i;
    while (this.i < this.cps.length && this.cps[this.i]! >= 0x30 && this.cps[this.i]! <= 0x39) this.i++;
    if (start === this.i) this.err('expected a number');
    const n = Number(this.text(start));
    this.skipSpace();
    return n;
  }

  /** atom := group | '.' | class | escape | a literal character; undefined for a group that only sets flags. */
  private atom(): Ast | undefined {
    const at = this.i;
    const c = this.cps[this.i++]!;
    switch (c) {
      case 0x28:
        return this.group(at);
      case 0x2e:
        return { t: 'set', ranges: this.flags.s ? complement([]) : complement(single(0x0a)) };
      case 0x5b:
        return { t: 'set', ranges: this.cls() };
      case 0x5c: {
        const e = this.escape(false);
        if ('byte' in e) return { t: 'byte', lo: e.byte, hi: e.byte };
        return { t: 'set', ranges: 'cp' in e ? this.folded(single(e.cp)) : e.ranges };
      }
      case 0x2a:
      case 0x2b:
      case 0x3f:
      case 0x7b:
        return this.err('nothing to repeat', at);
      case 0x5e:
        return this.err('anchor ^ after the start is not supported', at);
      case 0x24:
        return this.err('anchor $ inside a group is not supported', at);
      default:
        return { t: 'set', ranges: this.folded(single(c)) };
    }
  }

  /** group := '(' ('?:' | '?P<name>' | '?<name>' | '?flags:')? alt ')' | '(?flags)', after its '('. */
  private group(at: number): Ast | undefined {
    const saved = { ...this.flags };
    if (this.eat('?')) {
      const name = /^P?<([A-Za-z_][\w.[\]]*)>/.exec(this.text(this.i, this.i + 40));
      if (name) this.i += name[0].length;
      else if (this.peek() !== 0x3a && this.setFlags(at)) return undefined;
      else if (!this.eat(':')) this.unsupportedGroup(at);
    }
    const inner = this.nested(at, () => this.alt());
    if (!this.eat(')')) this.err('missing )', at);
    this.flags = saved;
    return inner;
  }

  /** flags := [imsxuU]* ('-' [imsxuU]*)? then ')' (true: for the rest of the group) or ':' (false: a group follows). */
  private setFlags(at: number): boolean {
    let on = true;
    const seen = new Set<string>();
    for (let c = this.peek(); c !== undefined && c !== 0x29 && c !== 0x3a; c = this.peek()) {
      const ch = String.fromCodePoint(c);
      if (ch === '-' && on) on = false;
      else if (!'imsxuU'.includes(ch) || seen.has(ch)) this.unsupportedGroup(at);
      else if (ch === 'u' && !on) this.err('(?-u), matching bytes rather than characters, is not supported', at);
      else if (!INERT_FLAGS.includes(ch)) this.flags[ch as keyof Flags] = on;
      seen.add(ch);
      this.i++;
    }
    if (this.i === at + 2 || this.cps[this.i - 1] === 0x2d) this.unsupportedGroup(at);
    return this.eat(')');
  }

  /** Names the construct: look-around, a backreference by name, bad flags or another kind of group. */
  private unsupportedGroup(at: number): never {
    const look = /^\(\?<?[=!]/.exec(this.text(at, at + 4));
    if (look) return this.err(`look-around ${look[0]} is not supported`, at);
    if (this.text(at, at + 4) === '(?P=') return this.err('backreference (?P=name) is not supported', at);
    const flags = /^\(\?[^:)]*[:)]?/.exec(this.text(at, at + 12))![0];
    return this.err(/^\(\?[A-Za-z-]+[:)]$/.test(flags) ? `bad flags ${flags} (flags: i m s x u U)` : `group ${this.text(at, at + 3)}… is not supported`, at);
  }
}
