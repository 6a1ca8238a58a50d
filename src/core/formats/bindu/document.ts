import { fail, failFrom, field, hex, hexString, range, warn } from '../../describe.js';
import type { ByteSource } from '../../io/byteSource.js';
import type { Check, Field, FormatDocument, OpenContext, Panel } from '../../model.js';
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
import { binduMemory } from './memory.js';

/** CRCs of files up to this size are checked when they open, so the frame list shows them. */
const CHECK_CRCS_AT_OPEN = 8 << 20;

export async function openBindu(src: ByteSource, ctx: OpenContext): Promise<FormatDocument> {
  const c = await readContainer(src, ctx.signal);
  const crcs = new Map<number, number>();
  if (src.size <= CHECK_CRCS_AT_OPEN) for (const f of c.frames) crcs.set(f.offset, await frameCrc(src, f));
  return binduDocument(src, c, crcs);
}

/** A bindu's views and read paths, over its frame list and the checks they share (FrameChecks). */
function binduDocument(src: ByteSource, c: Container, crcs: ReadonlyMap<number, number>): FormatDocument {
  const views = columnViews(c);
  const reader = new ChunkReader(src);
  const checks = new FrameChecks(src, c, crcs);
  const readable = { src, c, views, reader, checks };
  const crc = (f: FrameHeader) => crcState(checks, f);
  const doc: FormatDocument = {
    format: 'bindu',
    title: 'Bindu open container v1',
    summary: summaryFields(src, c),
    warnings: openWarnings(c, crcs, views),
    tables: [rowsTable(views, reader, checks), framesTable(c, crc), columnsTable(views), chunksTable(views, checks)],
    panels: binduPanels(src, c, views, checks),
    converters: exportConverters(readable),
    cat: catSpec(readable),
    structure: () => structureOf(c, views, { crc, problem: (f) => checks.knownProblem(f) }, src.size),
    coverage: () => Promise.resolve(coverageOf(c)),
    verify: (ctx) => verifyContainer(src, c, views, reader, ctx, (f, x) => checks.crc(f, x)),
    info: () => binduInfo(c, views, checks),
    memory: binduMemory(reader),
  };
  // The diff reads the rows through the document's `cat`.
  return Object.assign(doc, {
    diff: new BinduDiff(
      doc,
      views.map((v) => v.column),
    ),
  });
}

function summaryFields(src: ByteSource, c: Container): Field[] {
  const h = c.header;
  const { preamble, footer, rawFooter } = c;
  return [
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
}

function openWarnings(c: Container, crcs: ReadonlyMap<number, number>, views: readonly ColumnView[]): Check[] {
  const { preamble, footer, rawFooter } = c;
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
  for (const v of views) if (v.undecodable) warnings.push(warn('column', `"${v.column.name}": ${v.undecodable}`, v.column.frame.offset));
  return warnings;
}

function binduPanels(src: ByteSource, c: Container, views: readonly ColumnView[], checks: FrameChecks): Panel[] {
  const panels: Panel[] = [pipelinePanel(views)];
  if (c.blooms.length) panels.push(bloomPanel(c, views, checks));
  if (c.sorted.some((s) => s.ranges)) panels.push(sortedPanel(c, views, checks));
  panels.push(integrityPanel(() => verifyIntegrity(src, c, {})));
  if (c.merkle) panels.push(merklePanel(src, c));
  panels.push(metadataPanel(c, checks));
  return panels;
}

/** The frame's CRC as far as checks have run: at open up to 8 MiB, else as reads and verify reach it. */
function crcState(checks: FrameChecks, f: FrameHeader): string | undefined {
  const crc = checks.knownCrc(f);
  if (crc === undefined) return undefined;
  return crc === f.storedCrc ? 'ok' : `mismatch (computed ${hex(crc, 8)})`;
}

function binduInfo(c: Container, views: readonly ColumnView[], checks: FrameChecks): Record<string, unknown> {
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
    columns: views.map((v) => ({
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
      crcOk: checks.knownCrc(f) === undefined ? null : checks.knownCrc(f) === f.storedCrc,
    })),
  };
}
