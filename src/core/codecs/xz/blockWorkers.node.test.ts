import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readFixture } from '../../../../test/helpers/fixtures.js';
import { MemorySource } from '../../io/byteSource.js';
import { concatBytes } from '../../io/bytes.js';
import { readJsonl } from '../../formats/ben/jsonlRead.js';
import { jsonlSamples, streamSamples, writeStream } from '../../formats/ben/pipeline.js';
import { expand } from '../../formats/ben/plan.js';
import { lendXzBlockEncoders } from './blockEncoders.js';
import { nodeXzBlockEncoders } from './blockWorkers.node.js';
import { readXzLayout } from './container.js';
import { xzDecompressAll } from './decode.js';
import { ParallelXzWriter } from './parallelWriter.js';

let entry = '';
beforeAll(async () => {
  // A script that serves xz blocks when started on a worker thread, bundled as dist/cli.js is.
  entry = join(mkdtempSync(join(tmpdir(), 'binlens-xz-')), 'worker.mjs');
  await build({
    stdin: {
      contents: "import { serveXzBlocksIfWorker } from './blockWorkers.node.ts'; serveXzBlocksIfWorker();",
      resolveDir: import.meta.dirname,
      loader: 'ts',
    },
    outfile: entry,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    loader: { '.wasm': 'binary' },
    logLevel: 'warning',
  });
});

afterEach(() => lendXzBlockEncoders(undefined));

const hasXz = spawnSync('xz', ['--version']).status === 0;

describe('xz blocks on worker threads', () => {
  it('compresses blocks on two threads into one stream that reads back byte for byte and passes xz -t', async () => {
    const data = new Uint8Array(300_000).map((_, i) => (i % 4 < 2 ? 0 : (i * 2654435761) >>> 29));
    const parts: Uint8Array[] = [];
    const w = new ParallelXzWriter({ write: async (c) => void parts.push(c.slice()) }, { preset: 1, check: 'crc64' }, nodeXzBlockEncoders(entry, 2), 64 << 10);
    for (let at = 0; at < data.length; at += 50_000) await w.write(data.slice(at, at + 50_000));
    await w.finish();
    const xz = concatBytes(parts);
    expect(await xzDecompressAll(new MemorySource(xz), { maxOutput: 1 << 20 })).toEqual(data);
    expect((await readXzLayout(new MemorySource(xz))).streams[0]!.blocks).toHaveLength(5);
    if (hasXz) expect(spawnSync('xz', ['-t'], { input: xz }).status).toBe(0);
  });

  it('JSONL → XBEN through the worker threads reads back as the fixture ground truth', async () => {
    lendXzBlockEncoders(async () => nodeXzBlockEncoders(entry, 2));
    const parts: Uint8Array[] = [];
    const jsonl = readFixture('ben/grid4x4_chain.jsonl');
    await writeStream(
      jsonlSamples(new MemorySource(jsonl)),
      { write: async (c) => void parts.push(c.slice()) },
      { format: 'xben', variant: 'mkv_chain', preset: 7 },
    );
    const xben = concatBytes(parts);
    const back: number[][] = [];
    for await (const r of streamSamples(new MemorySource(xben), { format: 'xben', offset: 0, length: xben.length }))
      for (let k = 0; k < r.count; k++) back.push(Array.from(expand(r.plan)));
    const truth: number[][] = [];
    for await (const s of readJsonl(new MemorySource(jsonl))) truth.push(Array.from(expand(s.plan)));
    expect(back).toEqual(truth);
    if (hasXz) expect(spawnSync('xz', ['-t'], { input: xben }).status).toBe(0);
  });

  it('a thread that fails a block rejects that block, with its message', async () => {
    const encoders = nodeXzBlockEncoders(entry, 1);
    try {
      await expect(encoders.encode(new Uint8Array(10), { preset: 9, check: 'none' })).rejects.toThrow(/xz block encoder: .*xz preset 9/);
    } finally {
      encoders.close();
    }
  });
});
