import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { open as openFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { lendXzBlockEncoders } from '../../src/core/codecs/xz/blockEncoders.js';
import { nodeXzBlockEncoders } from '../../src/core/codecs/xz/blockWorkers.node.js';
import { openFile as openSource } from '../../src/core/io/nodeFile.js';
import { writeAtomically } from '../../src/core/io/nodeOutput.js';
import type { ByteSink } from '../../src/core/model.js';
import { benHandler } from '../../src/core/formats/ben/handler.js';
import { type SampleRun, jsonlSamples, streamSamples, writeJsonlSamples, writeStream } from '../../src/core/formats/ben/pipeline.js';
import { chain } from '../large.js';
import type { BenchCase } from '../types.js';

/**
 * 1 000 plans × 140 000 nodes (bench/large.ts `chain`): about 280 MB of JSONL, like one
 * block-level state chain. The reference Rust decoder's 2.95 s for this size (measured on this
 * kind of machine) is the target for `ben-decode`; the reference tools are not installable
 * here, so there is no native column.
 */
const PLANS = 1000;

async function fileSink(path: string): Promise<{ sink: ByteSink; close(): Promise<void> }> {
  const h = await openFile(path, 'w');
  return {
    sink: { write: async (c) => void (await h.write(c)) },
    close: () => h.close(),
  };
}

const data = (dir: string, name: string) => join(dir, name);

async function prepare(dir: string): Promise<void> {
  const ben = data(dir, 'chain.mkv.ben');
  if (!existsSync(ben))
    await writeAtomically(ben, { kind: 'file' }, async (t) => writeStream(chain(PLANS), await t.file(), { format: 'ben', variant: 'mkv_chain' }));
  const jsonl = data(dir, 'chain.jsonl');
  if (!existsSync(jsonl)) await writeAtomically(jsonl, { kind: 'file' }, async (t) => writeJsonlSamples(chain(PLANS), await t.file(), false));
  const xben = data(dir, 'chain.xben');
  if (!existsSync(xben))
    await writeAtomically(xben, { kind: 'file' }, async (t) => writeStream(chain(200), await t.file(), { format: 'xben', variant: 'mkv_chain', preset: 7 }));
  // What `ben-xben-encode` compresses: the 200 plans' byte-aligned XBEN body, for xz itself to compress.
  const body = data(dir, 'chain.xben.body');
  if (!existsSync(body) && hasXz()) writeFileSync(body, spawnSync('xz', ['-dc', xben], { maxBuffer: 1 << 30 }).stdout);
}

const hasXz = () => spawnSync('xz', ['--version']).status === 0;

async function openBen(dir: string) {
  const src = await openSource(data(dir, 'chain.mkv.ben'));
  return { src, doc: await benHandler.open(src, {}) };
}

/**
 * The floor for `ben-decode` (issue 8: "report the ratio to writing the same bytes from memory"):
 * the same JSONL bytes, read into memory in one call and written to a file in 1 MiB pieces as
 * Binlens writes them. The one read of 280 MB from the page cache is part of its time (it is
 * measured as a whole process); `node -e` over readFileSync alone takes ~0.1 s of it.
 */
const WRITE_FLOOR = `
const fs = require('node:fs');
const [from, to] = process.argv.slice(1);
const bytes = fs.readFileSync(from);
const fd = fs.openSync(to, 'w');
for (let at = 0; at < bytes.length; at += 1 << 20) fs.writeSync(fd, bytes, at, Math.min(1 << 20, bytes.length - at));
fs.closeSync(fd);`;

export const cases: BenchCase[] = [
  {
    id: 'ben-decode',
    title: 'BEN → JSONL, 1 000 plans × 140 000 nodes (~280 MB out; reference Rust: 2.95 s)',
    runs: 3,
    prepare,
    async run(dir) {
      const src = await openSource(data(dir, 'chain.mkv.ben'));
      const out = await fileSink(data(dir, 'out.jsonl'));
      const r = await writeJsonlSamples(streamSamples(src, { format: 'ben', offset: 0, length: src.size }), out.sink, false);
      await out.close();
      await src.close?.();
      return { items: r.samples, bytes: r.bytes };
    },
    native: (dir) => ({
      label: 'Node: the same JSONL bytes written from memory (floor)',
      command: [process.execPath, '-e', WRITE_FLOOR, data(dir, 'chain.jsonl'), data(dir, 'out.floor.jsonl')],
    }),
  },
  {
    id: 'ben-encode',
    title: 'JSONL → BEN MkvChain, 1 000 plans × 140 000 nodes (~280 MB in)',
    runs: 3,
    prepare,
    async run(dir) {
      const src = await openSource(data(dir, 'chain.jsonl'));
      const out = await fileSink(data(dir, 'out.ben'));
      const r = await writeStream(jsonlSamples(src), out.sink, { format: 'ben', variant: 'mkv_chain' });
      await out.close();
      await src.close?.();
      return { items: r.samples, bytes: src.size };
    },
  },
  {
    id: 'ben-index',
    title: 'open the 1 000-plan BEN and build its frame index',
    prepare,
    async run(dir) {
      const { src, doc } = await openBen(dir);
      const n = await doc.tables.find((t) => t.id === 'samples')!.count!({});
      await src.close?.();
      return { items: n };
    },
  },
  {
    id: 'ben-index-last-sample',
    title: 'the same, then the plan view of the last sample (minus ben-index = the lookup)',
    prepare,
    async run(dir) {
      const { src, doc } = await openBen(dir);
      const n = await doc.tables.find((t) => t.id === 'samples')!.count!({});
      await doc.panels!.find((p) => p.id === 'plan')!.data({ sample: n });
      await src.close?.();
      return { items: n };
    },
  },
  {
    id: 'ben-xben-encode',
    title: 'BEN → XBEN, 200 plans × 140 000 nodes, xz preset 7 (liblzma WASM)',
    runs: 1,
    prepare,
    async run(dir) {
      // As the CLI does: a thread per core, each running the CLI's script (`npm run bench` builds it first).
      lendXzBlockEncoders(async () => nodeXzBlockEncoders(resolve('dist/cli.js')));
      const src = await openSource(data(dir, 'chain.mkv.ben'));
      const out = await fileSink(data(dir, 'out.xben'));
      let n = 0;
      async function* first200(): AsyncGenerator<SampleRun> {
        for await (const r of streamSamples(src, { format: 'ben', offset: 0, length: src.size })) {
          if (n >= 200) return;
          n += r.count;
          yield r;
        }
      }
      const r = await writeStream(first200(), out.sink, { format: 'xben', variant: 'mkv_chain', preset: 7 });
      await out.close();
      await src.close?.();
      return { items: r.samples, bytes: r.samples * 140000 * 2 };
    },
    // The reference `ben -m x-encode` runs liblzma on every core: xz at the same preset, all threads,
    // on the same body (its time excludes the BEN decode and the rewrite ours includes).
    native: (dir) =>
      hasXz() && existsSync(data(dir, 'chain.xben.body'))
        ? { label: 'xz -7 -T0 (every core)', command: ['xz', '-7', '-T0', '-c', '-k', data(dir, 'chain.xben.body')] }
        : undefined,
  },
  {
    id: 'ben-xben-decode',
    title: 'XBEN → JSONL, 200 plans × 140 000 nodes (liblzma WASM, streaming)',
    prepare,
    async run(dir) {
      const src = await openSource(data(dir, 'chain.xben'));
      const out = await fileSink(data(dir, 'out.xben.jsonl'));
      const r = await writeJsonlSamples(streamSamples(src, { format: 'xben', offset: 0, length: src.size }), out.sink, false);
      await out.close();
      await src.close?.();
      return { items: r.samples, bytes: r.bytes };
    },
  },
];
