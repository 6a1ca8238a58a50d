import { crc32c } from '../../codecs/crc32c.js';
import { readXzLayout, relocateXzLayout, type XzLayout } from '../../codecs/xz/container.js';
import { fail, failFrom, field, hex, range, warn } from '../../describe.js';
import { FormatError, rethrowUnlessFormatError } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import { SliceSource } from '../../io/byteSource.js';
import { scanRange } from '../../io/scan.js';
import type { Coverage, CoveragePart, Damage } from '../../integrity.js';
import type { Check, Field, FormatDocument, Table, TaskContext } from '../../model.js';
import {
  type AssetEntry,
  BENDL_HEADER as H,
  BENDL_TAIL,
  type Directory,
  HEADER_BYTES,
  TAIL_BYTES,
  firstPayloadOffset,
  headerProblems,
  readAsset,
  readBendlHeader,
  readDirectory,
  readHeaderTail,
  streamRange,
} from './bendl.js';
import { bundleConverters, keptAssets } from './bendlConverters.js';
import { assetTable, assetTextPanel, overviewPanel } from './bendlPanels.js';
import type { Bundle, BundleParts, Layout } from './bendlParts.js';
import { bundleStructure } from './bendlTree.js';
import { verifyBundle } from './bendlVerify.js';
import { benFramesPart, xzParts } from './coverage.js';
import { countFields } from './counts.js';
import { PlanFeatures, type StreamGate, streamReads } from './features.js';
import { type DualGraph, parseGraph, parsePermutation } from './graph.js';
import type { Variant } from './model.js';
import type { PlanAssets } from './panelHeads.js';
import { readFrames, type StreamLocation } from './stream.js';
import { BenStreamView } from './streamView.js';
import { noSamples, reportError } from './salvage.js';

export async function openBendl(src: ByteSource): Promise<FormatDocument> {
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
      } else throw new FormatError('unsupported', `assignment format ${header.assignmentFormat} (1 BEN, 2 XBEN)`, H.at('assignmentFormat'));
    } catch (e) {
      rethrowUnlessFormatError(e);
      streamError = e;
    }
  }
  return bendlDocument(new OpenBundle({ src, header, tail, layout, problems, directory, directoryError, stream, benStream, xzStream, streamError }, variant));
}

/** A .bendl bundle as a document: header, tail, assets, directory, and the plans of its stream. */
function bendlDocument(b: OpenBundle): FormatDocument {
  const { plans, benStream, streamError, stream } = b;
  const tables: Table[] = [...(plans?.tables ?? []), assetTable(b)];
  if (benStream) tables.push(benStream.framesTable((signal) => b.streamDamage({ signal })));
  // A stream that fails before its first sample has none: cat and the rewrites report it as damage.
  const none = plans || !streamError ? undefined : noSamples(streamError, range(stream.offset, stream.length), (ctx) => b.streamGate().check(ctx));
  const reads = streamReads(plans, none, {
    graphJson: () => b.asset('graph.json'),
    variant: 'standard',
    kept: (ctx) => keptAssets(b, ctx),
    document: () => doc,
  });
  const own = bundleConverters(
    b,
    reads.converters.find((c) => c.id === 'bendl'),
  );
  const doc: FormatDocument = {
    ...reads,
    // Recovery comes first when something is wrong; it stays available otherwise (a plain rewrite).
    converters: own[0]?.id === 'recover' ? [own[0], ...reads.converters, ...own.slice(1)] : [...reads.converters, ...own],
    title: b.title,
    get summary() {
      return summaryFields(b);
    },
    warnings: openWarnings(b),
    tables,
    panels: [
      overviewPanel(b),
      assetTextPanel(b, 'metadata', 'metadata.json'),
      ...(b.entry('node_permutation_map.json') ? [assetTextPanel(b, 'permutation', 'node_permutation_map.json')] : []),
      ...(plans?.panels() ?? []),
    ],
    /** The BEN stream's frame index (an XBEN stream has none). */
    savedIndex: benStream?.index,
    /** Counts the stream's frames (and samples, which a trusted header already gives): headers for BEN, a decode for XBEN. */
    countAll: async (ctx) => {
      await plans?.countAll(ctx);
    },
    structure: () => bundleStructure(b),
    verify: (ctx) => verifyBundle(b, ctx),
    coverage: () => bundleCoverage(b),
    info: () => bundleInfo(b),
  };
  return doc;
}

function openWarnings(b: OpenBundle): Check[] {
  const out: Check[] = [];
  if (b.layout === 'corrupt') out.push(fail('header checksum', b.tailDetail(), HEADER_BYTES, 'header tail'));
  else if (b.layout === 'older') out.push(warn('header checksum', 'older v1 layout: no header checksum'));
  for (const p of b.problems) out.push(failFrom('header', p));
  if (b.directoryError) out.push(failFrom('directory', b.directoryError));
  if (b.streamError) out.push(failFrom('stream', b.streamError));
  if (b.header.finalized !== 1) out.push(warn('finalized', 'the bundle is not finalized (a crashed or running writer): sample count unknown'));
  return out;
}

function summaryFields(b: OpenBundle): Field[] {
  const h = b.header;
  const s = b.stream;
  return [
    field('layout', b.layout, BENDL_TAIL.span('crc', 'zero', HEADER_BYTES), {
      display:
        b.layout === 'newest' ? 'newest v1 (header CRC32C ok)' : b.layout === 'older' ? 'older v1 layout: no header checksum' : 'header checksum mismatch',
      mark: b.layout === 'corrupt' ? 'error' : b.layout === 'older' ? 'warn' : undefined,
    }),
    field('version', `${h.major}.${h.minor}`, H.span('major', 'minor')),
    field('finalized', h.finalized === 1, H.range('finalized'), {
      display: h.finalized === 1 ? 'yes' : 'no (incomplete)',
      mark: h.finalized === 1 ? undefined : 'warn',
    }),
    field('stream format', h.assignmentFormat, H.range('assignmentFormat'), {
      display: h.assignmentFormat === 1 ? 'BEN' : h.assignmentFormat === 2 ? 'XBEN' : `unknown (${h.assignmentFormat})`,
    }),
    field('sample count', h.sampleCount, H.range('sampleCount'), { display: h.finalized === 1 ? String(h.sampleCount) : 'unknown (unfinalized)' }),
    ...(b.plans ? countFields(b.plans.counts(), b.plans.partialCounts()) : []),
    field('stream', `${s.offset}+${s.length}`, range(s.offset, s.length), {
      display: `${s.length} bytes at ${s.offset}${s.provisional ? ' (recovered range)' : ''}`,
    }),
    field('stream checksum', h.streamChecksum, H.range('streamChecksum'), {
      display: h.flags & 1 ? `CRC32C ${hex(h.streamChecksum, 8)}` : 'not valid (flag clear)',
    }),
    field('assets', b.directory?.entries.length ?? null, b.directory ? range(b.directory.offset, b.directory.length) : undefined, {
      display: b.directory ? String(b.directory.entries.length) : b.directoryError ? 'directory damaged' : 'no directory',
    }),
  ];
}

function bundleInfo(b: OpenBundle): Record<string, unknown> {
  const h = b.header;
  return {
    container: 'bendl',
    layout: b.layout,
    finalized: h.finalized === 1,
    assignmentFormat: h.assignmentFormat === 1 ? 'ben' : h.assignmentFormat === 2 ? 'xben' : h.assignmentFormat,
    sampleCount: h.finalized === 1 ? h.sampleCount : null,
    streamOffset: b.stream.offset,
    streamLength: b.stream.length,
    assets: (b.directory?.entries ?? []).map((e) => ({
      name: e.name,
      type: e.assetType,
      flags: e.flags,
      offset: e.payloadOffset,
      length: e.payloadLength,
      checksum: e.checksum,
    })),
    variant: b.plans?.variant ?? null,
    ...(b.plans?.counts() ?? { frames: null, samples: null, counted: false }),
    stream: b.benStream?.info(),
  };
}

async function bundleCoverage(b: OpenBundle): Promise<Coverage> {
  const h = b.header;
  const s = range(b.stream.offset, b.stream.length);
  const parts: CoveragePart[] = [
    b.layout === 'older'
      ? { part: 'BENDL header (older v1 layout)', check: null, ranges: [range(0, HEADER_BYTES)] }
      : { part: 'BENDL header', check: 'header CRC32C in its tail', ranges: [range(0, HEADER_BYTES + TAIL_BYTES)] },
  ];
  if (b.directory) parts.push({ part: 'BENDL directory', check: null, ranges: [range(b.directory.offset, b.directory.length)] });
  for (const e of b.directory?.entries ?? []) {
    parts.push({
      part: `asset ${e.name}`,
      check: e.checksum === undefined ? null : 'CRC32C in its directory entry',
      ranges: [range(e.payloadOffset, e.payloadLength)],
    });
  }
  if (h.finalized === 1 && h.flags & 1) parts.push({ part: 'stream', check: 'stream CRC32C in the header', ranges: [s] });
  else if (b.xzStream || h.assignmentFormat === 2) parts.push(...(await xzParts(b.src, b.xzStream, s)));
  else parts.push(benFramesPart(s));
  return { parts };
}

/**
 * An open .bendl bundle: what opening found, the plans of its BEN or XBEN stream, and the checks
 * computed once and shared by every view (bendlTree, bendlPanels, bendlVerify, bendlConverters).
 */
class OpenBundle implements Bundle {
  readonly title: string;
  readonly plans: PlanFeatures | undefined;
  readonly src: ByteSource;
  readonly header: BundleParts['header'];
  readonly tail: BundleParts['tail'];
  readonly layout: Layout;
  readonly problems: readonly FormatError[];
  readonly directory: Directory | undefined;
  readonly directoryError: FormatError | undefined;
  readonly stream: BundleParts['stream'];
  readonly benStream: BenStreamView | undefined;
  readonly xzStream: XzLayout | undefined;
  readonly streamError: FormatError | undefined;
  private readonly loaded = new Map<string, Promise<unknown>>();

  constructor(parts: BundleParts, variant: Variant | undefined) {
    ({ src: this.src, header: this.header, tail: this.tail, layout: this.layout, problems: this.problems } = parts);
    ({ directory: this.directory, directoryError: this.directoryError, stream: this.stream } = parts);
    ({ benStream: this.benStream, xzStream: this.xzStream, streamError: this.streamError } = parts);
    const { src, header, stream, benStream } = parts;
    this.title = `BENDL bundle (${header.assignmentFormat === 2 ? 'XBEN' : 'BEN'} stream${header.finalized === 1 ? '' : ', unfinalized'})`;
    const loc: StreamLocation = { format: header.assignmentFormat === 2 ? 'xben' : 'ben', offset: stream.offset, length: stream.length };
    this.plans = variant ? new PlanFeatures(src, loc, variant, benStream?.index, this.trustedCount(), this.planAssets(), this.streamGate()) : undefined;
  }

  /** The header's sample count, when the header is trustworthy and the bundle finalized (O(1) count). */
  trustedCount(): number | undefined {
    if (this.header.finalized !== 1 || this.layout === 'corrupt' || this.problems.length > 0) return undefined;
    return Number(this.header.sampleCount);
  }

  entry(name: string): AssetEntry | undefined {
    return this.directory?.entries.find((e) => e.name === name);
  }

  /** An asset's content, read once (CRC checked, decompressed). */
  asset(name: string): Promise<Uint8Array | undefined> {
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
    // The precincts' FeatureCollection, when the bundle carries one beside its graph.
    const shapes = this.directory?.entries.find((e) => /\.geojson$/i.test(e.name));
    return {
      // Parsed (and laid out when it has no coordinates) once per document.
      graph: () => (graph ??= this.asset('graph.json').then((b) => (b ? parseGraph(text(b)) : undefined))),
      graphJson: () => this.asset('graph.json'),
      hasGraph: this.entry('graph.json') !== undefined,
      permutation: () => (perm ??= this.asset('node_permutation_map.json').then((b) => (b ? parsePermutation(text(b)) : undefined))),
      hasPermutation: this.entry('node_permutation_map.json') !== undefined,
      shapes: shapes && { name: shapes.name, bytes: () => this.asset(shapes.name) },
    };
  }

  tailDetail(): string {
    const t = this.tail;
    if (t.state === 'mismatch')
      return `header CRC32C: stored ${hex(t.stored, 8)}, computed ${hex(t.computed, 8)}; offsets assume the tail, so the header cannot be trusted`;
    return 'header checksum missing';
  }

  /** Each asset's computed CRC32C, once per document (the assets table marks the ones that fail). */
  private readonly assetCrcs = new Map<string, Promise<number>>();
  /** The asset CRCs computed so far, for the tree, which cannot wait for them. */
  private readonly assetCrcsKnown = new Map<string, number>();
  assetCrc(e: AssetEntry, signal?: AbortSignal): Promise<number> {
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

  knownAssetCrc(name: string): number | undefined {
    return this.assetCrcsKnown.get(name);
  }

  knownStreamCrc(): number | undefined {
    return this.streamCrcKnown;
  }

  /** The stream's CRC32C, computed once for verify and every read path. */
  private crc: Promise<number> | undefined;
  /** The stream's CRC32C once computed, for the tree, which cannot wait for it. */
  private streamCrcKnown: number | undefined;
  streamCrc(ctx: TaskContext): Promise<number> {
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
  async streamDamage(ctx: TaskContext): Promise<Damage | undefined> {
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
  checkHeader(ctx: TaskContext): void {
    const e = this.headerDamage();
    if (!e || (ctx.integrity && this.headerReported.has(ctx.integrity))) return;
    if (ctx.integrity) this.headerReported.add(ctx.integrity);
    reportError(ctx, e, (d) => ({ unit: 'header', detail: d.detail, range: range(0, HEADER_BYTES + TAIL_BYTES), offset: d.offset, code: d.code }));
  }

  /** The bundle's checks over the stream, run before any sample leaves (cat, conversions, Recover). */
  streamGate(): StreamGate {
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
}
