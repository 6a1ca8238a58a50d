import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readLayout } from '../../src/core/formats/fst/header.js';
import { FstReader } from '../../src/core/formats/fst/reader.js';
import { levenshtein } from '../../src/core/formats/fst/levenshtein.js';
import { startsWith } from '../../src/core/formats/fst/automaton.js';
import { KeyStream } from '../../src/core/formats/fst/stream.js';
import { rewrite } from '../../src/core/formats/fst/convert.js';
import { openFile } from '../../src/core/io/nodeFile.js';
// @ts-expect-error: plain ESM helper shared with `npm start`
import { ensureDebs } from '../../scripts/setup.mjs';
import type { BenchCase, BenchResult } from '../types.js';

/**
 * The medium fixture (300,000 keys, fst 0.4.7, format v3) against the Rust fst crate that
 * Debian packages (librust-fst-dev 0.3.5). fst 0.3 reads only format v2, so `prepare` writes
 * the same keys as v2 with our writer (for this data v2 and v3 differ only in the version byte
 * and the checksum): both sides work on the same automaton. Each side runs in a fresh
 * process, opening the file from disk, so the times include start-up and file reading.
 */
// `npm run bench` runs from the repository root, with shared/ beside it.
const ROOT = process.cwd();
const MEDIUM = resolve(ROOT, '../shared/fixtures/fst/medium.map.fst3.fst');

const GETS = 100_000;
const PREFIX = 'doc/1';
const FUZZY = 'karitona';
/** Issue 18's batches: many short queries, timed inside each process after the file is open. */
const BATCH = { prefix: 1000, fuzzy: 100 } as const;
const BATCH_DISTANCE = 1;

const v2 = (data: string) => join(data, 'fst-medium.v2.fst');
const keysFile = (data: string) => join(data, 'fst-medium.keys');
const queriesFile = (data: string, kind: keyof typeof BATCH) => join(data, `fst-medium.${kind}-queries.txt`);
const nativeBin = (data: string) => join(data, 'fst-native-target/release/fstbench');

let prepared = false;

async function prepare(data: string): Promise<void> {
  if (prepared) return;
  prepared = true;
  mkdirSync(data, { recursive: true });
  const reader = await open(MEDIUM);
  if (!existsSync(v2(data))) {
    const chunks: Uint8Array[] = [];
    await rewrite(reader, 2, async (b) => void chunks.push(b.slice()), {});
    writeFileSync(v2(data), Buffer.concat(chunks));
  }
  const all: Uint8Array[] = [];
  if (!existsSync(keysFile(data)) || !existsSync(queriesFile(data, 'prefix')) || !existsSync(queriesFile(data, 'fuzzy'))) {
    await new KeyStream(reader).run((k, len) => (all.push(k.slice(0, len)), true));
  }
  if (!existsSync(queriesFile(data, 'prefix')) || !existsSync(queriesFile(data, 'fuzzy'))) {
    // Existing keys cut by 1 to 3 characters (a handful of hits each: a batch of lookups, not of
    // output), and whole keys, in a fixed pseudo-random order. Only the printable ASCII keys (the
    // map also holds binary ones), so a query is a line and the same string on both sides.
    const text = all.map((k) => Buffer.from(k).toString('latin1')).filter((k) => /^[\x20-\x7e]+$/.test(k));
    let seed = 777;
    const pick = () => text[(seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % text.length]!;
    writeFileSync(
      queriesFile(data, 'prefix'),
      Array.from({ length: BATCH.prefix }, () => pick())
        .map((k, i) => k.slice(0, Math.max(3, k.length - 1 - (i % 3))))
        .join('\n'),
    );
    writeFileSync(queriesFile(data, 'fuzzy'), Array.from({ length: BATCH.fuzzy }, pick).join('\n'));
  }
  if (!existsSync(keysFile(data))) {
    // 100,000 existing keys in a fixed pseudo-random order, length-prefixed.
    let seed = 12345;
    const parts: Buffer[] = [];
    for (let i = 0; i < GETS; i++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      const key = all[seed % all.length]!;
      const len = Buffer.alloc(4);
      len.writeUInt32LE(key.length);
      parts.push(len, Buffer.from(key));
    }
    writeFileSync(keysFile(data), Buffer.concat(parts));
  }
  // Built again when its source changed (a new job), else once.
  const source = join(ROOT, 'bench/native/fst/src/main.rs');
  if (!existsSync(nativeBin(data)) || statSync(nativeBin(data)).mtimeMs < statSync(source).mtimeMs) {
    try {
      ensureDebs(['librust-fst-dev']);
      const r = spawnSync('cargo', ['build', '--release', '--offline', '--quiet', '--target-dir', join(data, 'fst-native-target')], {
        cwd: join(ROOT, 'bench/native/fst'),
        stdio: 'inherit',
      });
      if (r.status !== 0) console.error('bench: building the Rust fst program failed; native times are skipped');
    } catch (e) {
      console.error(`bench: cannot install librust-fst-dev (${(e as Error).message}); native times are skipped`);
    }
  }
}

async function open(path: string): Promise<FstReader> {
  const src = await openFile(path);
  return new FstReader(src, await readLayout(src));
}

function native(job: string, ...args: string[]) {
  return (data: string) => (existsSync(nativeBin(data)) ? { label: 'Rust fst 0.3.5', command: [nativeBin(data), job, v2(data), ...args] } : undefined);
}

/** Every query of a batch in turn on one open reader; the loop alone is timed, as the Rust side times its own. */
async function batch(data: string, kind: keyof typeof BATCH): Promise<BenchResult> {
  const reader = await open(MEDIUM);
  // The file in memory before the timer, as the Rust side reads it whole (fs::read) before its own.
  await reader.fast()?.load(reader.root);
  const queries = readFileSync(queriesFile(data, kind), 'utf8').split('\n');
  const enc = new TextEncoder();
  const started = performance.now();
  let items = 0;
  for (const q of queries) {
    const key = enc.encode(q);
    const stream =
      kind === 'prefix'
        ? new KeyStream(reader, { automaton: startsWith(key), from: { key, inclusive: true } })
        : new KeyStream(reader, { automaton: levenshtein(q, { distance: BATCH_DISTANCE, transpositions: false, prefix: false }) });
    items += (await walk(stream)).items!;
  }
  return { items, timedMs: performance.now() - started };
}

async function walk(stream: KeyStream): Promise<BenchResult> {
  let n = 0;
  let sum = 0;
  await stream.run((_k, len, _hi, lo) => {
    n++;
    sum = (sum + lo + len) % 4294967296;
    return true;
  });
  if (sum === -1) console.error('unlikely');
  return { items: n };
}

export const cases: BenchCase[] = [
  {
    id: 'fst-stream',
    title: 'FST: stream all 300,000 keys and values',
    prepare,
    run: async () => walk(new KeyStream(await open(MEDIUM))),
    native: native('stream'),
  },
  {
    id: 'fst-get',
    title: `FST: ${GETS.toLocaleString('en-US')} random gets of existing keys`,
    prepare,
    async run(data) {
      const reader = await open(MEDIUM);
      const file = readFileSync(keysFile(data));
      // Plain views: a Buffer's subarray builds a Buffer, a cost of the harness and not of the lookup.
      const keys = new Uint8Array(file.buffer, file.byteOffset, file.length);
      const lengths = new DataView(file.buffer, file.byteOffset, file.length);
      let found = 0;
      for (let at = 0; at < keys.length; ) {
        const len = lengths.getUint32(at, true);
        if ((await reader.get(keys.subarray(at + 4, at + 4 + len))) !== undefined) found++;
        at += 4 + len;
      }
      if (found !== GETS) throw new Error(`found ${found} of ${GETS}`);
      return { items: GETS };
    },
    native: (data) => native('get', keysFile(data))(data),
  },
  {
    id: 'fst-prefix',
    title: `FST: prefix ${PREFIX} (7,781 hits)`,
    prepare,
    run: async () => {
      const prefix = new TextEncoder().encode(PREFIX);
      return walk(new KeyStream(await open(MEDIUM), { automaton: startsWith(prefix), from: { key: prefix, inclusive: true } }));
    },
    native: native('prefix', PREFIX),
  },
  {
    id: 'fst-fuzzy',
    title: `FST: Levenshtein ${FUZZY} ≤ 2 (37 hits)`,
    prepare,
    run: async () => walk(new KeyStream(await open(MEDIUM), { automaton: levenshtein(FUZZY, { distance: 2, transpositions: false, prefix: false }) })),
    native: native('fuzzy', FUZZY, '2'),
  },
  {
    id: 'fst-prefix-batch',
    title: `FST: ${BATCH.prefix.toLocaleString('en-US')} prefix queries (keys cut by 1-3 characters), timed in the process`,
    prepare,
    run: (data) => batch(data, 'prefix'),
    native: (data) => native('prefix-batch', queriesFile(data, 'prefix'))(data),
  },
  {
    id: 'fst-fuzzy-batch',
    title: `FST: ${BATCH.fuzzy} Levenshtein ≤ ${BATCH_DISTANCE} queries of whole keys, timed in the process`,
    prepare,
    run: (data) => batch(data, 'fuzzy'),
    native: (data) => native('fuzzy-batch', queriesFile(data, 'fuzzy'), String(BATCH_DISTANCE))(data),
  },
];
