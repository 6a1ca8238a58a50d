import { crc32c } from '../../codecs/crc32c.js';
import { isXzMagic, readStreamHeader, readXzLayout, relocateXzLayout, type XzLayout } from '../../codecs/xz/container.js';
import { errorNode, fail, failFrom, field, hex, info, leaf, pass, plural, range, warn } from '../../describe.js';
import { FormatError } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import { SliceSource, readUpTo } from '../../io/byteSource.js';
import { scanRange } from '../../io/scan.js';
import type { Check, Field, FormatDocument, OpenContext, Row, StructNode, Table, TaskContext } from '../../model.js';
import {
  ASSET_FLAG_CHECKSUM,
  ASSET_FLAG_JSON,
  ASSET_FLAG_XZ,
  type BendlHeader,
  type Directory,
  HEADER_BYTES,
  type HeaderTail,
  STANDARD_ASSETS,
  TAIL_BYTES,
  firstPayloadOffset,
  headerProblems,
  isBendlMagic,
  readBendlHeader,
  readDirectory,
  readHeaderTail,
  streamRange,
} from './bendl.js';
import { BenStreamView } from './streamView.js';
import { verifyXz, xzStructure } from './xzView.js';

export async function openBen(src: ByteSource, _ctx: OpenContext): Promise<FormatDocument> {
  const head = await readUpTo(src, 0, 32);
  if (isBendlMagic(head)) return BendlDocument.open(src);
  if (isXzMagic(head)) return XbenDocument.open(src);
  return new BenDocument(src, await BenStreamView.open(src));
}

class BenDocument implements FormatDocument {
  readonly format = 'ben' as const;
  readonly title: string;
  readonly warnings: readonly Check[];
  readonly tables: readonly Table[];
  readonly converters = [];

  constructor(
    private readonly src: ByteSource,
    private readonly stream: BenStreamView,
  ) {
    this.title = `BEN ${stream.variantName} stream`;
    const e = stream.index.known.error;
    this.warnings = e ? [failFrom('frames', e)] : [];
    this.tables = [stream.framesTable()];
  }

  get summary(): readonly Field[] {
    const k = this.stream.index.known;
    return [
      field('variant', this.stream.variant, range(0, 17), { display: this.stream.variantName }),
      field('frames', k.frames, undefined, { display: `${k.complete ? '' : '≥ '}${k.frames}` }),
      field('samples', k.samples, undefined, { display: `${k.complete ? '' : '≥ '}${k.samples}` }),
      field('size', this.src.size),
    ];
  }

  structure(): StructNode {
    return this.stream.structure();
  }

  verify(ctx: TaskContext): AsyncIterable<Check> {
    return this.stream.verify(ctx);
  }

  info(): Record<string, unknown> {
    return { container: 'ben', ...this.stream.info() };
  }
}

class XbenDocument implements FormatDocument {
  readonly format = 'ben' as const;
  readonly title = 'XBEN (xz-compressed BEN stream)';
  readonly tables = [];
  readonly converters = [];

  private constructor(
    private readonly src: ByteSource,
    private readonly layout: XzLayout | undefined,
    private readonly layoutError: FormatError | undefined,
    private readonly checkType: number,
  ) {}

  static async open(src: ByteSource): Promise<XbenDocument> {
    const header = await readStreamHeader(src, 0);
    try {
      return new XbenDocument(src, await readXzLayout(src), undefined, header.checkType);
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      return new XbenDocument(src, undefined, e, header.checkType);
    }
  }

  get warnings(): readonly Check[] {
    return this.layoutError ? [failFrom('xz container', this.layoutError)] : [];
  }

  get summary(): readonly Field[] {
    const l = this.layout;
    return [
      field('container', 'xz', range(0, 12), { display: 'xz (LZMA2), BEN32 or TwoDelta body inside' }),
      field('integrity check', this.checkType, range(6, 2), { display: checkLabel(this.checkType) }),
      field('streams', l ? l.streams.length : null, undefined, { display: l ? String(l.streams.length) : 'unknown (no index)' }),
      field('blocks', l ? l.streams.reduce((n, s) => n + s.blocks.length, 0) : null, undefined, { display: l ? undefined : 'unknown (no index)' }),
      field('uncompressed bytes', l ? l.uncompressedSize : null, undefined, { display: l ? undefined : 'unknown (no index)' }),
      field('compressed bytes', this.src.size),
    ];
  }

  structure(): StructNode {
    if (this.layout) return xzStructure(this.src, this.layout, 'XBEN (xz container)');
    return {
      label: 'XBEN (xz container)',
      range: range(0, this.src.size),
      children: [leaf('stream header', checkLabel(this.checkType), range(0, 12)), errorNode(this.layoutError, 'index and footer')],
    };
  }

  async *verify(_ctx: TaskContext): AsyncIterable<Check> {
    if (!this.layout) {
      yield failFrom('xz container', this.layoutError);
      return;
    }
    yield* verifyXz(this.src, this.layout);
  }

  info(): Record<string, unknown> {
    const l = this.layout;
    return {
      container: 'xben',
      check: checkLabel(this.checkType),
      streams: l?.streams.length ?? null,
      blocks: l ? l.streams.reduce((n, s) => n + s.blocks.length, 0) : null,
      uncompressedSize: l?.uncompressedSize ?? null,
      error: this.layoutError?.message,
    };
  }
}

function checkLabel(checkType: number): string {
  return ({ 0: 'None', 1: 'CRC32', 4: 'CRC64', 10: 'SHA-256' } as Record<number, string>)[checkType] ?? `type ${checkType}`;
}

const ASSET_TYPES: Record<number, string> = { 1: 'metadata', 2: 'graph', 3: 'node permutation map', 4: 'custom' };

function assetFlags(flags: number): string {
  const names = [flags & ASSET_FLAG_JSON ? 'json' : '', flags & ASSET_FLAG_XZ ? 'xz' : '', flags & ASSET_FLAG_CHECKSUM ? 'crc' : ''].filter(Boolean);
  const unknown = flags & ~7;
  return `${flags} (${names.join('|') || 'none'}${unknown ? `, unknown bits ${hex(unknown)}` : ''})`;
}

/** What a bundle's layout is, from its header tail and offsets (spec §6 "older layout"). */
type Layout = 'newest' | 'older' | 'corrupt';

class BendlDocument implements FormatDocument {
  readonly format = 'ben' as const;
  readonly title: string;
  readonly tables: readonly Table[];
  readonly converters = [];

  private constructor(
    private readonly src: ByteSource,
    private readonly header: BendlHeader,
    private readonly tail: HeaderTail,
    private readonly layout: Layout,
    private readonly problems: readonly FormatError[],
    private readonly directory: Directory | undefined,
    private readonly directoryError: FormatError | undefined,
    private readonly stream: { offset: number; length: number; provisional: boolean },
    private readonly benStream: BenStreamView | undefined,
    private readonly xzStream: XzLayout | undefined,
    private readonly streamError: FormatError | undefined,
  ) {
    this.title = `BENDL bundle (${header.assignmentFormat === 2 ? 'XBEN' : 'BEN'} stream${header.finalized === 1 ? '' : ', unfinalized'})`;
    const tables: Table[] = [this.assetTable()];
    if (benStream) tables.push(benStream.framesTable());
    this.tables = tables;
  }

  static async open(src: ByteSource): Promise<BendlDocument> {
    const header = await readBendlHeader(src);
    const tail = await readHeaderTail(src);
    const problems = headerProblems(header, src.size);
    let directory: Directory | undefined;
    let directoryError: FormatError | undefined;
    if (header.directoryOffset !== 0 && problems.every((p) => p.field !== 'directory offset')) {
      try {
        directory = await readDirectory(src, header);
      } catch (e) {
        if (!(e instanceof FormatError)) throw e;
        directoryError = e;
      }
    }
    const layout: Layout =
      tail.state === 'valid' ? 'newest' : tail.state === 'absent' || firstPayloadOffset(header, directory) < HEADER_BYTES + TAIL_BYTES ? 'older' : 'corrupt';
    const stream = streamRange(header, src.size);
    let benStream: BenStreamView | undefined;
    let xzStream: XzLayout | undefined;
    let streamError: FormatError | undefined;
    if (problems.every((p) => p.field !== 'stream offset')) {
      try {
        if (header.assignmentFormat === 2) xzStream = relocateXzLayout(await readXzLayout(new SliceSource(src, stream.offset, stream.length)), stream.offset);
        else benStream = await BenStreamView.open(src, stream.offset, stream.length);
      } catch (e) {
        if (!(e instanceof FormatError)) throw e;
        streamError = e;
      }
    }
    return new BendlDocument(src, header, tail, layout, problems, directory, directoryError, stream, benStream, xzStream, streamError);
  }

  get warnings(): readonly Check[] {
    const out: Check[] = [];
    if (this.layout === 'corrupt') out.push(fail('header checksum', this.tailDetail(), HEADER_BYTES, 'header tail'));
    else if (this.layout === 'older') out.push(warn('header checksum', 'older v1 layout: no header checksum'));
    for (const p of this.problems) out.push(failFrom('header', p));
    if (this.directoryError) out.push(failFrom('directory', this.directoryError));
    if (this.streamError) out.push(failFrom('stream', this.streamError));
    if (this.header.finalized !== 1) out.push(warn('finalized', 'the bundle is not finalized (a crashed or running writer): sample count unknown'));
    return out;
  }

  private tailDetail(): string {
    const t = this.tail;
    if (t.state === 'mismatch') return `header CRC32C: stored ${hex(t.stored, 8)}, computed ${hex(t.computed, 8)}; offsets assume the tail, so the header cannot be trusted`;
    return 'header checksum missing';
  }

  get summary(): readonly Field[] {
    const h = this.header;
    const s = this.stream;
    return [
      field('layout', this.layout, range(HEADER_BYTES, TAIL_BYTES), {
        display: this.layout === 'newest' ? 'newest v1 (header CRC32C ok)' : this.layout === 'older' ? 'older v1 layout: no header checksum' : 'header checksum mismatch',
        mark: this.layout === 'corrupt' ? 'error' : this.layout === 'older' ? 'warn' : undefined,
      }),
      field('version', `${h.major}.${h.minor}`, range(8, 4)),
      field('finalized', h.finalized === 1, range(12, 1), { display: h.finalized === 1 ? 'yes' : 'no (incomplete)', mark: h.finalized === 1 ? undefined : 'warn' }),
      field('stream format', h.assignmentFormat, range(13, 1), { display: h.assignmentFormat === 1 ? 'BEN' : h.assignmentFormat === 2 ? 'XBEN' : `unknown (${h.assignmentFormat})` }),
      field('sample count', h.sampleCount, range(56, 8), { display: h.finalized === 1 ? String(h.sampleCount) : 'unknown (unfinalized)' }),
      field('stream', `${s.offset}+${s.length}`, range(s.offset, s.length), { display: `${s.length} bytes at ${s.offset}${s.provisional ? ' (recovered range)' : ''}` }),
      field('stream checksum', h.streamChecksum, range(20, 4), { display: h.flags & 1 ? `CRC32C ${hex(h.streamChecksum, 8)}` : 'not valid (flag clear)' }),
      field('assets', this.directory?.entries.length ?? null, this.directory ? range(this.directory.offset, this.directory.length) : undefined, {
        display: this.directory ? String(this.directory.entries.length) : this.directoryError ? 'directory damaged' : 'no directory',
      }),
    ];
  }

  private assetTable(): Table {
    const entries = this.directory?.entries ?? [];
    return {
      id: 'assets',
      title: 'Assets',
      columns: [
        { key: 'name', title: 'name', type: 'text' },
        { key: 'type', title: 'type', type: 'text' },
        { key: 'flags', title: 'flags', type: 'text' },
        { key: 'offset', title: 'offset', type: 'number' },
        { key: 'length', title: 'length', type: 'number' },
        { key: 'crc', title: 'CRC32C', type: 'hex' },
      ],
      rowCount: () => ({ known: entries.length, complete: true }),
      page: (from, count) =>
        Promise.resolve(
          entries.slice(from, from + count).map(
            (e): Row => ({
              cells: [e.name, ASSET_TYPES[e.assetType] ?? `unknown (${e.assetType})`, assetFlags(e.flags), e.payloadOffset, e.payloadLength, e.checksum === undefined ? null : hex(e.checksum, 8)],
              range: range(e.payloadOffset, e.payloadLength),
            }),
          ),
        ),
    };
  }

  structure(): StructNode {
    const h = this.header;
    const problem = (field: string) => this.problems.find((p) => p.field === field);
    const mark = (field: string) => (problem(field) ? { mark: 'error' as const, note: problem(field)!.detail } : {});
    const headerNode: StructNode = {
      label: 'header',
      range: range(0, HEADER_BYTES),
      children: [
        leaf('magic', 'BENDL\\0\\0\\x01', range(0, 8)),
        leaf('major version', h.major, range(8, 2)),
        leaf('minor version', h.minor, range(10, 2)),
        leaf('finalized', h.finalized, range(12, 1), mark('finalized')),
        leaf('assignment format', `${h.assignmentFormat} (${h.assignmentFormat === 1 ? 'BEN' : h.assignmentFormat === 2 ? 'XBEN' : 'unknown'})`, range(13, 1), mark('assignment format')),
        leaf('padding', '', range(14, 2)),
        leaf('flags', `${h.flags}${h.flags & 1 ? ' (stream checksum valid)' : ''}${h.flags & ~1 ? `, reserved bits ${hex(h.flags & ~1)}` : ''}`, range(16, 4)),
        leaf('stream checksum', hex(h.streamChecksum, 8), range(20, 4)),
        leaf('directory offset', h.directoryOffset, range(24, 8), mark('directory offset')),
        leaf('directory length', h.directoryLength, range(32, 8)),
        leaf('stream offset', h.streamOffset, range(40, 8), mark('stream offset')),
        leaf('stream length', h.streamLength, range(48, 8), mark('stream length')),
        leaf('sample count', h.sampleCount, range(56, 8), mark('sample count')),
      ],
    };
    const children: StructNode[] = [headerNode];
    if (this.layout !== 'older') {
      children.push(leaf('header tail', this.tail.state === 'valid' ? `CRC32C ${hex(this.tail.crc, 8)} ok` : this.tailDetail(), range(HEADER_BYTES, TAIL_BYTES), this.layout === 'corrupt' ? { mark: 'error' } : {}));
    }
    for (const e of this.directory?.entries ?? []) {
      children.push(leaf(`asset ${e.name}`, `${ASSET_TYPES[e.assetType] ?? 'unknown type'}, flags ${assetFlags(e.flags)}, ${e.payloadLength} bytes`, range(e.payloadOffset, e.payloadLength)));
    }
    const s = this.stream;
    if (this.benStream) children.push({ ...this.benStream.structure(), label: `stream (BEN ${this.benStream.variantName})` });
    else if (this.xzStream) children.push(xzStructure(this.src, this.xzStream, 'stream (XBEN)'));
    else if (this.streamError) children.push({ ...errorNode(this.streamError, 'stream'), range: range(s.offset, s.length) });
    if (this.directory) {
      children.push({
        label: 'directory',
        value: plural(this.directory.entries.length, 'entry', 'entries'),
        range: range(this.directory.offset, this.directory.length),
        children: [
          leaf('entry count', this.directory.entries.length, range(this.directory.offset, 4)),
          ...this.directory.entries.map((e, i) =>
            leaf(`entry ${i}`, `${e.name}: type ${e.assetType} (${STANDARD_ASSETS[e.assetType] ?? 'custom'}), flags ${assetFlags(e.flags)}, payload ${e.payloadLength} bytes at ${e.payloadOffset}${e.checksum === undefined ? '' : `, CRC32C ${hex(e.checksum, 8)}`}`, range(e.entryOffset, e.entryLength)),
          ),
        ],
      });
    } else if (this.directoryError) children.push(errorNode(this.directoryError, 'directory'));
    return { label: this.title, range: range(0, this.src.size), children };
  }

  async *verify(ctx: TaskContext): AsyncIterable<Check> {
    if (this.layout === 'newest') yield pass('header checksum', `CRC32C ${hex((this.tail as { crc: number }).crc, 8)} of the header matches its tail`, HEADER_BYTES);
    else if (this.layout === 'older') yield warn('header checksum', 'absent: older v1 layout (first payload at 64)');
    else yield fail('header checksum', this.tailDetail(), HEADER_BYTES, 'header tail');
    if (this.problems.length === 0) yield pass('header', 'magic, version, offsets, finalized and sample count are consistent');
    for (const p of this.problems) yield failFrom('header', p);
    if (this.directoryError) yield failFrom('directory', this.directoryError);
    else if (this.directory) {
      yield pass('directory', `${plural(this.directory.entries.length, 'entry', 'entries')}: names unique, types named, checksum flags consistent`, this.directory.offset);
      for (const e of this.directory.entries) {
        if (e.checksum === undefined) {
          yield info(`asset ${e.name}`, 'no checksum stored');
          continue;
        }
        let crc = 0;
        await scanRange(this.src, e.payloadOffset, e.payloadLength, ctx, (p) => (crc = crc32c(p, crc)), e.name);
        yield crc === e.checksum
          ? pass(`asset ${e.name}`, `CRC32C ${hex(crc, 8)} matches`, e.payloadOffset)
          : fail(`asset ${e.name}`, `stored CRC32C ${hex(e.checksum, 8)}, computed ${hex(crc, 8)}`, e.payloadOffset, 'asset payload');
      }
    } else if (this.header.finalized === 1) yield warn('directory', 'a finalized bundle without a directory');
    yield* this.verifyStream(ctx);
  }

  private async *verifyStream(ctx: TaskContext): AsyncIterable<Check> {
    const h = this.header;
    const s = this.stream;
    if (h.finalized !== 1) yield info('stream checksum', 'bundle incomplete (unfinalized): no stream checksum yet');
    else if (!(h.flags & 1)) yield info('stream checksum', 'unavailable (flag clear)');
    else {
      let crc = 0;
      await scanRange(this.src, s.offset, s.length, ctx, (p) => (crc = crc32c(p, crc)), 'stream');
      yield crc === h.streamChecksum
        ? pass('stream checksum', `CRC32C ${hex(crc, 8)} matches`, s.offset)
        : fail('stream checksum', `stored ${hex(h.streamChecksum, 8)}, computed ${hex(crc, 8)}`, s.offset, 'stream');
    }
    if (this.streamError) {
      yield failFrom('stream', this.streamError);
      return;
    }
    if (this.benStream) {
      yield* this.benStream.verify(ctx);
      const k = this.benStream.index.known;
      if (h.finalized === 1 && !k.error) {
        yield BigInt(k.samples) === h.sampleCount
          ? pass('sample count', `${k.samples} samples, as the header says`, 56)
          : fail('sample count', `header says ${h.sampleCount}, the stream holds ${k.samples}`, 56, 'sample count');
      }
    } else if (this.xzStream) {
      yield* verifyXz(this.src, this.xzStream);
    }
  }

  info(): Record<string, unknown> {
    const h = this.header;
    return {
      container: 'bendl',
      layout: this.layout,
      finalized: h.finalized === 1,
      assignmentFormat: h.assignmentFormat === 1 ? 'ben' : h.assignmentFormat === 2 ? 'xben' : h.assignmentFormat,
      sampleCount: h.finalized === 1 ? h.sampleCount : null,
      streamOffset: this.stream.offset,
      streamLength: this.stream.length,
      assets: (this.directory?.entries ?? []).map((e) => ({ name: e.name, type: e.assetType, flags: e.flags, offset: e.payloadOffset, length: e.payloadLength, checksum: e.checksum })),
      stream: this.benStream?.info(),
    };
  }
}
