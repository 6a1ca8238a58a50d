import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../../test/helpers/fixtures.js';
import { MemorySource } from '../../io/byteSource.js';
import { ChunkReader, columnViews } from './columns.js';
import { readContainer } from './container.js';
import { binduMemory } from './memory.js';

describe("a bindu document's decoded columns in the memory budget", () => {
  it('are counted once read, go back to nothing when dropped, and read the same again', async () => {
    const src = new MemorySource(readFixture('bindu/sample.bindu'));
    const views = columnViews(await readContainer(src));
    const reader = new ChunkReader(src);
    const memory = binduMemory(reader);
    expect(memory.bytes()).toBe(0);
    const read = () => Promise.all(views.map((v) => reader.range(v, 0, v.column.rowCount)));
    const first = await read();
    const rows = views.reduce((n, v) => n + v.column.rowCount, 0);
    expect(memory.bytes()).toBeGreaterThanOrEqual(rows * 8);
    memory.drop();
    expect(memory.bytes()).toBe(0);
    expect(await read()).toEqual(first);
    expect(memory.bytes()).toBeGreaterThanOrEqual(rows * 8);
  });
});
