import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openFile } from '../../core/io/nodeFile.js';
import { IndexStore } from './indexStore.js';

const dirs: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'binlens-index-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A data file of `size` bytes, every byte from `fill`. */
function dataFile(dir: string, name: string, size: number, fill = (i: number) => i % 251): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    Uint8Array.from({ length: size }, (_, i) => fill(i)),
  );
  return path;
}

async function roundTrip(store: IndexStore, path: string, index?: Uint8Array): Promise<Uint8Array | undefined> {
  const src = await openFile(path);
  try {
    if (index) await store.save(path, src, index);
    return await store.load(path, src);
  } finally {
    await src.close?.();
  }
}

describe('the index store', () => {
  const index = Uint8Array.from([1, 2, 3, 4, 5]);

  it('gives a saved index back for the same file, and none once the file changed in size, mtime or either end', async () => {
    const dir = temp();
    const store = new IndexStore(join(dir, 'store'));
    const path = dataFile(dir, 'a.ben', 300_000);
    expect(await roundTrip(store, path, index)).toEqual(index);
    expect(await roundTrip(store, path)).toEqual(index);

    // Same size and mtime, one byte changed in the last 64 KiB: the ends' hash differs.
    const t = new Date(2026, 0, 1);
    utimesSync(path, t, t);
    await roundTrip(store, path, index);
    dataFile(dir, 'a.ben', 300_000, (i) => (i === 299_999 ? 7 : i % 251));
    utimesSync(path, t, t);
    expect(await roundTrip(store, path)).toBeUndefined();

    await roundTrip(store, path, index);
    dataFile(dir, 'a.ben', 300_000);
    utimesSync(path, t, new Date(2026, 0, 2));
    expect(await roundTrip(store, path)).toBeUndefined();

    await roundTrip(store, path, index);
    dataFile(dir, 'a.ben', 300_001);
    expect(await roundTrip(store, path)).toBeUndefined();
  });

  it('keeps the folder under its budget by deleting the entries used least recently', async () => {
    const dir = temp();
    const store = new IndexStore(join(dir, 'store'), 2500);
    const big = new Uint8Array(1000).fill(9);
    const [a, b, c] = ['a', 'b', 'c'].map((n) => dataFile(dir, `${n}.fst`, 1000 + n.charCodeAt(0)));
    await roundTrip(store, a!, big);
    await roundTrip(store, b!, big);
    // Using a makes b the least recently used when c's entry needs room.
    const past = new Date(Date.now() - 60_000);
    for (const f of readdirSync(join(dir, 'store'))) utimesSync(join(dir, 'store', f), past, past);
    expect(await roundTrip(store, a!)).toEqual(big);
    await roundTrip(store, c!, big);
    expect(readdirSync(join(dir, 'store'))).toHaveLength(2);
    expect([await roundTrip(store, a!), await roundTrip(store, b!), await roundTrip(store, c!)]).toEqual([big, undefined, big]);
  });

  it('reads a damaged entry or a missing file as no index, and never throws', async () => {
    const dir = temp();
    const store = new IndexStore(join(dir, 'store'));
    const path = dataFile(dir, 'x.ben', 100);
    await roundTrip(store, path, index);
    const [entry] = readdirSync(join(dir, 'store'));
    writeFileSync(join(dir, 'store', entry!), Uint8Array.from([255, 255, 255, 127, 1]));
    expect(await roundTrip(store, path)).toBeUndefined();
    const src = await openFile(path);
    rmSync(path);
    await expect(store.load(path, src)).resolves.toBeUndefined();
    await expect(store.save(path, src, index)).resolves.toBeUndefined();
    await src.close?.();
  });

  it("a slot (a panel's cached results) is an entry of its own beside the index, held to the same file identity", async () => {
    const dir = temp();
    const store = new IndexStore(join(dir, 'store'));
    const path = dataFile(dir, 'a.ben', 200_000);
    const src = await openFile(path);
    try {
      await store.save(path, src, index);
      await store.save(path, src, Uint8Array.from([9, 9]), 'ensemble:key');
      expect(await store.load(path, src)).toEqual(index);
      expect(await store.load(path, src, 'ensemble:key')).toEqual(Uint8Array.from([9, 9]));
      expect(await store.load(path, src, 'ensemble:other')).toBeUndefined();
    } finally {
      await src.close?.();
    }
    // the file changes at its end: the slot is a miss as the index is
    dataFile(dir, 'a.ben', 200_000, (i) => (i === 199_999 ? 7 : i % 251));
    const changed = await openFile(path);
    try {
      expect(await store.load(path, changed, 'ensemble:key')).toBeUndefined();
    } finally {
      await changed.close?.();
    }
  });
});
