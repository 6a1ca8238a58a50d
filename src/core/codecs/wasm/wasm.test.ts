import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM helper (also run by hand to regenerate the .wasm files)
import { assemble } from './assemble.mjs';

const here = import.meta.dirname;

describe('hand-written WebAssembly', () => {
  it('every committed .wasm is the compilation of its .wat (run assemble.mjs after editing one)', async () => {
    const wats = readdirSync(here).filter((n) => n.endsWith('.wat'));
    expect(wats.length).toBeGreaterThan(0);
    for (const wat of wats) {
      const built = (await assemble(join(here, wat))) as Uint8Array;
      const committed = new Uint8Array(readFileSync(join(here, wat.replace(/\.wat$/, '.wasm'))));
      expect(Buffer.compare(Buffer.from(built), Buffer.from(committed)), wat).toBe(0);
    }
  });
});
