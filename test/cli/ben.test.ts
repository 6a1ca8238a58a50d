import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BEN_BUNDLES, BEN_STREAMS } from '../helpers/benFixtures.js';
import { binlens } from '../helpers/cli.js';
import { fixture, readFixture } from '../helpers/fixtures.js';
import { scratchDir } from '../helpers/scratch.js';

const dir = scratchDir('ben-cli');

describe('binlens cat (ben)', () => {
  it.each([...BEN_STREAMS, ...BEN_BUNDLES])('%s prints the reference JSONL byte for byte', async (file, truth) => {
    const r = await binlens('cat', fixture(file));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(readFileSync(fixture(truth), 'utf8'));
  });

  it('prints the good prefix of a damaged stream, then the located error (exit 1: damaged, not unreadable)', async () => {
    for (const [file, partial] of [
      ['ben/negative/trunc_midframe.standard.ben', 'ben/negative/trunc_midframe.standard.partial.jsonl'],
      ['ben/negative/trunc.mkv_chain.xben', 'ben/negative/trunc.mkv_chain.partial.jsonl'],
    ]) {
      const r = await binlens('cat', fixture(file!));
      expect(r.stdout).toBe(readFileSync(fixture(partial!), 'utf8'));
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/offset \d+/);
    }
  });

  it('--from and --count select samples, keeping their numbers', async () => {
    const truth = readFileSync(fixture('ben/grid4x4_chain.jsonl'), 'utf8').split('\n');
    expect((await binlens('cat', fixture('ben/grid4x4_chain.mkv_chain.ben'), '--from', '40', '--count', '3')).stdout).toBe(
      truth.slice(40, 43).join('\n') + '\n',
    );
  });
});

describe('binlens verify / info / convert (ben)', () => {
  it("locates each negative fixture's damage", async () => {
    const cases: [string, number, RegExp][] = [
      ['ben/negative/bad_banner.standard.ben', 2, /banner/],
      ['ben/negative/trunc_midframe.standard.ben', 1, /frame 47/],
      ['ben/negative/zero_count.mkv_chain.ben', 1, /repeat count 0/],
      ['ben/negative/flipped_byte.mkv_chain.xben', 1, /corrupt/],
      ['ben/negative/trunc.mkv_chain.xben', 1, /index and footer are missing|ends early/],
    ];
    for (const [file, code, what] of cases) {
      const r = await binlens('verify', fixture(file), '--json');
      expect(r.code, file).toBe(code);
      const v = JSON.parse(r.stdout) as { checks: { ok: boolean; detail: string; offset?: number }[] };
      const bad = v.checks.filter((c) => !c.ok);
      expect(
        bad.some((c) => what.test(c.detail)),
        `${file}: ${JSON.stringify(bad)}`,
      ).toBe(true);
      for (const c of bad) expect(c.offset).toBeTypeOf('number');
    }
  });

  it('the bit-flipped payload verifies (BEN has no checksum), as the manifest says', async () => {
    expect((await binlens('verify', fixture('ben/negative/payload_bitflip.standard.ben'))).code).toBe(0);
  });

  it('info --json of a finalized bundle gives its sample count from the header', async () => {
    const j = JSON.parse((await binlens('info', fixture('ben/independent/flags_set.bendl'), '--json')).stdout) as Record<string, unknown>;
    expect(j).toMatchObject({ format: 'ben', container: 'bendl', layout: 'newest', sampleCount: '5', variant: 'standard' });
  });

  it('convert JSONL → BEN (Standard, MkvChain) equals the reference files; → XBEN → JSONL round trips', async () => {
    for (const variant of ['standard', 'mkv_chain']) {
      const out = join(dir, `grid.${variant}.ben`);
      expect((await binlens('convert', fixture('ben/grid4x4_chain.jsonl'), out, '--set', `variant=${variant}`)).code).toBe(0);
      expect(readFileSync(out)).toEqual(readFileSync(fixture(`ben/grid4x4_chain.${variant}.ben`)));
    }
    const x = join(dir, 'edge.xben');
    expect((await binlens('convert', fixture('ben/edge_small_example.jsonl'), x, '--set', 'variant=two_delta')).code).toBe(0);
    expect((await binlens('cat', x)).stdout).toBe(readFileSync(fixture('ben/edge_small_example.jsonl'), 'utf8'));
    const bundle = join(dir, 'grid.bendl');
    expect(
      (
        await binlens(
          'convert',
          fixture('ben/grid4x4_chain.mkv_chain.xben'),
          bundle,
          '--set',
          `graph=${fixture('ben/grid4x4_graph.json')}`,
          '--set',
          'select=every 2',
        )
      ).code,
    ).toBe(0);
    expect((await binlens('verify', bundle)).code).toBe(0);
    expect((await binlens('cat', bundle)).stdout.split('\n')).toHaveLength(25);
  });
});

describe('damage in checked bytes (issue 17)', () => {
  /** A copy of a fixture with one byte flipped, written to the temporary folder. */
  const flippedCopy = (file: string, name: string, at: (bytes: Uint8Array) => number): string => {
    const bytes = readFixture(file).slice();
    bytes[at(bytes)]! ^= 0xff;
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };
  // spec_example_finalized.bendl: a 53-byte BEN stream at 255 (header bytes 40 and 48), covered by the header's CRC32C.
  const bundle = () => flippedCopy('ben/spec-derived/spec_example_finalized.bendl', 'stream-flip.bendl', () => 255 + 30);
  // The xz block header of an .xben starts at 12, right after the stream header; it carries a CRC32.
  const xben = () => flippedCopy('ben/grid4x4_chain.mkv_chain.xben', 'block-flip.xben', () => 13);

  it('a flipped stream byte in a bundle: cat exits 1 naming the file, the offset and the failed CRC32C, and writes no sample', async () => {
    const path = bundle();
    const r = await binlens('cat', path);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(path);
    expect(r.stderr).toMatch(/stream at offset 255 .*CRC32C/);
  });

  it('convert of a bundle whose stream CRC32C fails exits 1 and leaves no output file', async () => {
    const out = join(dir, 'stream-flip.jsonl');
    const r = await binlens('convert', bundle(), out);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/CRC32C/);
    expect(existsSync(out)).toBe(false);
  });

  it('cat --salvage of that bundle exits 1 and lists the stream with its bytes and all 5 samples', async () => {
    const r = await binlens('cat', bundle(), '--salvage');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/left out 1 damaged unit/);
    expect(r.stderr).toMatch(/stream bytes 255–308, rows 1–5: CRC32C/);
  });

  it('an .xben whose block header fails its CRC32: cat and convert exit 1 with nothing written (damaged, not unreadable); --salvage lists it', async () => {
    const path = xben();
    const cat = await binlens('cat', path);
    expect(cat.code).toBe(1);
    expect(cat.stdout).toBe('');
    expect(cat.stderr).toMatch(/offset \d+/);
    const out = join(dir, 'block-flip.jsonl');
    expect((await binlens('convert', path, out)).code).toBe(1);
    expect(existsSync(out)).toBe(false);
    const salvaged = await binlens('cat', path, '--salvage');
    expect(salvaged.code).toBe(1);
    expect(salvaged.stderr).toMatch(/left out 1 damaged unit:\n {2}(stream|xz)/);
  });

  it('verify of a BEN stream says that no checksum covers its frames', async () => {
    const r = await binlens('verify', fixture('ben/grid4x4_chain.standard.ben'));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/not covered: BEN frames: no checksum covers them/);
  });
});

describe('binlens info counts (ben, issue 18)', () => {
  // Ground truth from the fixture's JSONL: 48 samples; 37 frames in MkvChain, where a sample equal
  // to the one before it is a repeat count, not a frame.
  const lines = readFileSync(fixture('ben/grid4x4_chain.jsonl'), 'utf8').split('\n').filter(Boolean);
  const plans = lines.map((l) => JSON.stringify((JSON.parse(l) as { assignment: number[] }).assignment));
  const mkvFrames = plans.filter((p, i) => i === 0 || p !== plans[i - 1]).length;

  it.each([
    ['ben/grid4x4_chain.standard.ben', lines.length],
    ['ben/grid4x4_chain.mkv_chain.ben', mkvFrames],
    ['ben/grid4x4_chain.mkv_chain.xben', mkvFrames],
  ])('info of %s gives the exact frame and sample counts, in text and JSON', async (file, frames) => {
    const text = (await binlens('info', fixture(file))).stdout;
    expect(text).toContain(`\nframes: ${frames}\n`);
    expect(text).toContain(`\nsamples: ${lines.length}\n`);
    const j = JSON.parse((await binlens('info', fixture(file), '--json')).stdout) as Record<string, unknown>;
    expect(j).toMatchObject({ frames, samples: lines.length, counted: true });
  });

  it('info of a bundle counts its XBEN Standard stream: a frame per line of the source.jsonl it decodes to (the fixture README)', async () => {
    const n = readFileSync(fixture('ben/independent/source.jsonl'), 'utf8').split('\n').filter(Boolean).length;
    const j = JSON.parse((await binlens('info', fixture('ben/independent/flags_set.bendl'), '--json')).stdout) as Record<string, unknown>;
    expect(j).toMatchObject({ sampleCount: String(n), frames: n, samples: n, counted: true });
  });

  it('info --fast of a stream too large to count at open says "not counted" (JSON: null, counted false); without it the counts are exact', async () => {
    // MkvChain frames stand alone, so the fixture's frames repeated after its banner are a valid
    // stream: 2 000 copies (1.1 MB, past the size an open counts at once).
    const one = readFixture('ben/grid4x4_chain.mkv_chain.ben');
    const copies = 2000;
    const big = new Uint8Array(17 + copies * (one.length - 17));
    big.set(one.subarray(0, 17));
    for (let i = 0; i < copies; i++) big.set(one.subarray(17), 17 + i * (one.length - 17));
    const path = join(dir, 'tiled.mkv_chain.ben');
    writeFileSync(path, big);
    const fast = (await binlens('info', path, '--fast')).stdout;
    expect(fast).toContain('\nframes: not counted\n');
    expect(fast).toContain('\nsamples: not counted\n');
    expect(JSON.parse((await binlens('info', path, '--fast', '--json')).stdout)).toMatchObject({ frames: null, samples: null, counted: false });
    expect(JSON.parse((await binlens('info', path, '--json')).stdout)).toMatchObject({
      frames: copies * mkvFrames,
      samples: copies * lines.length,
      counted: true,
    });
  });
});
