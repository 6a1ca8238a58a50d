import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemorySource } from '../../src/core/io/byteSource.js';
import { openFile } from '../../src/core/io/nodeFile.js';
import type { ByteSink, OutputTarget } from '../../src/core/model.js';
import { binduHandler } from '../../src/core/formats/bindu/handler.js';
import { csvImporter } from '../../src/core/formats/bindu/importers.js';
import type { BenchCase } from '../types.js';
import { installNativeCodecs } from '../../src/core/codecs/native.js';
import { nodeCodecs } from '../../src/core/io/nodeCodecs.js';

// What the Node engine worker and the CLI run: Node's zlib lent to the DEFLATE codec.
installNativeCodecs(nodeCodecs);

/**
 * CSV → Bindu against gzip -9, xz -6 and zstd -19 on the same three CSV files: a numeric sensor
 * log, a text-heavy log and a mixed table. Encode and decode speed per file (Binlens against
 * zstd), and one table of sizes, ratios and times for every tool.
 */
const DATASETS = ['sensor', 'textlog', 'mixed'] as const;
export type Dataset = (typeof DATASETS)[number];
const ROWS = 150_000;

/** A small deterministic PRNG, so every machine benchmarks the same bytes. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0) / 2 ** 32;
}

export function makeCsv(kind: Dataset, rows = ROWS): string {
  const r = rng(kind.length * 7919);
  const lines: string[] = [];
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  let ts = 1_700_000_000_000;
  if (kind === 'sensor') {
    lines.push('ts,sensor,temp,humidity,pressure,status');
    for (let i = 0; i < rows; i++) {
      ts += 1000 + Math.floor(r() * 7) - 3;
      lines.push(
        `${ts},${1 + Math.floor(r() * 24)},${(20 + Math.round((r() - 0.5) * 1000) / 100).toFixed(2)},${(40 + r() * 50).toFixed(1)},${101000 + Math.floor(r() * 800)},${pick(['ok', 'ok', 'ok', 'warn', 'fail'])}`,
      );
    }
  } else if (kind === 'textlog') {
    const words =
      'request served cache miss upstream timeout retry user session token expired database query slow index scan rows returned connection reset by peer'.split(
        ' ',
      );
    lines.push('time,level,service,message');
    for (let i = 0; i < rows; i++) {
      ts += Math.floor(r() * 50);
      const msg = Array.from({ length: 4 + Math.floor(r() * 10) }, () => pick(words)).join(' ');
      lines.push(
        `${ts},${pick(['INFO', 'INFO', 'INFO', 'DEBUG', 'WARN', 'ERROR'])},${pick(['api', 'auth', 'billing', 'search', 'worker'])},"${msg} id=${Math.floor(r() * 1e9).toString(36)}"`,
      );
    }
  } else {
    lines.push('order_id,customer,country,product,quantity,unit_price,discount,shipped');
    for (let i = 0; i < rows; i++) {
      lines.push(
        `${100000 + i},cust${Math.floor(r() * 5000)},${pick(['DE', 'FR', 'US', 'JP', 'BR', 'IN'])},${pick(['widget', 'gadget', 'gizmo', 'doohickey'])}-${Math.floor(r() * 40)},${1 + Math.floor(r() * 9)},${(r() * 200).toFixed(2)},${pick(['', '', '0.05', '0.1'])},${pick(['true', 'false'])}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

const csvPath = (data: string, d: Dataset) => join(data, `bindu-${d}.csv`);
const binduPath = (data: string, d: Dataset) => join(data, `bindu-${d}.bindu`);

async function prepare(data: string): Promise<void> {
  for (const d of DATASETS) if (!existsSync(csvPath(data, d))) writeFileSync(csvPath(data, d), makeCsv(d));
  for (const d of DATASETS) if (!existsSync(binduPath(data, d))) writeFileSync(binduPath(data, d), await encode(csvPath(data, d)));
}

/** A sealed bindu past 8 MiB (no check runs at open), with the writer's SHA-256 file checksum. */
const SEALED_ROWS = 600_000;
const sealedPath = (data: string) => join(data, `bindu-textlog-${SEALED_ROWS}.sealed.bindu`);

async function prepareSealed(data: string): Promise<void> {
  if (existsSync(sealedPath(data))) return;
  const csv = join(data, `bindu-textlog-${SEALED_ROWS}.csv`);
  if (!existsSync(csv)) writeFileSync(csv, makeCsv('textlog', SEALED_ROWS));
  writeFileSync(sealedPath(data), await encode(csv, true));
}

async function encode(path: string, seal = false): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const sink: ByteSink = { write: (b) => (parts.push(b.slice()), Promise.resolve()) };
  const target: OutputTarget = { file: () => Promise.resolve(sink) };
  const src = await openFile(path);
  try {
    await csvImporter.run(src, target, {}, { chunkRows: 65536, compressor: 'deflate', seal });
  } finally {
    await src.close?.();
  }
  return Buffer.concat(parts);
}

async function decode(bytes: Uint8Array): Promise<number> {
  const doc = await binduHandler.open(new MemorySource(bytes), {});
  let n = 0;
  await doc.cat!.run('csv', {}, { write: (b) => ((n += b.length), Promise.resolve()) }, {});
  return n;
}

function tool(command: string[]): { ms: number; out: Buffer } {
  const start = process.hrtime.bigint();
  const r = spawnSync(command[0]!, command.slice(1), { maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`${command.join(' ')}: ${r.stderr}`);
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, out: r.stdout };
}

const hasTool = (name: string) => spawnSync('which', [name]).status === 0;

export const cases: BenchCase[] = [
  ...DATASETS.map(
    (d): BenchCase => ({
      id: `bindu-encode-${d}`,
      title: `CSV → bindu, ${d} (${ROWS} rows)`,
      prepare,
      async run(data) {
        await encode(csvPath(data, d));
        return { bytes: statSync(csvPath(data, d)).size, items: ROWS };
      },
      native: (data) => (hasTool('zstd') ? { label: 'zstd -19', command: ['zstd', '-19', '-q', '-f', '-o', '/dev/null', csvPath(data, d)] } : undefined),
    }),
  ),
  ...DATASETS.map(
    (d): BenchCase => ({
      id: `bindu-decode-${d}`,
      title: `bindu → CSV, ${d} (${ROWS} rows)`,
      prepare,
      async run(data) {
        return { bytes: await decode(readFileSync(binduPath(data, d))), items: ROWS };
      },
      native: (data) => {
        if (!hasTool('zstd')) return undefined;
        const zst = `${csvPath(data, d)}.zst`;
        if (!existsSync(zst)) spawnSync('zstd', ['-19', '-q', '-f', '-o', zst, csvPath(data, d)]);
        return { label: 'zstd -d', command: ['zstd', '-d', '-q', '-f', '-o', '/dev/null', zst] };
      },
    }),
  ),
  {
    // cat checks every frame's CRC-32C and Merkle leaf and the file checksum before its first row.
    id: 'bindu-cat-checks',
    title: `bindu → CSV from a file, sealed, SHA-256 file checksum (${SEALED_ROWS} rows): time to the first row`,
    prepare: prepareSealed,
    async run(data) {
      const src = await openFile(sealedPath(data));
      try {
        const start = process.hrtime.bigint();
        let first: number | undefined;
        const doc = await binduHandler.open(src, {});
        await doc.cat!.run('csv', {}, { write: () => ((first ??= Number(process.hrtime.bigint() - start) / 1e6), Promise.resolve()) }, {});
        return { bytes: src.size, items: SEALED_ROWS, timedMs: first };
      } finally {
        await src.close?.();
      }
    },
  },
  {
    id: 'bindu-ratio',
    title: 'CSV → bindu compression ratio against gzip -9, xz -6, zstd -19',
    runs: 1,
    prepare,
    async run(data) {
      const rows = ['| file | CSV bytes | tool | bytes | ratio | encode ms | decode ms |', '|---|---:|---|---:|---:|---:|---:|'];
      let total = 0;
      for (const d of DATASETS) {
        const csv = csvPath(data, d);
        const size = statSync(csv).size;
        total += size;
        let t = process.hrtime.bigint();
        const bindu = await encode(csv);
        const encMs = Number(process.hrtime.bigint() - t) / 1e6;
        t = process.hrtime.bigint();
        await decode(bindu);
        const decMs = Number(process.hrtime.bigint() - t) / 1e6;
        rows.push(`| ${d} | ${size} | bindu (DEFLATE) | ${bindu.length} | ${(size / bindu.length).toFixed(2)} | ${encMs.toFixed(0)} | ${decMs.toFixed(0)} |`);
        for (const [name, enc, dec] of [
          ['gzip -9', ['gzip', '-9', '-c', csv], ['gzip', '-d', '-c']],
          ['xz -6', ['xz', '-6', '-c', '-T1', csv], ['xz', '-d', '-c']],
          ['zstd -19', ['zstd', '-19', '-c', '-q', csv], ['zstd', '-d', '-c', '-q']],
        ] as const) {
          if (!hasTool(enc[0])) continue;
          const e = tool([...enc]);
          const packed = join(data, `bindu-${d}.${enc[0]}`);
          writeFileSync(packed, e.out);
          const x = tool([...dec, packed]);
          rows.push(`| ${d} | ${size} | ${name} | ${e.out.length} | ${(size / e.out.length).toFixed(2)} | ${e.ms.toFixed(0)} | ${x.ms.toFixed(0)} |`);
        }
      }
      return { bytes: total, table: rows.join('\n') };
    },
  },
];
