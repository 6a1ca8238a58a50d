import { fail, failFrom, field, hex, hexString, range, warn } from '../../describe.js';
import type { ByteSource } from '../../io/byteSource.js';
import type { Coverage } from '../../integrity.js';
import type { Check, Converter, Field, FormatDocument, OpenContext, Panel, StructNode, Table, TaskContext } from '../../model.js';
import { FrameChecks } from './checks.js';
import { ChunkReader, columnViews, type ColumnView } from './columns.js';
import { readContainer, type Container } from './container.js';
import { exportConverters, catSpec } from './convert.js';
import { coverageOf } from './coverage.js';
import { frameCrc } from './frames.js';
import { CHECKSUM_ALGOS, FOOTER_FRAME_BYTES, frameTypeName, type FrameHeader } from './model.js';
import { bloomPanel, integrityPanel, merklePanel, metadataPanel, pipelinePanel, sortedPanel } from './panels.js';
import { fileFlagText, structureOf } from './structure.js';
import { chunksTable, columnsTable, framesTable, rowsTable } from './tables.js';
import { notUnderstood, verifyContainer, verifyIntegrity } from './verify.js';
import { BinduDiff } from './diff.js';

/** CRCs of files up to this size are checked when they open, so the frame list shows them. */
const CHECK_CRCS_AT_OPEN = 8 << 20;

export async function openBindu(src: ByteSource, ctx: OpenContext): Promise<FormatDocument> {
  const c = await readContainer(src, ctx.signal);
  const crcs = new Map<number, number>();
  if (src.size <= CHECK_CRCS_AT_OPEN) for (const f of c.frames) crcs.set(f.offset, await frameCrc(src, f));
  return new BinduDocument(src, c, crcs);
}

class BinduDocument implements FormatDocument {
  readonly format = 'bindu' as const;
  readonly title = 'Bindu open container v1';
  readonly summary: readonly Field[];
  readonly warnings: readonly Check[];
  readonly tables: readonly Table[];
  readonly panels: readonly Panel[];
  readonly converters: readonly Converter[];
  readonly cat;
  readonly diff: BinduDiff;
  private readonly views: readonly ColumnView[];
  private readonly reader: ChunkReader;
  private readonly checks: FrameChecks;

  constructor(
    private readonly src: ByteSource,
    private readonly c: Container,
    crcs: ReadonlyMap<number, number>,
  ) {
    this.views = columnViews(c);
    this.reader = new ChunkReader(src);
    this.checks = new FrameChecks(src, c, crcs);
    const h = c.header;
    const { preamble, footer, rawFooter } = c;
    this.summary = [
      field('preamble', preamble.size, range(0, preamble.size), {
        display: preamble.size === 10 ? `10 bytes, format major ${preamble.formatMajor}` : `8-byte variant, version ${preamble.formatMajor}`,
        mark: preamble.size === 8 ? 'warn' : undefined,
      }),
      field('frames', c.frames.length, undefined, { mark: c.walkStop ? 'error' : undefined, note: c.walkStop?.message }),
      field('rows', h ? h.rowCount : null, undefined, { display: h ? undefined : 'unknown (no Header frame)' }),
      field('columns', h ? h.columnCount : null),
      field('file flags', h ? h.fileFlags : null, undefined, { display: h ? fileFlagText(h.fileFlags) : undefined }),
      field('schema fingerprint', h ? hexString(h.fingerprint) : null, undefined, {
        display: h && h.fingerprint.every((b) => b === 0) ? 'none (schemaless)' : undefined,
      }),
      field('writer', h ? `${h.writerName} ${h.writerVersion.join('.')}` : null),
      field(
        'footer',
        footer ? 'ok' : rawFooter ? 'damaged' : 'missing',
        range(Math.max(0, src.size - FOOTER_FRAME_BYTES), Math.min(src.size, FOOTER_FRAME_BYTES)),
        {
          display: footer
            ? `ok, file checksum ${CHECKSUM_ALGOS[footer.checksumAlgo] ?? footer.checksumAlgo}`
            : rawFooter
              ? 'damaged: frames found by a front-to-back scan'
              : 'missing: frames found by a front-to-back scan',
          mark: footer ? undefined : 'warn',
        },
      ),
    ];
    const warnings: Check[] = [];
    if (preamble.size === 8) warnings.push(warn('preamble', '8-byte preamble variant ("BINDU\\0" + u16 version)', 0));
    if (preamble.formatMajor > 1) warnings.push(warn('preamble', `format major ${preamble.formatMajor} is newer than 1: read best-effort`, 6));
    if (!footer) warnings.push(warn('footer', rawFooter ? 'footer damaged (CRC or offset): scanned front to back' : 'no footer: scanned front to back'));
    if (c.walkStop) warnings.push(failFrom('frames', c.walkStop));
    for (const f of c.frames) {
      const crc = crcs.get(f.offset);
      if (crc !== undefined && crc !== f.storedCrc)
        warnings.push(fail('frame CRC', `${frameTypeName(f.type)} frame: stored ${hex(f.storedCrc, 8)}, computed ${hex(crc, 8)}`, f.offset));
      if (notUnderstood(f) && !(f.flags & 1))
        warnings.push(fail('critical frame', `${frameTypeName(f.type)} frame is not skippable and not understood`, f.offset));
      const problem = c.problems.get(f.offset);
      if (problem) warnings.push(failFrom(`${frameTypeName(f.type)} frame`, problem));
    }
    for (const v of this.views) if (v.undecodable) warnings.push(warn('column', `"${v.column.name}": ${v.undecodable}`, v.column.frame.offset));
    this.warnings = warnings;
    const crcState = (f: FrameHeader) => this.crcState(f);
    this.tables = [rowsTable(this.views, this.reader, this.checks), framesTable(c, crcState), columnsTable(this.views), chunksTable(this.views, this.checks)];
    const panels: Panel[] = [pipelinePanel(this.views)];
    if (c.blooms.length) panels.push(bloomPanel(c, this.views, this.checks));
    if (c.sorted.some((s) => s.ranges)) panels.push(sortedPanel(c, this.views, this.checks));
    panels.push(integrityPanel(() => verifyIntegrity(src, c, {})));
    if (c.merkle) panels.push(merklePanel(src, c));
    panels.push(metadataPanel(c, this.checks));
    this.panels = panels;
    const readable = { src, c, views: this.views, reader: this.reader, checks: this.checks };
    this.converters = exportConverters(readable);
    this.cat = catSpec(readable);
    this.diff = new BinduDiff(
      this,
      this.views.map((v) => v.column),
    );
  }

  /** The frame's CRC as far as checks have run: at open up to 8 MiB, else as reads and verify reach it. */
  private crcState(f: FrameHeader): string | undefined {
    const crc = this.checks.knownCrc(f);
    if (crc === undefined) return undefined;
    return crc === f.storedCrc ? 'ok' : `mismatch (computed ${hex(crc, 8)})`;
  }

  structure(): StructNode {
    return structureOf(this.c, this.views, { crc: (f) => this.crcState(f), problem: (f) => this.checks.knownProblem(f) }, this.src.size);
  }

  coverage(): Promise<Coverage> {
    return Promise.resolve(coverageOf(this.c));
  }

  verify(ctx: TaskContext): AsyncIterable<Check> {
    return verifyContainer(this.src, this.c, this.views, this.reader, ctx, (f, x) => this.checks.crc(f, x));
  }

  info(): Record<string, unknown> {
    const { c } = this;
    const h = c.header;
    return {
      preamble: c.preamble.size,
      formatMajor: c.preamble.formatMajor,
      rowCount: h?.rowCount ?? null,
      columnCount: h?.columnCount ?? null,
      fileFlags: h ? fileFlagText(h.fileFlags) : null,
      writer: h ? `${h.writerName} ${h.writerVersion.join('.')}` : null,
      footer: c.footer ? 'ok' : c.rawFooter ? 'damaged' : 'missing',
      schemaFingerprint: h ? hexString(h.fingerprint) : null,
      columns: this.views.map((v) => ({
        id: v.column.id,
        name: v.column.name,
        type: v.column.type,
        nullable: v.column.nullable,
        chain: v.column.stages.map((s) => ({ codec: s.codec, params: hexString(s.params) })),
        rows: v.column.rowCount,
        chunks: v.column.chunks.length,
        decodable: !v.undecodable,
        note: v.undecodable,
      })),
      frames: c.frames.map((f) => ({
        offset: f.offset,
        type: f.type,
        typeName: frameTypeName(f.type),
        version: f.version,
        flags: f.flags,
        payloadLength: f.payloadLength,
        crcStored: f.storedCrc,
        crcOk: this.checks.knownCrc(f) === undefined ? null : this.checks.knownCrc(f) === f.storedCrc,
      })),
    };
  }
}
