import { describe, expect, it } from 'vitest';
import { FormatError } from '../../errors.js';
import { MemorySource } from '../../io/byteSource.js';
import type { Check } from '../../model.js';
import { listFixtures, readFixture, readTsv } from '../../../../test/helpers/fixtures.js';
import { fstHandler } from './handler.js';

async function checks(path: string): Promise<Check[]> {
  const doc = await fstHandler.open(new MemorySource(readFixture(path)), {});
  const out: Check[] = [];
  for await (const c of doc.verify({})) out.push(c);
  return out;
}

describe('fst structure against FIXTURES.tsv', () => {
  const rows = readTsv('fst/FIXTURES.tsv');

  it.each(rows.map((r) => [r.file!, r] as const))('%s: version, key count and root match the reference', async (file, row) => {
    const doc = await fstHandler.open(new MemorySource(readFixture(`fst/${file}`)), {});
    const info = doc.info();
    expect(String(info.version)).toBe(row.header_version);
    expect(String(info.keyCount)).toBe(row.footer_key_count);
    expect(String(info.rootAddress)).toBe(row.root_addr);
    expect(info.size).toBe(Number(row.bytes));
    expect(info.checksum).toBe(row.header_version === '3' ? 'present' : 'absent');
    expect(doc.warnings).toEqual([]);
  });

  it.each(rows.map((r) => [r.file!] as const))('%s: verify passes, v3 by its checksum, v1/v2 as unverifiable', async (file) => {
    const found = await checks(`fst/${file}`);
    expect(found.filter((c) => c.status === 'fail')).toEqual([]);
    const checksum = found.find((c) => c.name === 'checksum')!;
    if (file.includes('.fst3.')) expect(checksum.status).toBe('pass');
    else expect(checksum).toMatchObject({ status: 'info', detail: expect.stringMatching(/no checksum .*unverifiable/) });
  });

  it('sniffs every reference file as an fst and the 32–35-byte files too (which fst 0.4.7 refuses)', () => {
    for (const r of rows) {
      const bytes = readFixture(`fst/${r.file}`);
      expect(fstHandler.sniff({ head: bytes.subarray(0, 4096), tail: bytes.subarray(-4096), size: bytes.length }), r.file).toBe('yes');
    }
  });
});

describe('fst structure on corrupt files', () => {
  const files = listFixtures('fst/corrupt', ['.fst']);

  it.each(files.map((f) => [f] as const))('%s: a located FormatError or located findings, never another exception', async (file) => {
    try {
      const found = await checks(file);
      for (const c of found.filter((x) => x.status === 'fail')) expect(c.offset, `${c.name}: ${c.detail}`).toBeTypeOf('number');
    } catch (e) {
      expect(e).toBeInstanceOf(FormatError);
      expect((e as FormatError).offset).toBeTypeOf('number');
    }
  });

  it('rejects the root addresses that point outside the nodes (bad-root, trailing-zero, trunc*)', async () => {
    for (const file of files.filter((f) => /bad-root|trailing-zero|trunc1|trunc4|trunc-half/.test(f))) {
      const found = await checks(file);
      expect(
        found.find((c) => c.name === 'root address'),
        file,
      ).toMatchObject({ status: 'fail', offset: expect.any(Number) });
    }
  });

  it('fails the v3 checksum of every file damaged without recomputing it', async () => {
    for (const file of files.filter((f) => f.includes('.fst3.') && /flip-crc|flip-mid\.|flip-first|bad-len/.test(f))) {
      const found = await checks(file);
      expect(
        found.find((c) => c.name === 'checksum'),
        file,
      ).toMatchObject({ status: 'fail' });
    }
  });

  it('names the version field of version9 files and the size of header-only files', async () => {
    for (const file of files.filter((f) => /version9|header-only/.test(f))) {
      const error = await fstHandler.open(new MemorySource(readFixture(file)), {}).catch((e: unknown) => e);
      expect(error, file).toBeInstanceOf(FormatError);
      expect((error as FormatError).field, file).toBe(file.includes('version9') ? 'version' : 'file size');
    }
  });
});
