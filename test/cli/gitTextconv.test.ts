import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { handlers } from '../../src/core/registry.js';
import { CLI } from '../helpers/cli.js';
import { fixture } from '../helpers/fixtures.js';
import { scratchDir } from '../helpers/scratch.js';

/**
 * `binlens dump` and `dump --brief` as git textconv drivers, with real git in a temporary
 * repository (README, "git can show what changed in a binary file"): one commit holds a fixture of
 * each family, the next another fixture of that family (under `full/`, shown by `dump`) and the
 * first with one byte flipped (under `brief/`, shown by `dump --brief`). `git diff HEAD~1` and
 * `git log -p` must show the structural change. Each expected line comes from the fixtures'
 * ground truth (their manifests, truth files, row lists), the digests from node:crypto.
 */
const run = promisify(execFile);
const hasGit = spawnSync('git', ['--version']).status === 0;

interface Case {
  readonly family: string;
  readonly ext: string;
  readonly before: string;
  readonly after: string;
  /** The dump lines (past the offset and length columns) the change must remove and add. */
  readonly removed: string;
  readonly added: string;
  /** A byte inside a section whose bytes nothing else depends on for parsing (a payload, a node). */
  readonly flip: number;
}

const lines = (path: string) => readFileSync(fixture(path), 'utf8').trim().split('\n').length;
const truth = (path: string) => JSON.parse(readFileSync(fixture(path), 'utf8')) as Record<string, unknown>;

const CASES: Case[] = [
  // The key counts are the lines of the fixtures' TSV key lists.
  {
    family: 'fst',
    ext: 'fst',
    before: 'fst/one.map.fst3.fst',
    after: 'fst/small.map.fst3.fst',
    removed: `keys (footer) = ${lines('fst/one.map.tsv')}`,
    added: `keys (footer) = ${lines('fst/small.map.tsv')}`,
    flip: 17,
  },
  // One JSONL line per sample.
  {
    family: 'ben',
    ext: 'ben',
    before: 'ben/grid4x4_chain.standard.ben',
    after: 'ben/v1_source.standard.ben',
    removed: `samples = ${lines('ben/grid4x4_chain.jsonl')}`,
    added: `samples = ${lines('ben/v1_source.jsonl')}`,
    flip: 100,
  },
  {
    family: 'bindu',
    ext: 'bindu',
    before: 'bindu/sample.bindu',
    after: 'bindu/preamble8-variant.bindu',
    removed: `rows = ${String(truth('bindu/sample.truth.json').rows_in_file)}`,
    added: `rows = ${String(truth('bindu/preamble8-variant.truth.json').rows_in_file)}`,
    flip: 300,
  },
  {
    family: 'xorb',
    ext: 'xorb',
    before: 'xorb/01_none_only.xorb',
    after: 'xorb/02_lz4_text.xorb',
    removed: `xorb hash = ${String(truth('xorb/01_none_only.json').xorb_hash)}`,
    added: `xorb hash = ${String(truth('xorb/02_lz4_text.json').xorb_hash)}`,
    flip: 100,
  },
  // The schemas in the IDV manifest: Value is Single in one term lookup, Key2<UInt32,5> in the other.
  {
    family: 'idv',
    ext: 'idv',
    before: 'idv/mlnet-model-embedded/termlookup__DataLoaderModel_Transform_000_DefaultMap.idv',
    after: 'idv/mlnet-model-embedded/termlookup_with_key__DataLoaderModel_Transform_000_DefaultMap.idv',
    removed: 'column 1: Value = Single',
    added: 'column 1: Value = Key<UInt32, 5>',
    flip: 300,
  },
];

const repo = scratchDir('git');

/** git with no user or system configuration: only what the test sets. */
async function git(...args: string[]): Promise<string> {
  const env = { ...process.env, HOME: repo, XDG_CONFIG_HOME: repo, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };
  const r = await run('git', ['-c', 'color.ui=false', ...args], { cwd: repo, env, maxBuffer: 64 * 2 ** 20 });
  return r.stdout;
}

const flipped = (c: Case) => {
  const bytes = readFileSync(fixture(c.before));
  bytes[c.flip] = bytes[c.flip]! ^ 0x01;
  return bytes;
};

beforeAll(async () => {
  if (!hasGit) return;
  await git('init', '-q');
  await git('config', 'user.email', 'test@binlens.invalid');
  await git('config', 'user.name', 'binlens test');
  const cli = `"${process.execPath}" "${CLI}"`;
  await git('config', 'diff.binlens.textconv', `${cli} dump`);
  await git('config', 'diff.binlens-brief.textconv', `${cli} dump --brief`);
  // Every family's extensions take the full dump; the brief/ folder takes the brief one (a later line wins).
  const extensions = handlers.flatMap((h) => h.extensions);
  writeFileSync(
    join(repo, '.gitattributes'),
    [...extensions.map((e) => `*${e} diff=binlens`), ...extensions.map((e) => `brief/*${e} diff=binlens-brief`), ''].join('\n'),
  );
  mkdirSync(join(repo, 'full'));
  mkdirSync(join(repo, 'brief'));
  for (const c of CASES) {
    copyFileSync(fixture(c.before), join(repo, 'full', `data.${c.ext}`));
    copyFileSync(fixture(c.before), join(repo, 'brief', `data.${c.ext}`));
  }
  await git('add', '.');
  await git('commit', '-q', '-m', 'first');
  for (const c of CASES) {
    copyFileSync(fixture(c.after), join(repo, 'full', `data.${c.ext}`));
    writeFileSync(join(repo, 'brief', `data.${c.ext}`), flipped(c));
  }
  await git('commit', '-q', '-a', '-m', 'second');
}, 120_000);

/** The diff's removed and added lines with the dump's offset and length columns cut off. */
function changed(diff: string, sign: '-' | '+'): string[] {
  return diff
    .split('\n')
    .filter((l) => l.startsWith(sign) && !l.startsWith(`${sign.repeat(3)} `))
    .map((l) =>
      l
        .slice(1)
        .replace(/^[0-9a-f-]+\s+[\d-]+\s+/, '')
        .trimEnd(),
    );
}

const sha = (bytes: Uint8Array, offset: number, length: number) =>
  createHash('sha256')
    .update(bytes.subarray(offset, offset + length))
    .digest('hex');

describe.skipIf(!hasGit)(`git textconv with real git${hasGit ? '' : ' (skipped: git is not installed)'}`, () => {
  it('the attributes name every extension of every family', () => {
    const attributes = readFileSync(join(repo, '.gitattributes'), 'utf8');
    for (const h of handlers) for (const e of h.extensions) expect(attributes).toContain(`*${e} diff=binlens\n`);
    expect(new Set(CASES.map((c) => c.family))).toEqual(new Set(handlers.map((h) => h.id)));
  });

  it.each(CASES)('$family: git diff HEAD~1 and git log -p show the changed structure line through `binlens dump`', async (c) => {
    const path = `full/data.${c.ext}`;
    for (const diff of [await git('diff', 'HEAD~1', '--', path), await git('log', '-p', '-1', '--format=', '--', path)]) {
      expect(diff).not.toContain('Binary files');
      expect(changed(diff, '-')).toContain(c.removed);
      expect(changed(diff, '+')).toContain(c.added);
    }
  });

  it.each(CASES)('$family: through `dump --brief`, a flipped byte changes the digest line of the section that holds it', async (c) => {
    const path = `brief/data.${c.ext}`;
    const before = readFileSync(fixture(c.before));
    const after = flipped(c);
    for (const diff of [await git('diff', 'HEAD~1', '--', path), await git('log', '-p', '-1', '--format=', '--', path)]) {
      // The section lines: offset, length, digest; the one whose range holds the flipped byte.
      const sections = diff.split('\n').flatMap((l) => {
        const m = /^([-+])([0-9a-f]{8})\s+(\d+)\s+sha256:([0-9a-f]{64})\s/.exec(l);
        return m ? [{ sign: m[1], offset: parseInt(m[2]!, 16), length: Number(m[3]), digest: m[4] }] : [];
      });
      const holding = sections.filter((s) => s.offset <= c.flip && c.flip < s.offset + s.length);
      expect(holding.map((s) => s.sign)).toEqual(['-', '+']);
      for (const s of holding) expect(s.digest).toBe(sha(s.sign === '-' ? before : after, s.offset, s.length));
    }
  });
});
