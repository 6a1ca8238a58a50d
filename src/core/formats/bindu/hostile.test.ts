import { describe, expect, it } from 'vitest';
import { exercise, expectProblem, problems } from '../../../../test/helpers/hostile.js';
import { leb128 } from '../../../../test/helpers/leb128.js';
import { readLz4FrameInfo } from '../../codecs/lz4.js';
import { encodeLz4Frame } from '../../codecs/lz4Encode.js';
import { FormatError } from '../../errors.js';
import { DamagedDataError } from '../../integrity.js';
import { MemorySource } from '../../io/byteSource.js';
import { concatBytes } from '../../io/bytes.js';
import { jsonlImporter } from './importers.js';
import { Codec, FrameType } from './model.js';
import { frame } from './frames.js';
import { writeBindu } from './writer.js';

/**
 * Hostile Bindu containers (../shared/specs/bindu-open-v1.md): varints of 11 bytes and values
 * past 2^53 (C.0), u64 lengths past 2^53 (C.2, C.3), COMPRESSED payloads declaring or holding
 * too much (C.2), an LZ4 chunk bomb (C.6) and schemas nested past the recursion limit (C.4).
 * Each file is our writer's output with one frame rebuilt by hand (its CRC recomputed) and the
 * footer left off, so the reader finds the frames by a front-to-back scan.
 */

interface Frame {
  readonly type: number;
  readonly flags: number;
  readonly payload: Uint8Array;
  /** Offset of the frame in the rebuilt file. */
  offset: number;
}

const ELEVEN_BYTES = [...Array(10).fill(0x80), 0x01];

/** One INT64 column "n" of 100 rows, chain DELTA(1) → ZIGZAG → VARINT → LZ4, unsealed: preamble and frames before the footer. */
async function base(): Promise<{ preamble: Uint8Array; frames: Frame[] }> {
  const parts: Uint8Array[] = [];
  const values = Array.from({ length: 100 }, (_, i) => BigInt(i * i));
  await writeBindu(
    [{ name: 'n', type: { code: 'INT', bits: 64, signed: true }, nullable: false, values }],
    { chunkRows: 50, compressor: Codec.LZ4, seal: false, bloom: [] },
    { write: async (b) => void parts.push(b.slice()) },
  );
  const bytes = concatBytes(parts);
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  const frames: Frame[] = [];
  // C.2: u8 type, u8 version, u16 flags, u64 payload_len, payload, u32 CRC; the footer (0x08) ends the list.
  for (let at = 10; bytes[at] !== FrameType.Footer; ) {
    const length = Number(view.getBigUint64(at + 4, true));
    frames.push({ type: bytes[at]!, flags: view.getUint16(at + 2, true), payload: bytes.slice(at + 12, at + 12 + length), offset: at });
    at += 16 + length;
  }
  return { preamble: bytes.slice(0, 10), frames };
}

/** The file with frame `type` given a new payload (and flags); offsets of every frame updated. */
function rebuilt(b: { preamble: Uint8Array; frames: Frame[] }, edits: Partial<Record<number, (payload: Uint8Array) => Uint8Array>>, extra: Frame[] = []) {
  const frames = [...b.frames.map((f) => ({ ...f, payload: edits[f.type]?.(f.payload) ?? f.payload })), ...extra];
  let at = b.preamble.length;
  for (const f of frames) {
    f.offset = at;
    at += 16 + f.payload.length;
  }
  const of = (type: number) => frames.find((f) => f.type === type)!;
  return { bytes: concatBytes([b.preamble, ...frames.map((f) => frame(f.type, f.flags, f.payload))]), of };
}

/**
 * A row conversion stopped by the frame's problem: the damage it reports (issue 17) keeps the
 * problem's code and offset, and names its field and detail.
 */
function stoppedBy(err: FormatError | undefined, want: { code?: string; offset: number; field: string; detail?: string }) {
  expect(err).toBeInstanceOf(DamagedDataError);
  const d = (err as DamagedDataError).damage;
  expect(d.offset).toBe(want.offset);
  if (want.code) expect(d.code).toBe(want.code);
  expect(d.detail).toContain(`${want.field}: `);
  if (want.detail) expect(d.detail).toContain(want.detail);
}

/** Open shows the frame problem, verify fails it, and both row conversions stop with it. */
async function refused(bytes: Uint8Array, frameName: string, want: { code: string; offset: number; field: string; detail: string }) {
  const o = await exercise(bytes, { name: 'x.bindu' });
  expect(o.doc!.warnings).toContainEqual(expect.objectContaining({ name: frameName, status: 'fail', offset: want.offset, field: want.field }));
  expectProblem(o.verify, { name: frameName, status: 'fail', offset: want.offset, field: want.field });
  for (const id of ['jsonl', 'csv']) stoppedBy(o.converts.get(id), want);
  return o;
}

// Column payload (C.6): varint id at 0, str name "n" at 1, type 01 40 01 at 3, flags at 6,
// stage count at 7, stages 10 01 01 | 12 00 | 02 00 | 21 00 at 8..16, row count at 17, chunk count at 18.
const ROW_COUNT_AT = 17;
const CHUNK_COUNT_AT = 18;

describe('Bindu varints of 11 bytes and values past 2^53 (C.0)', () => {
  it('rejects an 11-byte column id varint at its offset', async () => {
    const b = await base();
    const f = rebuilt(b, { [FrameType.Column]: (p) => Uint8Array.from([...ELEVEN_BYTES, ...p.subarray(1)]) });
    const at = f.of(FrameType.Column).offset + 12;
    await refused(f.bytes, 'Column frame', { code: 'corrupt', offset: at, field: 'column id', detail: 'LEB128 varint longer than 10 bytes' });
  });

  it('rejects an 11-byte field count varint in the Schema frame at its offset', async () => {
    const b = await base();
    // CSB: "BSCH", u8 version, varint field_count at 5.
    const f = rebuilt(b, { [FrameType.Schema]: (p) => Uint8Array.from([...p.subarray(0, 5), ...ELEVEN_BYTES, ...p.subarray(6)]) });
    const at = f.of(FrameType.Schema).offset + 12 + 5;
    await refused(f.bytes, 'Schema frame', { code: 'corrupt', offset: at, field: 'field count', detail: 'LEB128 varint longer than 10 bytes' });
  });

  it.each([
    [2n ** 53n, 'limit', 'LEB128 value 9007199254740992 is larger than 2^53 - 1'],
    [2n ** 64n - 1n, 'limit', 'LEB128 value 18446744073709551615 is larger than 2^53 - 1'],
    [2n ** 64n, 'corrupt', 'LEB128 varint exceeds 64 bits'],
  ])('rejects a row count of %s at its offset (%s)', async (value, code, detail) => {
    const b = await base();
    const f = rebuilt(b, { [FrameType.Column]: (p) => Uint8Array.from([...p.subarray(0, ROW_COUNT_AT), ...leb128(value), ...p.subarray(ROW_COUNT_AT + 1)]) });
    const at = f.of(FrameType.Column).offset + 12 + ROW_COUNT_AT;
    await refused(f.bytes, 'Column frame', { code, offset: at, field: 'row count', detail });
  });

  it('rejects a chunk count of 2^60, a count that could never fit the payload, before allocating its index', async () => {
    const b = await base();
    const f = rebuilt(b, {
      [FrameType.Column]: (p) => Uint8Array.from([...p.subarray(0, CHUNK_COUNT_AT), ...leb128(2n ** 60n), ...p.subarray(CHUNK_COUNT_AT + 1)]),
    });
    const at = f.of(FrameType.Column).offset + 12 + CHUNK_COUNT_AT;
    await refused(f.bytes, 'Column frame', {
      code: 'limit',
      offset: at,
      field: 'chunk count',
      detail: 'LEB128 value 1152921504606846976 is larger than 2^53 - 1',
    });
  });
});

describe('Bindu u64 lengths past 2^53 (C.2, C.3)', () => {
  it.each([2n ** 53n, 2n ** 63n, 2n ** 64n - 1n])('a frame payload_len of %s stops the frame walk at that field', async (length) => {
    const b = await base();
    const f = rebuilt(b, {});
    const column = f.of(FrameType.Column);
    new DataView(f.bytes.buffer, f.bytes.byteOffset).setBigUint64(column.offset + 4, length, true);
    const o = await exercise(f.bytes, { name: 'x.bindu' });
    const want = { code: 'limit', offset: column.offset + 4, field: 'payload length', detail: `value ${length} is larger than 2^53 - 1` };
    expectProblem(o.verify, { name: 'frames', status: 'fail', offset: want.offset, field: want.field });
    expect(o.errorNodes).toContainEqual(expect.objectContaining({ label: 'frame walk stopped', range: { offset: want.offset, length: 0 } }));
    for (const id of ['jsonl', 'csv']) stoppedBy(o.converts.get(id), want);
  });

  it('a Header row_count of 2^60 (u64) is compared exactly, as a bigint, with the column', async () => {
    const b = await base();
    // Header (C.3): fingerprint 16, u64 file_flags at 16, u64 row_count at 24.
    const f = rebuilt(b, {
      [FrameType.Header]: (p) => {
        const q = p.slice();
        new DataView(q.buffer).setBigUint64(24, 2n ** 60n, true);
        return q;
      },
    });
    const o = await exercise(f.bytes, { name: 'x.bindu' });
    expectProblem(o.verify, { name: 'Header', status: 'fail', detail: 'column 0 "n" has 100 rows, the Header says 1152921504606846976' });
  });
});

/** A skippable UserMeta frame (0x80) flagged COMPRESSED: u8 codec, u64 raw_len, compressed bytes (C.2). */
function compressedUserMeta(rawLength: bigint, data: Uint8Array): Frame {
  const len = Array.from({ length: 8 }, (_, i) => Number((rawLength >> BigInt(8 * i)) & 0xffn));
  return { type: FrameType.UserMeta, flags: 0x03, payload: Uint8Array.from([Codec.LZ4, ...len, ...data]), offset: 0 };
}

describe('Bindu COMPRESSED payloads (C.2): declared sizes and a real LZ4 bomb', () => {
  const small = encodeLz4Frame(new TextEncoder().encode('tiny'));
  it.each([
    [2n ** 60n, 'value 1152921504606846976 is larger than 2^53 - 1'],
    [100n << 20n, `raw length ${100 << 20} is larger than ${64 << 20}`],
  ])('a raw_len of %s is refused before decompressing, at the raw_len field', async (rawLength, detail) => {
    const f = rebuilt(await base(), {}, [compressedUserMeta(rawLength, small)]);
    const meta = f.of(FrameType.UserMeta);
    const o = await exercise(f.bytes, { name: 'x.bindu' });
    expectProblem(o.verify, { status: 'fail', offset: meta.offset + 12 + 1, field: 'raw length', detail: expect.stringContaining(detail) });
    // Conversions are strict: any frame that does not parse stops them, skippable metadata included.
    for (const id of ['jsonl', 'csv']) stoppedBy(o.converts.get(id), { offset: meta.offset + 12 + 1, field: 'raw length' });
  });

  it('an LZ4 payload holding 4 MiB but declaring 1000 bytes stops decoding at 1000, located inside the payload', async () => {
    const bomb = encodeLz4Frame(new Uint8Array(4 << 20));
    const f = rebuilt(await base(), {}, [compressedUserMeta(1000n, bomb)]);
    const meta = f.of(FrameType.UserMeta);
    const o = await exercise(f.bytes, { name: 'x.bindu' });
    const fail = problems(o.verify).find((c) => c.field?.startsWith('compressed payload'));
    expect(fail).toMatchObject({ status: 'fail', detail: expect.stringContaining('decodes to more than the 1000 bytes expected') });
    expect(fail!.offset).toBeGreaterThanOrEqual(meta.offset + 12 + 9);
    expect(fail!.offset).toBeLessThan(meta.offset + 12 + 9 + bomb.length);
  });
});

describe('Bindu LZ4 chunk bomb (C.6)', () => {
  it('a 1 MiB chunk that decodes to 260 MiB stops at the 256 MiB chunk cap', async () => {
    // One LZ4 frame of 65 independent 4 MiB blocks of zeros: the block of a 4 MiB frame, repeated.
    const one = encodeLz4Frame(new Uint8Array(4 << 20));
    const info = readLz4FrameInfo(one);
    expect(info.bd).toBe(0x70);
    const block = one.subarray(info.blocks[0]!.at, info.blocks[0]!.at + 4 + info.blocks[0]!.size);
    const bomb = concatBytes([one.subarray(0, info.blocks[0]!.at), ...Array.from({ length: 65 }, () => block), Uint8Array.of(0, 0, 0, 0)]);
    // LZ4 expands at most ~255:1, so 260 MiB takes about 1 MiB.
    expect(bomb.length).toBeLessThan(1.1 * (1 << 20));
    const b = await base();
    // A column of the same type and chain with one chunk of 100 rows holding the bomb (VARINT has no fixed size to stop at).
    const f = rebuilt(b, {
      // col_flags (at 6) 0: no chunk stats in the index.
      [FrameType.Column]: (p) =>
        Uint8Array.from([
          ...p.subarray(0, 6),
          0,
          ...p.subarray(7, ROW_COUNT_AT),
          ...leb128(100),
          ...leb128(1),
          ...leb128(100),
          ...leb128(bomb.length),
          ...bomb,
        ]),
    });
    const started = Date.now();
    const o = await exercise(f.bytes, { name: 'x.bindu', converters: ['jsonl'], panels: false });
    const err = o.converts.get('jsonl')!;
    expect(err).toMatchObject({ code: 'limit', field: 'chunk data block data', detail: `decodes to more than ${256 << 20} bytes` });
    const blobAt = f.of(FrameType.Column).offset + 12 + ROW_COUNT_AT + 1 + 1 + 1 + leb128(bomb.length).length;
    expect(err.offset).toBeGreaterThanOrEqual(blobAt);
    expect(err.offset).toBeLessThan(blobAt + bomb.length);
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 120_000);
});

describe('Bindu schemas nested past the recursion limit (C.4)', () => {
  /** CSB of one field "n" whose type is NESTED `depth` times around an INT64 leaf. */
  function nested(depth: number): Uint8Array {
    const out: number[] = [0x42, 0x53, 0x43, 0x48, 1, 1, 1, 0x6e, 0];
    for (let d = 0; d < depth; d++) out.push(0x07, 1, 1, 0x6e, 0);
    out.push(0x01, 0x40, 0x01);
    return Uint8Array.from(out);
  }

  it.each([33, 100_000])('a schema nested %i deep is refused at the 33rd NESTED type, without a stack overflow', async (depth) => {
    const f = rebuilt(await base(), { [FrameType.Schema]: () => nested(depth) });
    // Field "n" (01 6e 00) starts its type at 9; each NESTED level takes 5 bytes (07 01 | 01 6e 00).
    const at = f.of(FrameType.Schema).offset + 12 + 9 + 5 * 32;
    await refused(f.bytes, 'Schema frame', { code: 'limit', offset: at, field: 'type', detail: 'NESTED deeper than 32' });
  });

  it.each([40, 20_000])('an import whose dotted names nest %i deep keeps them flat: no stack overflow, a file that reads back', async (depth) => {
    const key = Array.from({ length: depth }, () => 'k').join('.');
    const jsonl = `{"${key}":1}\n{"${key}":2}\n`;
    const parts: Uint8Array[] = [];
    await jsonlImporter.run(
      new MemorySource(new TextEncoder().encode(jsonl)),
      { file: async () => ({ write: async (b) => void parts.push(b.slice()) }) },
      {},
      {},
    );
    const o = await exercise(concatBytes(parts), { name: 'x.bindu', converters: ['jsonl'] });
    expect(problems(o.verify)).toEqual([]);
    expect(o.converts.has('jsonl')).toBe(false);
    const doc = o.doc!;
    let text = '';
    await doc.converters.find((c) => c.id === 'jsonl')!.run({ file: async () => ({ write: async (b) => void (text += new TextDecoder().decode(b)) }) }, {}, {});
    expect(text).toBe(jsonl);
  });
});
