import { MemorySource } from '../../io/byteSource.js';
import { scalarType, writeIdv } from './testFiles.js';
import { readHeader, readToc } from './toc.js';
import type { WriterOptions } from './writer.js';

/**
 * The small dataviews the damage and verify tests edit: two columns (Int32 a, TextSpan b) in
 * blocks of 3 rows, so a test knows which rows each block it breaks holds.
 */
const COLUMNS = [
  { name: 'a', type: scalarType('i32') },
  { name: 'b', type: scalarType('text') },
];

/** Rows [k × step, `tk`] for k = 0 … 6: blocks hold rows 0–2, 3–5 and 6. */
export function sevenRows(compression: WriterOptions['compression'], step = 1): Promise<Uint8Array> {
  return writeIdv(
    COLUMNS,
    Array.from({ length: 7 }, (_, k) => [k * step, `t${k}`]),
    { rowsPerBlock: 3, compression },
  );
}

/** Rows 1 'x', 2 'yy', 3 '', 4 'z', 5 'é', 6 '!': an empty and a two-byte text among them. */
export function sixRows(compression: WriterOptions['compression']): Promise<Uint8Array> {
  return writeIdv(
    COLUMNS,
    [
      [1, 'x'],
      [2, 'yy'],
      [3, ''],
      [4, 'z'],
      [5, 'é'],
      [6, '!'],
    ],
    { rowsPerBlock: 3, compression },
  );
}

/** The header and the table of contents of a dataview: where each column's lookup table and TOC entry lie. */
export async function layoutOf(bytes: Uint8Array) {
  const src = new MemorySource(bytes);
  const header = await readHeader(src);
  return { header, columns: await readToc(src, header) };
}
