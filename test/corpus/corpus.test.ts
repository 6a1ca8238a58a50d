import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exercise } from '../fuzz/pipeline.js';

/**
 * Every input the fuzzer ever caught (a crash, hang, slow input or out-of-memory) stays here and
 * must now go through the whole pipeline with nothing but FormatErrors.
 */
const families = readdirSync(__dirname, { withFileTypes: true }).filter((d) => d.isDirectory());
const files = families.flatMap((d) =>
  readdirSync(join(__dirname, d.name))
    .filter((f) => !f.endsWith('.json'))
    .map((f) => [d.name, f] as const),
);

describe('fuzz regression corpus', () => {
  it('has regression files', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  // A hang fails by the test timeout; the fuzzer itself enforces its 2 s per input.
  it.each(files)('%s/%s goes through open, structure, pages, verify and convert', { timeout: 20_000 }, async (family, file) => {
    const bytes = new Uint8Array(readFileSync(join(__dirname, family, file)));
    await expect(exercise(bytes, file)).resolves.toBeDefined();
  });
});
