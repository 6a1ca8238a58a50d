import { describe, expect, it } from 'vitest';
import { HeldFiles, type FileStamp } from './heldFiles.js';

function files(initial: Record<string, string>) {
  const disk = new Map(Object.entries(initial).map(([k, v]) => [k, { text: v, mtime: 1 }]));
  let reads = 0;
  const held = new HeldFiles(
    async (l): Promise<FileStamp> => ({ size: disk.get(l)!.text.length, mtime: disk.get(l)!.mtime }),
    async (l) => (reads++, new TextEncoder().encode(disk.get(l)!.text)),
  );
  return { held, disk, reads: () => reads };
}

describe('HeldFiles', () => {
  it('gives a second open of an unchanged file the bytes the first holds, without reading it again', async () => {
    const f = files({ a: 'alpha', b: 'beta' });
    const first = await f.held.bytes('a');
    expect(await f.held.bytes('a')).toBe(first);
    expect(f.reads()).toBe(1);
    expect(new TextDecoder().decode(await f.held.bytes('b'))).toBe('beta');
    expect(f.reads()).toBe(2);
  });

  it('reads again once the file changed on disk (mtime or size), and serves the new bytes', async () => {
    const f = files({ a: 'alpha' });
    const old = await f.held.bytes('a');
    f.disk.set('a', { text: 'alpha', mtime: 2 });
    const touched = await f.held.bytes('a');
    expect(touched).not.toBe(old);
    f.disk.set('a', { text: 'alphabet', mtime: 2 });
    expect(new TextDecoder().decode(await f.held.bytes('a'))).toBe('alphabet');
    expect(f.reads()).toBe(3);
  });
});
