import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../io/byteSource.js';
import { readJsonl } from './jsonlRead.js';
import { expand } from './plan.js';

async function read(text: string): Promise<number[][]> {
  const out: number[][] = [];
  for await (const s of readJsonl(new MemorySource(new TextEncoder().encode(text)))) out.push(Array.from(expand(s.plan)));
  return out;
}

describe('JSONL plans', () => {
  it('reads the reference form, spaces, any key order, CRLF, blank lines, empty plans and a last line without newline', async () => {
    expect(
      await read(
        '{"assignment":[1,1,2],"sample":1}\n{"assignment": [ 0 , 65535,3 ],"sample":2}\r\n\n{"sample":3,"assignment":[4]}\n{"assignment":[]}\n{"assignment":[7,7]}',
      ),
    ).toEqual([[1, 1, 2], [0, 65535, 3], [4], [], [7, 7]]);
  });

  it('names the line of a value that is not a district id', async () => {
    for (const bad of ['[1,65536]', '[1,-1]', '[1.5]', '["1"]', '[01]', '[1,]']) {
      await expect(read(`{"assignment":[0]}\n{"assignment":${bad}}\n`), bad).rejects.toMatchObject({ field: 'line 2' });
    }
    await expect(read('{"sample":1}\n')).rejects.toMatchObject({ detail: 'no "assignment" array', field: 'line 1' });
  });

  it('a line split across the 1 MiB read pieces still parses', async () => {
    const long = Array.from({ length: 400_000 }, (_, i) => (i >> 10) % 9);
    expect(await read(`{"assignment":[${long.join(',')}]}\n{"assignment":[3]}\n`)).toEqual([long, [3]]);
  });
});
