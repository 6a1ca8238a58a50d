import { describe, expect, it } from 'vitest';
import { readFixture, readJson } from '../../../../test/helpers/fixtures.js';
import { MemorySource } from '../../io/byteSource.js';
import type { Check } from '../../model.js';
import { binduHandler } from './handler.js';

const FILES = ['sample', 'schemaless-int64-delta', 'nullable-float-dict-bloom-sealed', 'preamble8-variant'];

interface Truth {
  header: { offset: number; schema_fingerprint: string; config: Record<string, string> };
  schema: { csb_hex: string | null };
  frames: { offset: number }[];
  merkle: { leaves: { offset: number; leaf_hash: string }[]; root: string } | null;
  footer: { offset: number; file_checksum: string };
  indexes: (
    | { kind: 'bloom'; column: number; probes: { value: string; expect: 'maybe' | 'no' }[] }
    | { kind: 'sorted'; column: number; entries: { chunk: number }[] }
  )[];
  verify: {
    frame_crc: { frames_checked: number; bad_offsets: number[] };
    file_checksum: string;
    schema_fingerprint: string;
    merkle: string;
    merkle_bad_leaves: number[];
    strict_decode: string;
    expected_warnings: string[];
  };
}

async function run(name: string) {
  const doc = await binduHandler.open(new MemorySource(readFixture(`bindu/${name}.bindu`)), {});
  const checks: Check[] = [];
  for await (const c of doc.verify({})) checks.push(c);
  return { doc, checks };
}

const status = (checks: Check[], name: string) => checks.filter((c) => c.name === name).map((c) => c.status);

describe('Bindu verify against the expected verdicts', () => {
  it.each(FILES)('%s: every verdict of the truth file', async (name) => {
    const t = readJson<Truth>(`bindu/${name}.truth.json`);
    const { checks } = await run(name);
    const v = t.verify;
    expect(checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(checks).toContainEqual(expect.objectContaining({ name: 'frame CRCs', status: 'pass', detail: `all ${v.frame_crc.frames_checked} frames match` }));
    expect(status(checks, 'file checksum')).toEqual([v.file_checksum === 'ok' ? 'pass' : 'fail']);
    expect(status(checks, 'schema fingerprint')).toEqual([v.schema_fingerprint === 'ok' ? 'pass' : 'info']);
    expect(status(checks, 'Merkle')).toEqual([v.merkle === 'ok' ? 'pass' : 'info']);
    expect(status(checks, 'decode')).toEqual([v.strict_decode === 'ok' ? 'pass' : 'fail']);
    expect(checks.filter((c) => c.status === 'warn').map((c) => c.detail)).toEqual(v.expected_warnings.map((w) => expect.stringContaining(w.slice(0, 20))));
    for (const ix of t.indexes)
      expect(checks).toContainEqual(expect.objectContaining({ name: ix.kind === 'bloom' ? 'Bloom filter' : 'sorted index', status: 'pass' }));
  });

  it.each(FILES)('%s: Bloom probes answer as the truth says in the "might contain?" panel', async (name) => {
    const t = readJson<Truth>(`bindu/${name}.truth.json`);
    const { doc } = await run(name);
    const blooms = t.indexes.filter((i) => i.kind === 'bloom');
    if (blooms.length === 0) {
      expect(doc.panels?.some((p) => p.id === 'bloom')).toBe(false);
      return;
    }
    const panel = doc.panels!.find((p) => p.id === 'bloom')!;
    for (const [i, b] of blooms.entries()) {
      for (const probe of b.probes) {
        const data = await panel.data({ filter: String(i), value: probe.value });
        if (data.kind !== 'fields') throw new Error(data.kind);
        expect(data.groups[0]!.fields[0]!.value, probe.value).toMatch(probe.expect === 'maybe' ? /^maybe/ : /^no/);
      }
    }
  });

  it('the Merkle panel marks the leaf of a damaged frame and the path to the root', async () => {
    const t = readJson<Truth>('bindu/nullable-float-dict-bloom-sealed.truth.json');
    const bytes = readFixture('bindu/nullable-float-dict-bloom-sealed.bindu').slice();
    bytes[t.frames[3]!.offset + 40]! ^= 0x10;
    const doc = await binduHandler.open(new MemorySource(bytes), {});
    const data = await doc.panels!.find((p) => p.id === 'merkle')!.data({});
    if (data.kind !== 'tree') throw new Error(data.kind);
    const marked: string[] = [];
    const walk = (n: typeof data.root) => {
      if (n.mark === 'error' && !n.children) marked.push(n.detail!.split(' ')[0]!);
      n.children?.forEach(walk);
    };
    walk(data.root);
    expect(marked).toEqual([`@${t.frames[3]!.offset}`]);
    expect(data.root.mark).toBe('error');
    expect(data.caption).toContain(`Column @${t.frames[3]!.offset}`);
  });

  it('an unknown critical frame is reported and listed, and reading goes on; a skippable one is ignored', async () => {
    const { frame } = await import('./frames.js');
    const src = readFixture('bindu/schemaless-int64-delta.bindu');
    const t = readJson<Truth>('bindu/schemaless-int64-delta.truth.json');
    const at = t.frames[1]!.offset;
    for (const [type, flags, verdict] of [
      [0x09, 0, 'fail'],
      [0x81, 1, 'info'],
    ] as const) {
      const extra = frame(type, flags, Uint8Array.of(1, 2, 3));
      const bytes = new Uint8Array([...src.subarray(0, at), ...extra, ...src.subarray(at, t.footer.offset)]);
      const doc = await binduHandler.open(new MemorySource(bytes), {});
      const checks: Check[] = [];
      for await (const c of doc.verify({})) checks.push(c);
      expect(checks).toContainEqual(expect.objectContaining({ name: verdict === 'fail' ? 'critical frame' : 'unknown frame', status: verdict, offset: at }));
      expect(checks).toContainEqual(expect.objectContaining({ name: 'decode', status: 'pass' }));
      const rows = await doc.tables.find((x) => x.id === 'rows')!.page(0, 2);
      expect(rows[1]!.cells[1]).toBe(-460005471n);
      const frames = await doc.tables.find((x) => x.id === 'frames')!.page(0, 10);
      expect(frames.map((r) => r.cells[0])).toContain(at);
    }
  });
});
