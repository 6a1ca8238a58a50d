import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { FstBuilder } from '../../src/core/formats/fst/builder.js';
import { xorshift32 } from '../synthetic.js';
import type { BenchCase } from '../types.js';

/**
 * Folder verify at scale (issue 21 item 3): `binlens verify FOLDER --jobs 2` over 10 000 small
 * files of every family: the fixtures under 64 KiB, the families taking turns, one file in ten an fst our
 * builder wrote from random keys, and one in a thousand damaged (cut short, or a byte flipped
 * in its second half). The native floor is the same number of files checked by the reference
 * tools: half `.xz` (`xz -t`), half `.lz4` (`lz4 -t`), each the compression of the fixture it
 * stands for, one process per tool as xz and lz4 check many files in one run. Target ≥ 1 500
 * files/s at ≤ 200 MB peak RSS on this 2-core machine.
 */
const FIXTURES = resolve('../shared/fixtures');
const CLI = resolve(process.env.BINLENS_CLI ?? 'dist/cli.js');
const FILES = 10_000;
const JOBS = 2;
const FOLDER = 'verify-folder';
const NATIVE = 'verify-folder-native';
const EXTENSIONS = new Set(['.ben', '.xben', '.bendl', '.xorb', '.bindu', '.idv', '.fst']);

/** The fixtures under 64 KiB, one list per family (fst has most of them). */
function smallFixtures(): string[][] {
  return ['ben', 'xorb', 'bindu', 'idv', 'fst'].map((family) =>
    readdirSync(join(FIXTURES, family), { recursive: true, encoding: 'utf8' })
      .filter((f) => EXTENSIONS.has(extname(f)) && !/corrupt|damag|trunc|negative/i.test(f))
      .map((f) => join(FIXTURES, family, f))
      .filter((f) => statSync(f).size < 64 << 10)
      .sort(),
  );
}

/** File `i`'s fixture: the families take turns, each cycling through its own fixtures. */
function fixtureFor(families: readonly string[][], i: number): string {
  const list = families[i % families.length]!;
  return list[Math.floor(i / families.length) % list.length]!;
}

/** An fst of 50–500 random keys, written by our builder. */
function randomFst(next: () => number): Uint8Array {
  const keys = new Set<string>();
  const n = 50 + (next() % 450);
  while (keys.size < n) keys.add((next() >>> 0).toString(36) + (next() % 1000).toString(36));
  const b = new FstBuilder(3);
  const enc = new TextEncoder();
  for (const k of [...keys].sort((x, y) => Buffer.compare(enc.encode(x), enc.encode(y)))) b.insert(enc.encode(k), BigInt(next() % 100_000));
  return b.finish();
}

function damage(bytes: Uint8Array, next: () => number): Uint8Array {
  if (next() % 2 === 0) return bytes.slice(0, Math.max(1, bytes.length >> 1));
  const out = bytes.slice();
  out[(out.length >> 1) + (next() % Math.max(1, out.length >> 1))]! ^= 0x5a;
  return out;
}

function prepareFolder(dir: string): void {
  const fixtures = smallFixtures();
  const next = xorshift32(2026);
  const tmp = `${dir}.partial`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  for (let i = 0; i < FILES; i++) {
    const name = (ext: string) => join(tmp, `${String(i).padStart(5, '0')}${ext}`);
    if (i % 10 === 9) {
      writeFileSync(name('.fst'), randomFst(next));
      continue;
    }
    const from = fixtureFor(fixtures, i);
    // One in a thousand damaged, each family in turn.
    if (i % 1000 === 500 + (Math.floor(i / 1000) % 5)) writeFileSync(name(extname(from)), damage(readFileSync(from), next));
    else copyFileSync(from, name(extname(from)));
  }
  renameSync(tmp, dir);
}

const hasTool = (tool: string) => spawnSync(tool, ['--version']).status === 0;

/** 5 000 .xz and 5 000 .lz4 files: each fixture compressed once by the tool, then copied. */
function prepareNative(dir: string): void {
  const fixtures = smallFixtures();
  const tmp = `${dir}.partial`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  for (const [tool, ext, args] of [
    ['xz', '.xz', ['-z', '-c', '-6']],
    ['lz4', '.lz4', ['-z', '-c']],
  ] as const) {
    const packed = new Map<string, Buffer>();
    for (let i = 0; i < FILES / 2; i++) {
      const from = fixtureFor(fixtures, i);
      if (!packed.has(from)) packed.set(from, spawnSync(tool, [...args, from], { maxBuffer: 1 << 26 }).stdout);
      writeFileSync(join(tmp, `${String(i).padStart(5, '0')}${ext}`), packed.get(from)!);
    }
  }
  renameSync(tmp, dir);
}

export const cases: BenchCase[] = [
  {
    id: 'verify-folder-10k',
    title: `verify a folder of ${FILES.toLocaleString('en')} small mixed files (--jobs ${JOBS}; 1 in 1 000 damaged), files/s and peak RSS`,
    runs: 3,
    prepare(data) {
      if (!existsSync(join(data, FOLDER))) prepareFolder(join(data, FOLDER));
      if (hasTool('xz') && hasTool('lz4') && !existsSync(join(data, NATIVE))) prepareNative(join(data, NATIVE));
      return Promise.resolve();
    },
    run(data) {
      if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run node scripts/build.mjs first`);
      // GNU time reports the peak RSS of the process with its worker threads.
      const start = process.hrtime.bigint();
      const r = spawnSync('/usr/bin/time', ['-f', '%M %U %S', process.execPath, CLI, 'verify', join(data, FOLDER), '--jobs', String(JOBS)], {
        encoding: 'utf8',
        maxBuffer: 1 << 28,
      });
      const timedMs = Number(process.hrtime.bigint() - start) / 1e6;
      const verdicts = r.stdout.split('\n').filter((l) => /^(OK|FAIL) /.test(l));
      const failed = verdicts.filter((l) => l.startsWith('FAIL')).length;
      // Exit 1 or 2: the damaged files are there to fail.
      // Some damage lies where no checksum reaches (IDV has none), so not every damaged file fails.
      if (verdicts.length !== FILES || failed === 0)
        throw new Error(`verify: ${verdicts.length} verdicts, ${failed} failed, exit ${r.status}: ${r.stderr.slice(-500)}`);
      const [rssKb, user, system] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number);
      const peakMb = rssKb! / 1024;
      // CPU seconds too: on the shared cores the wall time says as much about the other work as about ours.
      const cpu = user! + system!;
      const table = [
        '| files | failed | files/s | CPU s (user + system) | files per CPU s | peak RSS (CLI with its workers) |',
        '|---|---|---|---|---|---|',
        `| ${FILES} | ${failed} | ${((FILES / timedMs) * 1000).toFixed(0)} | ${cpu.toFixed(2)} | ${(FILES / cpu).toFixed(0)} | ${peakMb.toFixed(0)} MB |`,
      ].join('\n');
      return Promise.resolve({ items: FILES, timedMs, extraRssMb: peakMb, table });
    },
    native(data) {
      if (!hasTool('xz') || !hasTool('lz4')) return undefined;
      const dir = join(data, NATIVE);
      // One shell, one xz and one lz4 process for the 10 000 files: the tools' own floor, no process per file.
      return { label: `xz -t + lz4 -t -m on ${FILES} files`, command: ['sh', '-c', `cd '${dir}' && xz -t *.xz && lz4 -q -t -m *.lz4`] };
    },
  },
];
