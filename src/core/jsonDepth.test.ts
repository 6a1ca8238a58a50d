import { describe, expect, it } from 'vitest';
import { MemorySource } from './io/byteSource.js';
import { MAX_JSON_DEPTH, checkJsonDepth } from './jsonDepth.js';
import type { Importer } from './model.js';
import { handlers } from './registry.js';

const nested = (depth: number, open = '[', close = ']') => open.repeat(depth) + close.repeat(depth);

describe('JSON nesting limit', () => {
  it('accepts 256 levels and refuses 257, counting brackets only outside strings', () => {
    expect(() => checkJsonDepth(nested(MAX_JSON_DEPTH), { field: 'x' })).not.toThrow();
    expect(() => checkJsonDepth(`{"a":${nested(MAX_JSON_DEPTH - 1)}}`, { field: 'x' })).not.toThrow();
    expect(() => checkJsonDepth(nested(MAX_JSON_DEPTH + 1), { offset: 7, field: 'line 3' })).toThrow(
      expect.objectContaining({ code: 'limit', offset: 7, field: 'line 3' }),
    );
    // Brackets inside strings, escaped quotes included, are text.
    expect(() => checkJsonDepth(`{"k":"${'['.repeat(1000)}\\"${'{'.repeat(1000)}"}`, {})).not.toThrow();
  });
});

/** Every importer of JSON lines, found through the registry as the CLI and the editor find them. */
const importerLists = await Promise.all(handlers.map(async (h) => ({ h, list: (await h.importers?.()) ?? [] })));
const jsonlImporters: [string, Importer][] = importerLists.flatMap(({ h, list }) =>
  list.filter((i) => i.accepts.includes('.jsonl')).map((i) => [`${h.id} ${i.id}`, i] as [string, Importer]),
);

describe('JSON lines nested 100 000 deep, through every JSONL importer', () => {
  // A valid first line for each family, then a hostile second line (JSON.parse reads it; walking it overflowed the stack).
  const first: Record<string, string> = {
    ben: '{"assignment":[1,2],"sample":1}',
    bindu: '{"a":1}',
    idv: '{"a":1}',
    fst: '{"key":"a","value":1}',
  };
  const hostile: Record<string, (deep: string) => string> = {
    ben: (d) => `{"assignment":${d},"sample":2}`,
    bindu: (d) => `{"a":${d}}`,
    idv: (d) => `{"a":${d}}`,
    fst: (d) => `{"key":"b","value":${d}}`,
  };

  it('finds an importer of JSON lines for every family', () => {
    expect(new Set(jsonlImporters.map(([name]) => name.split(' ')[0]))).toEqual(new Set(['ben', 'bindu', 'idv', 'fst']));
  });

  it.each(jsonlImporters)('%s: a limit error naming line 2, not a stack overflow', async (name, importer) => {
    const family = name.split(' ')[0]!;
    const text = `${first[family]}\n${hostile[family]!(nested(100_000))}\n`;
    const sink = { write: async () => undefined, patch: async () => undefined };
    const err = await importer.run(new MemorySource(new TextEncoder().encode(text)), { file: async () => sink }, {}, {}).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'FormatError', code: 'limit', detail: `JSON nested deeper than ${MAX_JSON_DEPTH} arrays or objects` });
    // Line 2 is named (fst names the line by its offset: it starts after the first line and its newline).
    const field = (err as { field: string }).field;
    if (family === 'fst') expect(err).toMatchObject({ field: 'line', offset: first.fst!.length + 1 });
    else expect(field).toBe('line 2');
  });

  it('idv: a CSV cell nested 100 000 deep is kept as text', async () => {
    const importer = (await handlers.find((h) => h.id === 'idv')!.importers!()).find((i) => i.accepts.includes('.csv'))!;
    const cell = nested(100_000);
    const text = `a,b\n1,"${cell}"\n`;
    const parts: Uint8Array[] = [];
    const report = await importer.run(
      new MemorySource(new TextEncoder().encode(text)),
      { file: async () => ({ write: async (b: Uint8Array) => void parts.push(b.slice()) }) },
      {},
      {},
    );
    expect(report.summary).toMatch(/1 row/);
  });
});
