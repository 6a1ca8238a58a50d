import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ByteSink } from '../../model.js';
import { JsonlWriter } from './jsonl.js';
import { expand, type Plan } from './plan.js';
import { MemorySink } from './testing.js';

function planOf(runs: readonly [number, number][]): Plan {
  return {
    values: Uint16Array.from(runs.map(([v]) => v)),
    lengths: Uint16Array.from(runs.map(([, n]) => n)),
    runs: runs.length,
    nodes: runs.reduce((s, [, n]) => s + n, 0),
  };
}

describe('JSONL writer', () => {
  it('writes what JSON.stringify writes for every value width, short runs and long ones, repeated samples', async () => {
    // Values around each change of digit count, and runs on both sides of the short-run byte loop.
    const value = fc.oneof(fc.constantFrom(0, 9, 10, 99, 100, 999, 1000, 9999, 10000, 65535), fc.integer({ min: 0, max: 65535 }));
    const run = fc.tuple(value, fc.oneof(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 0xffff })));
    await fc.assert(
      fc.asyncProperty(fc.array(run, { maxLength: 12 }), fc.nat(1_000_000), fc.integer({ min: 1, max: 3 }), async (runs, first, count) => {
        const plan = planOf(runs);
        const sink = new MemorySink();
        const w = new JsonlWriter(sink);
        await w.write(plan, first, count);
        await w.flush();
        const assignment = [...expand(plan)];
        const expected = Array.from({ length: count }, (_, k) => `${JSON.stringify({ assignment, sample: first + k })}\n`).join('');
        expect(sink.text()).toBe(expected);
      }),
      { numRuns: 60 },
    );
  });

  it('writes runs of thousands of distinct values and lengths as JSON.stringify does', async () => {
    // More (value, length) pairs than the writer keeps copies of at once, each run too long for the byte loop.
    const runs = Array.from({ length: 6000 }, (_, i) => [(i * 7919) % 65536, 25 + (i % 97)] as [number, number]);
    const plan = planOf(runs);
    const sink = new MemorySink();
    const w = new JsonlWriter(sink);
    await w.write(plan, 3, 2);
    await w.write(plan, 5);
    await w.flush();
    const line = (k: number) => `${JSON.stringify({ assignment: [...expand(plan)], sample: k })}\n`;
    expect(sink.text()).toBe(line(3) + line(4) + line(5));
  });

  it('writes a line of millions of nodes in pieces of about a megabyte, and stops at the first write that fails', async () => {
    // 64 runs of 65 535 nodes: 4.2 million nodes, a line of about 25 MB, three samples of it.
    const plan = planOf(Array.from({ length: 64 }, (_, i) => [i % 2 ? 65535 : i, 0xffff] as [number, number]));
    const sink = new MemorySink();
    const w = new JsonlWriter(sink);
    await w.write(plan, 7, 3);
    await w.flush();
    expect(Math.max(...sink.parts.map((p) => p.length))).toBeLessThanOrEqual((1 << 20) + 6);
    const assignment = JSON.stringify([...expand(plan)]);
    expect(sink.text()).toBe([7, 8, 9].map((k) => `{"assignment":${assignment},"sample":${k}}\n`).join(''));
    expect(w.bytes).toBe(sink.bytes().length);

    let writes = 0;
    const failing = new JsonlWriter({
      write: () => {
        writes++;
        return Promise.reject(new Error('disk full'));
      },
    });
    await expect(failing.write(plan, 1, 1000)).rejects.toThrow('disk full');
    expect(writes).toBe(1);
  });

  it('hands a sink that keeps its chunks copies, and reuses its buffer only for a sink that lets go of a chunk when its write resolves', async () => {
    // 40 samples of a 100 000-node plan: about 24 MB of JSONL, so the 1 MiB buffer is flushed many times.
    const plan = planOf(Array.from({ length: 50 }, (_, i) => [i * 97, 2000] as [number, number]));
    const line = (k: number) => `${JSON.stringify({ assignment: [...expand(plan)], sample: k })}\n`;
    const expected = Array.from({ length: 40 }, (_, k) => line(k + 1)).join('');
    // Keeps the chunks it is given, uncopied: a writer that refilled one would change what it holds.
    const kept: Uint8Array[] = [];
    const keeper: ByteSink = { write: (c) => (kept.push(c), Promise.resolve()) };
    // Lets go at resolve, but checks that nothing changed the chunk while its write was pending.
    const seen: Uint8Array[] = [];
    const buffers = new Set<ArrayBufferLike>();
    let changedWhilePending = 0;
    const releaser: ByteSink = {
      releasesChunk: true,
      async write(c) {
        const copy = c.slice();
        buffers.add(c.buffer);
        await new Promise((r) => setImmediate(r));
        if (!c.every((b, i) => b === copy[i])) changedWhilePending++;
        seen.push(copy);
      },
    };
    for (const sink of [keeper, releaser]) {
      const w = new JsonlWriter(sink);
      await w.write(plan, 1, 20);
      for (let k = 21; k <= 40; k++) await w.write(plan, k);
      await w.flush();
    }
    const text = (parts: Uint8Array[]) => new TextDecoder().decode(Buffer.concat(parts));
    expect(text(kept)).toBe(expected);
    expect(text(seen)).toBe(expected);
    expect(changedWhilePending).toBe(0);
    // The releasing sink was given views of the writer's buffer (grown once, from its first small size), the keeping one copies.
    expect(seen.length).toBeGreaterThan(10);
    expect(buffers.size).toBeLessThanOrEqual(2);
    expect(Math.max(...seen.map((c) => c.length))).toBeLessThanOrEqual(1 << 20);
    expect(new Set(kept.map((c) => c.buffer)).size).toBe(kept.length);
  });
});
