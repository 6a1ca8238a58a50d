import { existsSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { IdvFile } from '../../src/core/formats/idv/file.js';
import { idvHandler } from '../../src/core/formats/idv/handler.js';
import { scalarType, vectorType } from '../../src/core/formats/idv/testFiles.js';
import { readHeader, readToc } from '../../src/core/formats/idv/toc.js';
import type { Value } from '../../src/core/formats/idv/values.js';
import { IdvWriter, type WriterColumn } from '../../src/core/formats/idv/writer.js';
import { openFile } from '../../src/core/io/nodeFile.js';
import type { BenchCase } from '../types.js';
import { installNativeCodecs } from '../../src/core/codecs/native.js';
import { nodeCodecs } from '../../src/core/io/nodeCodecs.js';

// What the Node engine worker and the CLI run: Node's zlib lent to the DEFLATE codec.
installNativeCodecs(nodeCodecs);

const ROWS = 1_000_000;
const RPB = 8192;
export const FILE = 'idv-1m-20.idv';
/** Every block of the file: [offset, stored length], for the floor to inflate with Node's zlib. */
const BLOCKS = 'idv-1m-20.blocks.json';

/** 20 columns of the kinds ML.NET datasets hold: floats, integers, text, a label, a date, a small vector. */
const COLUMNS: WriterColumn[] = [
  ...Array.from({ length: 8 }, (_, i) => ({ name: `f${i}`, type: scalarType('f32') })),
  ...Array.from({ length: 3 }, (_, i) => ({ name: `d${i}`, type: scalarType('f64') })),
  ...Array.from({ length: 3 }, (_, i) => ({ name: `n${i}`, type: scalarType('i32') })),
  { name: 'id', type: scalarType('i64') },
  { name: 'name', type: scalarType('text') },
  { name: 'category', type: scalarType('text') },
  { name: 'label', type: scalarType('bool') },
  { name: 'when', type: scalarType('dt') },
  { name: 'features', type: vectorType(scalarType('f32'), 4) },
];

function cell(c: number, r: number): Value {
  const x = Math.sin(r * 0.37 + c) * 1000;
  if (c < 8) return Math.fround(x);
  if (c < 11) return x / 7;
  if (c < 14) return (r * 2654435761 + c) % 100_000;
  if (c === 14) return BigInt(r) * 1_000_003n;
  if (c === 15) return `user ${r % 50_000}`;
  if (c === 16) return ['red', 'green', 'blue', 'cyan'][r % 4]!;
  if (c === 17) return r % 3 === 0;
  if (c === 18) return 633636000000000000n + BigInt(r) * 10_000_000n;
  return { length: 4, values: [Math.fround(x), 0, Math.fround(-x), 1] };
}

export async function prepare(data: string): Promise<void> {
  const path = join(data, FILE);
  if (existsSync(path) && existsSync(join(data, BLOCKS))) return;
  const writer = new IdvWriter(COLUMNS, { rowsPerBlock: RPB, compression: 1 });
  for (let from = 0; from < ROWS; from += RPB) {
    const n = Math.min(RPB, ROWS - from);
    writer.addBlock(COLUMNS.map((_, c) => Array.from({ length: n }, (_, k) => cell(c, from + k))));
  }
  const out = await open(path, 'w');
  await writer.finish(async (b) => void (await out.write(b)));
  await out.close();
  const src = await openFile(path);
  const header = await readHeader(src);
  const file = new IdvFile(src, header, await readToc(src, header));
  const blocks: [number, number][] = [];
  for (const col of file.columns) {
    for (let b = 0; b < file.blocks.blocks(col.entry); b++) {
      const e = await file.blocks.lookup(col.entry, b);
      blocks.push([e.offset, e.storedLength]);
    }
  }
  writeFileSync(join(data, BLOCKS), JSON.stringify(blocks));
}

/** The floor: read every block and inflate it with Node's native zlib, nothing decoded. */
const FLOOR = `
const fs = require('node:fs'); const zlib = require('node:zlib');
const [file, list] = process.argv.slice(1);
const fd = fs.openSync(file, 'r'); let total = 0;
for (const [offset, length] of JSON.parse(fs.readFileSync(list, 'utf8'))) {
  const buf = Buffer.allocUnsafe(length); fs.readSync(fd, buf, 0, length, offset);
  total += zlib.inflateRawSync(buf).length;
}
if (total === 0) process.exit(1);`;

export const cases: BenchCase[] = [
  {
    id: 'idv-decode',
    title: 'IDV: decode every value of 1 000 000 rows × 20 columns (DEFLATE blocks)',
    runs: 3,
    prepare,
    async run(data) {
      const src = await openFile(join(data, FILE));
      const header = await readHeader(src);
      const file = new IdvFile(src, header, await readToc(src, header));
      let touched = 0;
      for await (const w of file.windows(0, file.rowCount, 'modern')) {
        for (let c = 0; c < file.columns.length; c++) {
          for (let r = w.from; r < w.from + w.count; r++) {
            const got = w.value(c, r);
            if (got instanceof Error) throw got;
            if (got.value !== null) touched++;
          }
        }
      }
      await src.close?.();
      return { items: touched };
    },
    native(data) {
      return { label: 'Node zlib.inflateRawSync of the same blocks (floor)', command: [process.execPath, '-e', FLOOR, join(data, FILE), join(data, BLOCKS)] };
    },
  },
  {
    id: 'idv-page-middle',
    title: 'IDV: open 1 000 000 rows × 20 columns and show 100 rows in the middle',
    runs: 5,
    prepare,
    async run(data) {
      const src = await openFile(join(data, FILE));
      const doc = await idvHandler.open(src, {});
      const rows = await doc.tables[0]!.page(500_000, 100);
      await src.close?.();
      return { items: rows.length };
    },
  },
];
