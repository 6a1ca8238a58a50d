import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { everyConversion, keyText, type ConversionKey } from '../../test/helpers/registry.js';

/**
 * Issue 9 is done when every converter has a property-based round-trip test. test/CONVERTERS.md
 * names that test for every importer and converter; this keeps the table complete and true: a
 * conversion the registry offers without a row fails, and so does a row citing a test that is
 * not in its file or a file without a fast-check property.
 */

const ROOT = resolve(__dirname, '../..');
const TABLE = 'test/CONVERTERS.md';

interface Row extends ConversionKey {
  readonly tests: readonly { file: string; name: string }[];
}

function tableRows(): Row[] {
  const lines = readFileSync(resolve(ROOT, TABLE), 'utf8').split('\n');
  const header = lines.findIndex((l) => l.startsWith('| format |'));
  expect(header, `${TABLE} has its table`).toBeGreaterThanOrEqual(0);
  return lines
    .slice(header + 2)
    .filter((l) => l.startsWith('|'))
    .map((l) => {
      const cells = l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim().replace(/^`(.*)`$/, '$1'));
      expect(cells, l).toHaveLength(5);
      const [format, kind, id, input, tests] = cells as [string, string, string, string, string];
      expect(['converter', 'importer'], l).toContain(kind);
      return {
        format,
        kind: kind as Row['kind'],
        id,
        input,
        tests: tests
          .split('<br>')
          .filter(Boolean)
          .map((t) => {
            const at = t.indexOf(': ');
            return { file: t.slice(0, at), name: t.slice(at + 2) };
          }),
      };
    });
}

/** Whether the file declares a test with this name: literally, or through an `it.each` title with `%s`. */
function declares(source: string, name: string): boolean {
  const quoted = [...source.matchAll(/(['"`])((?:\\.|(?!\1).)*)\1/g)].map((m) => m[2]!.replace(/\\(.)/g, '$1'));
  return quoted.some(
    (q) =>
      q === name ||
      (q.includes('%s') &&
        new RegExp(
          `^${q
            .split('%s')
            .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
            .join('.+')}$`,
        ).test(name)),
  );
}

describe(`${TABLE}: a property-based round-trip test for every conversion`, () => {
  it('lists every importer and every converter the registry offers, and nothing else', async () => {
    const offered = (await everyConversion()).map(keyText).sort();
    const listed = tableRows().map(keyText).sort();
    expect(
      offered.filter((k) => !listed.includes(k)),
      `conversions missing from ${TABLE} (add a property test and a row)`,
    ).toEqual([]);
    expect(
      listed.filter((k) => !offered.includes(k)),
      `rows of ${TABLE} the registry no longer offers`,
    ).toEqual([]);
    expect(new Set(listed).size, 'no row twice').toBe(listed.length);
  });

  it('cites, for every row, fast-check property tests that exist in the files named', () => {
    const sources = new Map<string, string>();
    for (const row of tableRows()) {
      expect(row.tests.length, keyText(row)).toBeGreaterThan(0);
      for (const t of row.tests) {
        if (!sources.has(t.file)) sources.set(t.file, readFileSync(resolve(ROOT, t.file), 'utf8'));
        const source = sources.get(t.file)!;
        expect(source, `${t.file} runs fast-check properties`).toMatch(/fc\.assert\(/);
        expect(declares(source, t.name), `${t.file} declares "${t.name}"`).toBe(true);
      }
    }
  });
});
