import { crc32c } from '../../codecs/crc32c.js';
import { readXzLayout, relocateXzLayout, type XzLayout } from '../../codecs/xz/container.js';
import { checkedNode, errorNode, fail, failFrom, field, hex, info, layoutLeaves, leaf, pass, plural, range, warn } from '../../describe.js';
import { FormatError, rethrowUnlessFormatError } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import { SliceSource } from '../../io/byteSource.js';
import { scanRange } from '../../io/scan.js';
import { type Coverage, type CoveragePart, type Damage, damageFrom, damagedCell } from '../../integrity.js';
import type { ByteRange, CatSpec, Check, Converter, Field, FormatDocument, Panel, Row, SavedIndex, StructNode, Table, TaskContext } from '../../model.js';
import {
  ASSET_FLAG_CHECKSUM,
  ASSET_FLAG_JSON,
  ASSET_FLAG_XZ,
  type AssetEntry,
  BENDL_HEADER,
  BENDL_TAIL,
  type BendlHeader,
  type Directory,
  HEADER_BYTES,
  type HeaderTail,
  MAX_ASSET_BYTES,
  STANDARD_ASSETS,
  TAIL_BYTES,
  checkAssetCrc,
  firstPayloadOffset,
  headerProblems,
  readAsset,
  readBendlHeader,
  readDirectory,
  readHeaderTail,
  streamRange,
} from './bendl.js';
import type { AssetInput } from './bendlWrite.js';
import { benFramesPart, xzParts } from './coverage.js';
import { countFields } from './counts.js';
import { PlanFeatures, type StreamGate, sampleCountCheck } from './features.js';
import { type DualGraph, parseGraph, parsePermutation } from './graph.js';
import { VARIANT_NAMES, type Variant } from './model.js';
import type { PlanAssets } from './panels.js';
import type { PlanEnsemble } from './stats/source.js';
import { readFrames, type StreamLocation } from './stream.js';
import { BenStreamView } from './streamView.js';
import { streamConverters } from './converters.js';
import { damagedStreamCat, noSamples, reportError } from './salvage.js';
import { verifyXz, xzStructure } from './xzView.js';
import { BenDiff } from './diff.js';

/** The header's declared layout: every offset below comes from it. */
const H = BENDL_HEADER;

const ASSET_TYPES: Record<number, string> = { 1: 'metadata', 2: 'graph', 3: 'node permutation map', 4: 'custom' };

/** What the tree says of a CRC32C once computed: nothing while unknown or matching. */
function crcFailure(stored: number | undefined, computed: number | undefined): string | undefined {
  return stored === undefined || computed === undefined || computed === stored ? undefined : `CRC32C fails: stored ${hex(stored, 8)}, computed ${hex(computed, 8)}`;
}

function assetFlags(flags: number): string {
  const names = [flags & ASSET_FLAG_JSON ? 'json' : '', flags & ASSET_FLAG_XZ ? 'xz' : '', flags & ASSET_FLAG_CHECKSUM ? 'crc' : ''].filter(Boolean);
  const unknown = flags & ~7;
  return `${flags} (${names.join('|') || 'none'}${unknown ? `, unknown bits ${hex(unknown)}` : ''})`;
}

/** What a bundle's layout is, from its header tail and offsets (spec §6 "older layout"). */
type Layout = 'newest' | 'older' | 'corrupt';

/** A .bendl bundle: header, tail, assets, directory, and the plans of its BEN or XBEN stream. */
export class BendlDocument implements FormatDocument {
  readonly format = 'ben' as const;
  readonly title: string;
  readonly tables: readonly Table[];
  readonly converters: readonly Converter[];
  readonly panels: readonly Panel[];
  readonly cat: CatSpec | undefined;
  /** binlens diff: samples through `cat`, node by node (diff.ts). */
  readonly diff = new BenDiff(this);
  readonly planEnsemble: PlanEnsemble | undefined;
  private readonly plans: PlanFeatures | undefined;
  private readonly loaded = new Map<string, Promise<unknown>>();

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
    variant: Variant | undefined,
  ) {
    this.title = `BENDL bundle (${header.assignmentFormat === 2 ? 'XBEN' : 'BEN'} stream${header.finalized === 1 ? '' : ', unfinalized'})`;
    const loc: StreamLocation = { format: header.assignmentFormat === 2 ? 'xben' : 'ben', offset: stream.offset, length: stream.length };
    this.plans = variant ? new PlanFeatures(src, loc, variant, benStream?.index, this.trustedCount(), this.planAssets(), this.streamGate()) : undefined;
    const tables: Table[] = [...(this.plans?.tables ?? []), this.assetTable()];
    if (benStream) tables.push(benStream.framesTable((signal) => this.streamDamage({ signal })));
    this.tables = tables;
    this.panels = [
      this.overviewPanel(),
      this.assetTextPanel('metadata', 'metadata.json'),
      ...(this.entry('node_permutation_map.json') ? [this.assetTextPanel('permutation', 'node_permutation_map.json')] : []),
      ...(this.plans?.panels() ?? []),
    ];
    // A stream that fails before its first sample has none: cat and the rewrites report it as damage.
    const none = this.plans || !streamError ? undefined : noSamples(streamError, range(stream.offset, stream.length), (ctx) => this.streamGate().check(ctx));
    this.cat = this.plans?.cat ?? (none && damagedStreamCat(none));
    const plans = this.plans;
    const samples = plans ? (ctx: TaskContext, from: number) => plans.samples(ctx, from) : none && ((ctx: TaskContext) => none(ctx));
    this.planEnsemble = samples && { samples, graphJson: () => this.asset('graph.json') };
    const rewrites = this.plans?.converters((ctx) => this.keptAssets(ctx)) ?? (none ? streamConverters(none, 'standard', (ctx) => this.keptAssets(ctx)) : []);
    const own = this.bundleConverters(rewrites.find((c) => c.id === 'bendl'));
    // Recovery comes first when something is wrong; it stays available otherwise (a plain rewrite).
    this.converters = own[0]?.id === 'recover' ? [own[0], ...rewrites, ...own.slice(1)] : [...rewrites, ...own];
  }

  /** The header's sample count, when the header is trustworthy and the bundle finalized (O(1) count). */
  private trustedCount(): number | undefined {
    if (this.header.finalized !== 1 || this.layout === 'corrupt' || this.problems.length > 0) return undefined;
    return Number(this.header.sampleCount);
  }

  private entry(name: string): AssetEntry | undefined {
    return this.directory?.entries.find((e) => e.name === name);
  }

  /** An asset's content, read once (CRC checked, decompressed). */
  private asset(name: string): Promise<Uint8Array | undefined> {
    const e = this.entry(name);
    if (!e) return Promise.resolve(undefined);
    let p = this.loaded.get(name) as Promise<Uint8Array> | undefined;
    if (!p) this.loaded.set(name, (p = readAsset(this.src, e)));
    p.catch(() => this.loaded.delete(name));
    return p;
  }

  private planAssets(): PlanAssets {
    let graph: Promise<DualGraph | undefined> | undefined;
    let perm: Promise<Uint32Array | undefined> | undefined;
    const text = (b: Uint8Array) => new TextDecoder().decode(b);
    return {
      // Parsed (and laid out when it has no coordinates) once per document.
      graph: () => (graph ??= this.asset('graph.json').then((b) => (b ? parseGraph(text(b)) : undefined))),
      graphJson: () => this.asset('graph.json'),
      hasGraph: this.entry('graph.json') !== undefined,
      permutation: () => (perm ??= this.asset('node_permutation_map.json').then((b) => (b ? parsePermutation(text(b)) : undefined))),
      hasPermutation: this.entry('node_permutation_map.json') !== undefined,
    };
  }

  static async open(src: ByteSource): Promise<BendlDocument> {
    const header = await readBendlHeader(src);
    const tail = await readHeaderTail(src);
    const problems = headerProblems(header, src.size);
    let directory: Directory | undefined;
    // A directory the header places past the end holds assets that cannot be located: the same
    // damage as a directory that does not read, not "no directory" (an assets run wrote 0 files, exit 0).
    let directoryError: FormatError | undefined = problems.find((p) => p.field === 'directory offset');
    if (header.directoryOffset !== 0 && !directoryError) {
      try {
        directory = await readDirectory(src, header);
      } catch (e) {
        rethrowUnlessFormatError(e);
        directoryError = e;
      }
    }
    const layout: Layout =
      tail.state === 'valid' ? 'newest' : tail.state === 'absent' || firstPayloadOffset(header, directory) < HEADER_BYTES + TAIL_BYTES ? 'older' : 'corrupt';
    const stream = streamRange(header, src.size);
    let benStream: BenStreamView | undefined;
    let xzStream: XzLayout | undefined;
    let streamError: FormatError | undefined;
    let variant: Variant | undefined;
    if (problems.every((p) => p.field !== 'stream offset')) {
      try {
        if (header.assignmentFormat === 2) {
          // Only the banner is read here (the variant), so the xz checks need not run yet.
          const opened = await readFrames(src, { format: 'xben', offset: stream.offset, length: stream.length }, { unchecked: true });
          await opened.close();
          variant = opened.variant;
          xzStream = relocateXzLayout(await readXzLayout(new SliceSource(src, stream.offset, stream.length)), stream.offset);
        } else if (header.assignmentFormat === 1) {
          benStream = await BenStreamView.open(src, stream.offset, stream.length);
          variant = benStream.variant;
        } else throw new FormatError('unsupported', `assignment format ${header.assignmentFormat} (1 BEN, 2 XBEN)`, BENDL_HEADER.at('assignmentFormat'));
      } catch (e) {
        rethrowUnlessFormatError(e);
        streamError = e;
      }
    }
    return new BendlDocument(src, header, tail, layout, problems, directory, directoryError, stream, benStream, xzStream, streamError, variant);
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
      field('layout', this.layout, BENDL_TAIL.span('crc', 'zero', HEADER_BYTES), {
        display: this.layout === 'newest' ? 'newest v1 (header CRC32C ok)' : this.layout === 'older' ? 'older v1 layout: no header checksum' : 'header checksum mismatch',
        mark: this.layout === 'corrupt' ? 'error' : this.layout === 'older' ? 'warn' : undefined,
      }),
      field('version', `${h.major}.${h.minor}`, H.span('major', 'minor')),
      field('finalized', h.finalized === 1, H.range('finalized'), { display: h.finalized === 1 ? 'yes' : 'no (incomplete)', mark: h.finalized === 1 ? undefined : 'warn' }),
      field('stream format', h.assignmentFormat, H.range('assignmentFormat'), { display: h.assignmentFormat === 1 ? 'BEN' : h.assignmentFormat === 2 ? 'XBEN' : `unknown (${h.assignmentFormat})` }),
      field('sample count', h.sampleCount, H.range('sampleCount'), { display: h.finalized === 1 ? String(h.sampleCount) : 'unknown (unfinalized)' }),
      ...(this.plans ? countFields(this.plans.counts(), this.plans.partialCounts()) : []),
      field('stream', `${s.offset}+${s.length}`, range(s.offset, s.length), { display: `${s.length} bytes at ${s.offset}${s.provisional ? ' (recovered range)' : ''}` }),
      field('stream checksum', h.streamChecksum, H.range('streamChecksum'), { display: h.flags & 1 ? `CRC32C ${hex(h.streamChecksum, 8)}` : 'not valid (flag clear)' }),
      field('assets', this.directory?.entries.length ?? null, this.directory ? range(this.directory.offset, this.directory.length) : undefined, {
        display: this.directory ? String(this.directory.entries.length) : this.directoryError ? 'directory damaged' : 'no directory',
      }),
    ];
  }

  /** Each asset's computed CRC32C, once per document (the assets table marks the ones that fail). */
  private readonly assetCrcs = new Map<string, Promise<number>>();
  /** The asset CRCs computed so far, for the tree, which cannot wait for them. */
  private readonly assetCrcsKnown = new Map<string, number>();
  private assetCrc(e: AssetEntry, signal?: AbortSignal): Promise<number> {
    let p = this.assetCrcs.get(e.name);
    if (!p) {
      const run = async () => {
        let crc = 0;
        await scanRange(this.src, e.payloadOffset, e.payloadLength, { signal }, (b) => (crc = crc32c(b, crc)), e.name);
        this.assetCrcsKnown.set(e.name, crc);
        return crc;
      };
      this.assetCrcs.set(e.name, (p = run()));
      p.catch(() => this.assetCrcs.delete(e.name));
    }
    return p;
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
        { key: 'check', title: 'check', type: 'text', description: 'whether the stored bytes match their CRC32C' },
      ],
      rowCount: () => ({ known: entries.length, complete: true }),
      page: (from, count, signal) =>
        Promise.all(
          entries.slice(from, from + count).map(async (e): Promise<Row> => {
            const computed = e.checksum === undefined ? undefined : await this.assetCrc(e, signal);
            const bad = computed !== undefined && computed !== e.checksum;
            return {
              cells: [
                e.name,
                ASSET_TYPES[e.assetType] ?? `unknown (${e.assetType})`,
                assetFlags(e.flags),
                e.payloadOffset,
                e.payloadLength,
                e.checksum === undefined ? null : hex(e.checksum, 8),
                e.checksum === undefined ? 'no checksum' : bad ? damagedCell(`CRC32C ${hex(computed, 8)} does not match the stored one`) : 'ok',
              ],
              range: range(e.payloadOffset, e.payloadLength),
              mark: bad ? 'error' : undefined,
            };
          }),
        ),
    };
  }

  /** The BEN stream's frame index (an XBEN stream has none). */
  get savedIndex(): SavedIndex | undefined {
    return this.benStream?.index;
  }

  structure(): StructNode {
    const h = this.header;
    const problem = (field: string) => this.problems.find((p) => p.field === field);
    const mark = (field: string) => (problem(field) ? { mark: 'error' as const, note: problem(field)!.detail } : {});
    const headerNode: StructNode = {
      label: 'header',
      range: range(0, HEADER_BYTES),
      children: layoutLeaves(H, 0, {
        magic: 'BENDL\\0\\0\\x01',
        major: h.major,
        minor: h.minor,
        finalized: [h.finalized, mark('finalized')],
        assignmentFormat: [`${h.assignmentFormat} (${h.assignmentFormat === 1 ? 'BEN' : h.assignmentFormat === 2 ? 'XBEN' : 'unknown'})`, mark('assignment format')],
        padding: '',
        flags: `${h.flags}${h.flags & 1 ? ' (stream checksum valid)' : ''}${h.flags & ~1 ? `, reserved bits ${hex(h.flags & ~1)}` : ''}`,
        streamChecksum: hex(h.streamChecksum, 8),
        directoryOffset: [h.directoryOffset, mark('directory offset')],
        directoryLength: h.directoryLength,
        streamOffset: [h.streamOffset, mark('stream offset')],
        streamLength: [h.streamLength, mark('stream length')],
        sampleCount: [h.sampleCount, mark('sample count')],
      }),
    };
    const children: StructNode[] = [headerNode];
    if (this.layout !== 'older') {
      children.push(leaf('header tail', this.tail.state === 'valid' ? `CRC32C ${hex(this.tail.crc, 8)} ok` : this.tailDetail(), range(HEADER_BYTES, TAIL_BYTES), this.layout === 'corrupt' ? { mark: 'error' } : {}));
    }
    for (const e of this.directory?.entries ?? []) {
      const node = leaf(`asset ${e.name}`, `${ASSET_TYPES[e.assetType] ?? 'unknown type'}, flags ${assetFlags(e.flags)}, ${e.payloadLength} bytes`, range(e.payloadOffset, e.payloadLength));
      children.push(checkedNode(node, () => crcFailure(e.checksum, this.assetCrcsKnown.get(e.name))));
    }
    const s = this.stream;
    // The header's stream CRC32C counts only in a finalized bundle with flag bit 0 (as streamDamage).
    const streamFailure = () => (h.finalized === 1 && h.flags & 1 ? crcFailure(h.streamChecksum, this.streamCrcKnown) : undefined);
    if (this.benStream) children.push(checkedNode(this.benStream.structure(), streamFailure, `stream (BEN ${this.benStream.variantName})`));
    // An XBEN's block checks are met only by a decode (a count or verify): the stream shows that too.
    // (A BEN stream that breaks already has its 'stream breaks' child.)
    else if (this.xzStream) children.push(checkedNode(xzStructure(this.src, this.xzStream, 'stream (XBEN)', () => this.plans?.knownFailure), () => streamFailure() ?? this.plans?.knownErrorNote));
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
    for (const gap of this.unreferenced()) {
      children.push(leaf('unreferenced bytes', `${gap.length} bytes no header or directory entry points to (an older directory or payload left by an append, or a crashed write)`, gap, { mark: 'warn' }));
    }
    children.sort((a, b) => (a.range?.offset ?? 0) - (b.range?.offset ?? 0));
    return { label: this.title, range: range(0, this.src.size), children };
  }

  /**
   * Byte ranges nothing in force refers to (spec §6: an append leaves the old directory behind,
   * mid-file). Only for finalized bundles, whose every range is known.
   */
  private unreferenced(): ByteRange[] {
    if (this.header.finalized !== 1 || !this.directory) return [];
    const used: [number, number][] = [[0, this.layout === 'older' ? HEADER_BYTES : HEADER_BYTES + TAIL_BYTES]];
    used.push([this.stream.offset, this.stream.offset + this.stream.length], [this.directory.offset, this.directory.offset + this.directory.length]);
    for (const e of this.directory.entries) used.push([e.payloadOffset, e.payloadOffset + e.payloadLength]);
    used.sort((a, b) => a[0] - b[0]);
    const gaps: ByteRange[] = [];
    let at = 0;
    for (const [from, to] of used) {
      if (from > at) gaps.push(range(at, from - at));
      at = Math.max(at, to);
    }
    if (at < this.src.size) gaps.push(range(at, this.src.size - at));
    return gaps;
  }

  async *verify(ctx: TaskContext): AsyncIterable<Check> {
    if (this.layout === 'newest') yield pass('header checksum', `CRC32C ${hex((this.tail as { crc: number }).crc, 8)} of the header matches its tail`, HEADER_BYTES);
    else if (this.layout === 'older') yield warn('header checksum', 'absent: older v1 layout (first payload at 64)');
    else yield fail('header checksum', this.tailDetail(), HEADER_BYTES, 'header tail');
    if (this.problems.length === 0) yield pass('header', 'magic, version, offsets, finalized and sample count are consistent');
    for (const p of this.problems) yield failFrom('header', p);
    if (this.directoryError) {
      // Already said as a header problem when the header put the directory past the end.
      if (!this.problems.includes(this.directoryError)) yield failFrom('directory', this.directoryError);
    } else if (this.directory) {
      yield pass('directory', `${plural(this.directory.entries.length, 'entry', 'entries')}: names unique, types named, checksum flags consistent`, this.directory.offset);
      for (const e of this.directory.entries) {
        if (e.checksum === undefined) {
          yield info(`asset ${e.name}`, 'no checksum stored');
          continue;
        }
        const crc = await this.assetCrc(e, ctx.signal);
        yield crc === e.checksum
          ? pass(`asset ${e.name}`, `CRC32C ${hex(crc, 8)} matches`, e.payloadOffset)
          : fail(`asset ${e.name}`, `stored CRC32C ${hex(e.checksum, 8)}, computed ${hex(crc, 8)}`, e.payloadOffset, 'asset payload');
      }
    } else if (this.header.finalized === 1) yield warn('directory', 'a finalized bundle without a directory');
    for (const gap of this.unreferenced()) yield info('unreferenced bytes', `${gap.length} bytes nothing refers to (an older directory left by an append, or a crashed write)`, gap.offset);
    yield* this.verifyStream(ctx);
  }

  private async *verifyStream(ctx: TaskContext): AsyncIterable<Check> {
    const h = this.header;
    const s = this.stream;
    if (h.finalized !== 1) yield info('stream checksum', 'bundle incomplete (unfinalized): no stream checksum yet');
    else if (!(h.flags & 1)) yield info('stream checksum', 'unavailable (flag clear)');
    else {
      const crc = await this.streamCrc(ctx);
      yield crc === h.streamChecksum
        ? pass('stream checksum', `CRC32C ${hex(crc, 8)} matches`, s.offset)
        : fail('stream checksum', `stored ${hex(h.streamChecksum, 8)}, computed ${hex(crc, 8)}`, s.offset, 'stream');
    }
    if (this.streamError) yield failFrom('stream', this.streamError);
    if (this.xzStream) yield* verifyXz(this.src, this.xzStream);
    if (!this.plans) return;
    const decoded = yield* this.plans.verify(ctx);
    if (h.finalized === 1 && !decoded.error) yield sampleCountCheck(h.sampleCount, decoded.samples);
    else if (h.finalized !== 1) yield info('sample count', `unknown in an unfinalized bundle; ${plural(decoded.samples, 'complete sample')} decode`);
  }

  /** Counts the stream's frames (and samples, which a trusted header already gives): headers for BEN, a decode for XBEN. */
  async countAll(ctx: TaskContext): Promise<void> {
    await this.plans?.countAll(ctx);
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
      variant: this.plans?.variant ?? null,
      ...(this.plans?.counts() ?? { frames: null, samples: null, counted: false }),
      stream: this.benStream?.info(),
    };
  }

  /** The stream's CRC32C, computed once for verify and every read path. */
  private crc: Promise<number> | undefined;
  /** The stream's CRC32C once computed, for the tree, which cannot wait for it. */
  private streamCrcKnown: number | undefined;
  private streamCrc(ctx: TaskContext): Promise<number> {
    const s = this.stream;
    if (!this.crc) {
      const run = async () => {
        let crc = 0;
        await scanRange(this.src, s.offset, s.length, ctx, (p) => (crc = crc32c(p, crc)), 'stream');
        this.streamCrcKnown = crc;
        return crc;
      };
      this.crc = run();
      // A cancelled run is not a result: the next reader computes it again.
      this.crc.catch(() => (this.crc = undefined));
    }
    return this.crc;
  }

  /** The header's damage: its tail CRC32C fails, so no offset or count in it can be trusted. */
  private headerDamage(): FormatError | undefined {
    return this.layout === 'corrupt' ? new FormatError('checksum', this.tailDetail(), { offset: HEADER_BYTES, field: 'header' }) : undefined;
  }

  /** The stream's damage: the header's stream CRC32C (finalized bundles with flag bit0) fails. */
  private async streamDamage(ctx: TaskContext): Promise<Damage | undefined> {
    const h = this.header;
    if (h.finalized !== 1 || !(h.flags & 1)) return undefined;
    const crc = await this.streamCrc(ctx);
    if (crc === h.streamChecksum) return undefined;
    const declared = this.trustedCount();
    return {
      unit: 'stream',
      detail: `CRC32C ${hex(crc, 8)} does not match the header's ${hex(h.streamChecksum, 8)}: no sample of it can be trusted`,
      range: range(this.stream.offset, this.stream.length),
      offset: this.stream.offset,
      rows: { from: 1, count: declared },
    };
  }

  /** Logs the header's damage was reported to: a rewrite reads it for its assets and its stream. */
  private readonly headerReported = new WeakSet<object>();

  /** Reports the header's damage before anything read through it leaves (salvage goes on), once per run. */
  private checkHeader(ctx: TaskContext): void {
    const e = this.headerDamage();
    if (!e || (ctx.integrity && this.headerReported.has(ctx.integrity))) return;
    if (ctx.integrity) this.headerReported.add(ctx.integrity);
    reportError(ctx, e, (d) => ({ unit: 'header', detail: d.detail, range: range(0, HEADER_BYTES + TAIL_BYTES), offset: d.offset, code: d.code }));
  }

  /** The bundle's checks over the stream, run before any sample leaves (cat, conversions, Recover). */
  private streamGate(): StreamGate {
    return {
      check: async (ctx) => {
        this.checkHeader(ctx);
        const d = await this.streamDamage(ctx);
        if (d) reportError(ctx, new FormatError('checksum', d.detail, { offset: d.offset, field: 'stream' }), () => d);
        return d === undefined;
      },
      wholeStream: (signal) => this.streamDamage({ signal }),
    };
  }

  /**
   * Every asset in stored form, for a rewrite or a recovery: one that cannot be located or
   * whose CRC32C fails is reported (a strict run stops; a salvage, Recover, leaves it out).
   */
  private async keptAssets(ctx: TaskContext): Promise<AssetInput[]> {
    this.checkHeader(ctx);
    if (this.directoryError) {
      reportError(ctx, this.directoryError, (d) => damageFrom('directory', d, { range: range(this.header.directoryOffset, this.header.directoryLength) }));
      return [];
    }
    const out: AssetInput[] = [];
    for (const e of this.directory?.entries ?? []) {
      if (e.payloadLength > MAX_ASSET_BYTES) throw new FormatError('limit', `asset ${e.name} has ${e.payloadLength} bytes; at most ${MAX_ASSET_BYTES} are carried into a new bundle`, { offset: e.payloadOffset, field: `asset ${e.name}` });
      const stored = await this.src.read(e.payloadOffset, e.payloadLength);
      try {
        checkAssetCrc(e, stored);
      } catch (err) {
        reportError(ctx, err, (d) => damageFrom(`asset ${e.name}`, d, { range: range(e.payloadOffset, e.payloadLength) }));
        continue;
      }
      out.push({ name: e.name, type: e.assetType, flags: e.flags | ASSET_FLAG_CHECKSUM, stored });
    }
    return out;
  }

  async coverage(): Promise<Coverage> {
    const h = this.header;
    const s = range(this.stream.offset, this.stream.length);
    const parts: CoveragePart[] = [
      this.layout === 'older'
        ? { part: 'BENDL header (older v1 layout)', check: null, ranges: [range(0, HEADER_BYTES)] }
        : { part: 'BENDL header', check: 'header CRC32C in its tail', ranges: [range(0, HEADER_BYTES + TAIL_BYTES)] },
    ];
    if (this.directory) parts.push({ part: 'BENDL directory', check: null, ranges: [range(this.directory.offset, this.directory.length)] });
    for (const e of this.directory?.entries ?? []) {
      parts.push({ part: `asset ${e.name}`, check: e.checksum === undefined ? null : 'CRC32C in its directory entry', ranges: [range(e.payloadOffset, e.payloadLength)] });
    }
    if (h.finalized === 1 && h.flags & 1) parts.push({ part: 'stream', check: 'stream CRC32C in the header', ranges: [s] });
    else if (this.xzStream || h.assignmentFormat === 2) parts.push(...(await xzParts(this.src, this.xzStream, s)));
    else parts.push(benFramesPart(s));
    return { parts };
  }

  /** The bundle's own conversions; Recover is `rewrite` (the 'bendl' conversion) in the stream's own format. */
  private bundleConverters(rewrite: Converter | undefined): Converter[] {
    const h = this.header;
    const s = this.stream;
    const ext = h.assignmentFormat === 2 ? '.xben' : '.ben';
    const out: Converter[] = [
      {
        id: 'stream',
        label: `The embedded stream, byte for byte (${ext})`,
        extension: ext,
        output: 'file',
        run: async (target, ctx) => {
          this.checkHeader(ctx);
          const d = await this.streamDamage(ctx);
          const sink = await target.file();
          if (d) {
            // The stream is one unit here: salvage leaves all of it out.
            reportError(ctx, new FormatError('checksum', d.detail, { offset: d.offset, field: 'stream' }), () => d);
            return { summary: 'stream left out: its CRC32C fails' };
          }
          const pieces: Promise<void>[] = [];
          await scanRange(this.src, s.offset, s.length, ctx, (p) => void pieces.push(sink.write(p.slice())), 'stream');
          await Promise.all(pieces);
          return { summary: `${s.length} bytes of stream` };
        },
      },
      {
        id: 'assets',
        label: 'The assets, one file each (xz assets decompressed)',
        extension: '',
        output: 'folder',
        run: async (target, ctx) => {
          this.checkHeader(ctx);
          // A directory that does not read holds assets that cannot be located: not "no assets".
          if (this.directoryError) throw this.directoryError;
          let written = 0;
          for (const e of this.directory?.entries ?? []) {
            let bytes: Uint8Array;
            try {
              bytes = await readAsset(this.src, e);
            } catch (err) {
              reportError(ctx, err, (d) => damageFrom(`asset ${e.name}`, d, { range: range(e.payloadOffset, e.payloadLength) }));
              continue;
            }
            await (await target.file(e.name)).write(bytes);
            written++;
          }
          return { summary: `${plural(written, 'asset')} extracted` };
        },
      },
    ];
    if (!rewrite) return out;
    const format = h.assignmentFormat === 2 ? 'xben' : 'ben';
    const variant = this.plans?.variant ?? 'standard';
    const broken = h.finalized !== 1 || this.streamError !== undefined || this.benStream?.index.known.error !== undefined;
    out.push({
      id: 'recover',
      label: 'Recover: a new finalized bundle with the samples that decode and every intact asset',
      extension: '.recovered.bendl',
      output: 'file',
      // The rewrite as it is, in the stream's own format: salvaging, it keeps what the checks let through.
      run: (target, ctx) => rewrite.run(target, ctx, { stream: format, variant }),
    });
    // Recovery is offered first when something is wrong; it stays available otherwise (a plain rewrite).
    return broken ? [out[2]!, out[0]!, out[1]!] : out;
  }

  private overviewPanel(): Panel {
    return {
      id: 'overview',
      title: 'Bundle',
      kind: 'fields',
      data: async (_params, signal) => {
        const h = this.header;
        const s = this.stream;
        const readable = this.plans ? await this.plans.readable({ signal }) : undefined;
        const count = this.trustedCount();
        return {
          kind: 'fields',
          groups: [
            {
              title: 'State',
              fields: [
                { name: 'finalized', value: h.finalized === 1 ? 'yes' : 'no: a writer stopped before finishing', ...H.range('finalized'), mark: h.finalized === 1 ? undefined : 'warn' },
                {
                  name: 'sample count',
                  value: count !== undefined ? `${count} (from the header, trusted)` : h.finalized === 1 ? `${h.sampleCount} (header not trusted)` : 'unknown (unfinalized)',
                  ...H.range('sampleCount'),
                  mark: count === undefined ? 'warn' : undefined,
                },
                {
                  name: 'stream readable',
                  value: readable ? (readable.error ? `${readable.samples} complete samples, then: ${readable.error.message}` : `to the end: ${readable.samples} samples`) : `no: ${this.streamError?.message ?? 'unknown format'}`,
                  offset: s.offset,
                  length: s.length,
                  mark: readable && !readable.error ? undefined : 'error',
                },
                { name: 'layout', value: this.layout === 'newest' ? 'newest v1 (header CRC32C ok)' : this.layout === 'older' ? 'older v1 layout: no header checksum' : this.tailDetail(), ...BENDL_TAIL.span('crc', 'zero', HEADER_BYTES), mark: this.layout === 'corrupt' ? 'error' : undefined },
              ],
            },
            {
              title: 'Header',
              fields: [
                { name: 'version', value: `${h.major}.${h.minor}`, ...H.span('major', 'minor') },
                { name: 'stream', value: `${h.assignmentFormat === 2 ? 'XBEN' : 'BEN'} ${this.plans ? VARIANT_NAMES[this.plans.variant] : ''}, ${s.length} bytes at ${s.offset}${s.provisional ? ' (to EOF or the directory: unfinalized)' : ''}`, offset: s.offset, length: s.length },
                { name: 'stream checksum', value: h.flags & 1 ? `CRC32C ${hex(h.streamChecksum, 8)}` : 'not set (flag clear)', ...H.range('streamChecksum') },
                { name: 'flags', value: `${hex(h.flags)}${h.flags & ~1 ? ' (reserved bits set: ignored)' : ''}`, ...H.range('flags') },
                { name: 'directory', value: this.directory ? `${this.directory.length} bytes at ${this.directory.offset}` : this.directoryError ? this.directoryError.message : 'none', offset: h.directoryOffset || undefined, length: h.directoryLength || undefined },
              ],
            },
            {
              title: 'Assets',
              fields: (this.directory?.entries ?? []).map((e) => ({
                name: e.name,
                value: `${ASSET_TYPES[e.assetType] ?? `unknown type ${e.assetType}`}, flags ${assetFlags(e.flags)}, ${e.payloadLength} bytes at ${e.payloadOffset}${e.checksum === undefined ? '' : `, CRC32C ${hex(e.checksum, 8)}`}`,
                offset: e.payloadOffset,
                length: e.payloadLength,
              })),
            },
          ],
        };
      },
    };
  }

  /** A JSON asset pretty-printed (metadata.json, the permutation map); long ones are cut. */
  private assetTextPanel(id: string, name: string): Panel {
    return {
      id,
      title: name,
      kind: 'text',
      data: async () => {
        const bytes = await this.asset(name);
        if (!bytes) return { kind: 'text', language: 'plain', text: this.directory ? `This bundle has no ${name}.` : 'No directory: the assets of an unfinalized bundle are not listed.' };
        const raw = new TextDecoder().decode(bytes);
        let text: string;
        try {
          text = JSON.stringify(JSON.parse(raw), null, 2);
        } catch {
          return { kind: 'text', language: 'plain', text: raw.slice(0, 200_000) };
        }
        const limit = 200_000;
        return { kind: 'text', language: 'json', text: text.length > limit ? `${text.slice(0, limit)}\n… (${text.length - limit} more characters)` : text };
      },
    };
  }
}
