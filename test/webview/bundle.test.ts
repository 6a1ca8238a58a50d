import { getL10nJson } from '@vscode/l10n-dev';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * l10n/bundle.l10n.json is what translators get and what VS Code looks keys up against: these
 * tests fail when a string was added or changed without `npm run l10n`, or written in a form the
 * exporter cannot see.
 */
const ROOT = resolve(__dirname, '../..');
const BUNDLE: Record<string, string | { message: string; comment: string[] }> = JSON.parse(readFileSync(join(ROOT, 'l10n/bundle.l10n.json'), 'utf8'));

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|js|tsx)$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => join(ROOT, dir, f))
    .sort();
}

/** A quoted JS string literal at `at` (the opening quote): its value and where it ends. */
function literal(text: string, at: number): { value: string; end: number } | undefined {
  const quote = text[at];
  if (quote !== "'" && quote !== '"') return undefined;
  let body = '';
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\') {
      body += c + text[++i];
      continue;
    }
    if (c === quote) {
      const json = quote === '"' ? body : body.replace(/\\'/g, "'").replace(/(^|[^\\])"/g, '$1\\"');
      return { value: JSON.parse(`"${json}"`) as string, end: i + 1 };
    }
    body += c;
  }
  return undefined;
}

/** The source with its comments blanked (line numbers kept), so a doc comment's example is not a call. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/^(\s*)\/\/.*$/gm, '$1');
}

/** Every `l10n.t(…)` call in a file: its bundle key, or a problem if the message is not a literal. */
function calls(source: string): { key?: string; problem?: string; line: number }[] {
  const text = code(source);
  const found: { key?: string; problem?: string; line: number }[] = [];
  for (const m of text.matchAll(/\bl10n\.t\(\s*/g)) {
    const at = m.index + m[0].length;
    const line = text.slice(0, at).split('\n').length;
    const plain = literal(text, at);
    if (plain) {
      found.push({ key: plain.value, line });
      continue;
    }
    const object = /^\{\s*message:\s*/.exec(text.slice(at));
    const message = object ? literal(text, at + object[0].length) : undefined;
    const comment = message ? /^[^}]*?comment:\s*\[([^\]]*)\]/.exec(text.slice(message.end)) : null;
    if (message && comment) {
      const commentText = [...comment[1]!.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g)].map((q) => (q[1] ?? q[2])!).join('');
      found.push({ key: `${message.value}/${commentText}`, line });
      continue;
    }
    found.push({ problem: `l10n.t( without a literal message: ${text.slice(at, at + 40)}`, line });
  }
  return found;
}

describe('l10n bundle', () => {
  const webview = sources('webview');

  it('holds every l10n.t literal of webview/ (run `npm run l10n` after changing a UI string)', () => {
    const missing: string[] = [];
    const problems: string[] = [];
    let count = 0;
    for (const file of webview) {
      for (const c of calls(readFileSync(file, 'utf8'))) {
        const where = `${relative(ROOT, file)}:${c.line}`;
        if (c.problem) problems.push(`${where}: ${c.problem}`);
        else if (!(c.key! in BUNDLE)) missing.push(`${where}: ${JSON.stringify(c.key)}`);
        else count++;
      }
    }
    expect(problems, 'messages must be literals (strings from files go in as {0} arguments)').toEqual([]);
    expect(missing).toEqual([]);
    expect(count).toBeGreaterThan(80);
  });

  it("is written only in the form the exporter sees: `import * as l10n from '@vscode/l10n'`, no bare t()", () => {
    const wrong: string[] = [];
    for (const file of webview) {
      const text = readFileSync(file, 'utf8');
      const where = relative(ROOT, file);
      if (/import\s*\{[^}]*\bt\b[^}]*\}\s*from\s*['"]@vscode\/l10n['"]/.test(text)) wrong.push(`${where}: named import of t`);
      if (/\bl10n\.t\(/.test(text) && !/import \* as l10n from '@vscode\/l10n';/.test(text))
        wrong.push(`${where}: l10n.t without import * as l10n from '@vscode/l10n'`);
    }
    expect(wrong).toEqual([]);
  });

  it('equals what `npm run l10n` exports from src/ and webview/ now (nothing missing, nothing stale)', async () => {
    // The exporter skips files that do not mention l10n; so does this, to parse fewer.
    const files = [...sources('src'), ...webview]
      .map((f) => ({ extension: extname(f), contents: readFileSync(f, 'utf8') }))
      .filter((f) => f.contents.includes('l10n'));
    const exported = await getL10nJson(files);
    expect(Object.keys(BUNDLE).sort()).toEqual(Object.keys(exported).sort());
    expect(BUNDLE).toEqual(exported);
  });
});
