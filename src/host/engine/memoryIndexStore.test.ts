import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../core/io/byteSource.js';
import { MemoryIndexStore } from './memoryIndexStore.js';

const file = (size: number, change?: number) => new MemorySource(Uint8Array.from({ length: size }, (_, i) => (i === change ? 255 : i % 251)));

describe("the web host's index store (in memory)", () => {
  it('gives an entry back for the same file and slot, none once the size, mtime or either end changed', async () => {
    let mtime = 1;
    const store = new MemoryIndexStore(async () => mtime);
    await store.save('u', file(200_000), Uint8Array.from([1, 2]));
    await store.save('u', file(200_000), Uint8Array.from([7]), 'ensemble:k');
    expect(await store.load('u', file(200_000))).toEqual(Uint8Array.from([1, 2]));
    expect(await store.load('u', file(200_000), 'ensemble:k')).toEqual(Uint8Array.from([7]));
    expect(await store.load('u', file(200_000), 'ensemble:other')).toBeUndefined();
    expect(await store.load('other', file(200_000))).toBeUndefined();
    expect(await store.load('u', file(200_001))).toBeUndefined();
    expect(await store.load('u', file(200_000, 10))).toBeUndefined();
    expect(await store.load('u', file(200_000, 199_990))).toBeUndefined();
    // the middle is not compared (as on disk, mtime speaks for it)
    expect(await store.load('u', file(200_000, 100_000))).toEqual(Uint8Array.from([1, 2]));
    mtime = 2;
    expect(await store.load('u', file(200_000))).toBeUndefined();
  });

  it('keeps within its budget by dropping the least recently used', async () => {
    const store = new MemoryIndexStore(async () => 0, 3 * (1000 + 100));
    for (const p of ['a', 'b', 'c']) await store.save(p, file(50), new Uint8Array(1000));
    expect(await store.load('a', file(50))).toBeDefined(); // a is now the most recent
    await store.save('d', file(50), new Uint8Array(1000));
    expect(await store.load('b', file(50))).toBeUndefined();
    expect(await store.load('a', file(50))).toBeDefined();
    expect(await store.load('d', file(50))).toBeDefined();
  });
});
