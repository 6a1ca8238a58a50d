import { errorNode, fail, failFrom, field, hex, hexBytes, leaf, pass, plural, range, warn } from '../../describe.js';
import { FormatError } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import type { Check, Field, FormatDocument, OpenContext, Row, StructNode, Table, TaskContext } from '../../model.js';
import { frameCrc, readFooter, readFrameHeader, readHeaderFrame, readPreamble, walkFrames, type FrameWalk } from './frames.js';
import {
  CHECKSUM_ALGOS,
  FILE_FLAG_NAMES,
  FLAG_COMPRESSED,
  FLAG_EXTERNAL_REF,
  FLAG_SKIPPABLE,
  FOOTER_FRAME_BYTES,
  FRAME_HEADER_BYTES,
  type Footer,
  type FrameHeader,
  FrameType,
  type HeaderFrame,
  type Preamble,
  RESERVED_FLAGS,
  frameLength,
  frameTypeName,
} from './model.js';

/** CRCs of files up to this size are checked when they open, so the frame list shows them. */
const CHECK_CRCS_AT_OPEN = 8 << 20;

export async function openBindu(src: ByteSource, ctx: OpenContext): Promise<FormatDocument> {
  const preamble = await readPreamble(src);
  const footer = await readFooter(src);
  const footerUsable = footer !== undefined && footer.crcOk && footer.footerOffset === footer.offset;
  const walk = await walkFrames(src, preamble.size, footerUsable ? footer.offset : src.size, ctx.signal);
  const all = footerUsable ? [...walk.frames, await readFrameHeader(src, footer.offset)] : walk.frames;
  const crcs = new Map<number, number>();
  if (src.size <= CHECK_CRCS_AT_OPEN) for (const f of all) crcs.set(f.offset, await frameCrc(src, f));
  const headerFrame = walk.frames.find((f) => f.type === FrameType.Header);
  let header: HeaderFrame | undefined;
  let headerError: FormatError | undefined;
  if (headerFrame) {
    try {
      header = await readHeaderFrame(src, headerFrame);
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      headerError = e;
    }
  }
  return new BinduDocument(src, preamble, footerUsable ? footer : undefined, footer, { ...walk, frames: all }, crcs, header, headerError);
}

function flagText(flags: number): string {
  const names = [flags & FLAG_SKIPPABLE ? 'skippable' : '', flags & FLAG_COMPRESSED ? 'compressed' : '', flags & FLAG_EXTERNAL_REF ? 'external-ref' : ''].filter(Boolean);
  if (flags & RESERVED_FLAGS) names.push(`reserved bits ${hex(flags & RESERVED_FLAGS)}`);
  return names.join(', ') || 'none';
}

function fileFlagText(flags: bigint): string {
  return FILE_FLAG_NAMES.filter((_, i) => (flags >> BigInt(i)) & 1n).join(', ') || 'none';
}

/** A frame this reader cannot interpret: unknown type, or reserved flag bits set (spec C.2). */
function notUnderstood(f: FrameHeader): boolean {
  return (f.type > FrameType.Footer && f.type !== FrameType.UserMeta) || (f.flags & RESERVED_FLAGS) !== 0;
}

class BinduDocument implements FormatDocument {
  readonly format = 'bindu' as const;
  readonly title: string;
  readonly summary: readonly Field[];
  readonly warnings: readonly Check[];
  readonly tables: readonly Table[];
  readonly converters = [];

  constructor(
    private readonly src: ByteSource,
    private readonly preamble: Preamble,
    private readonly footer: Footer | undefined,
    private readonly rawFooter: Footer | undefined,
    private readonly walk: FrameWalk,
    private readonly crcs: Map<number, number>,
    private readonly header: HeaderFrame | undefined,
    headerError: FormatError | undefined,
  ) {
    this.title = 'Bindu open container v1';
    const h = header;
    this.summary = [
      field('preamble', preamble.size, range(0, preamble.size), {
        display: preamble.size === 10 ? `10 bytes, format major ${preamble.formatMajor}` : `8-byte variant, version ${preamble.formatMajor}`,
        mark: preamble.size === 8 ? 'warn' : undefined,
      }),
      field('frames', walk.frames.length, undefined, { mark: walk.stop ? 'error' : undefined, note: walk.stop?.message }),
      field('rows', h ? h.rowCount : null, undefined, { display: h ? undefined : 'unknown (no Header frame)' }),
      field('columns', h ? h.columnCount : null),
      field('file flags', h ? h.fileFlags : null, undefined, { display: h ? fileFlagText(h.fileFlags) : undefined }),
      field('schema fingerprint', h ? hexBytes(h.fingerprint) : null, undefined, { display: h && h.fingerprint.every((b) => b === 0) ? 'none (schemaless)' : undefined }),
      field('writer', h ? `${h.writerName} ${h.writerVersion.join('.')}` : null),
      field('footer', footer ? 'ok' : rawFooter ? 'damaged' : 'missing', range(Math.max(0, src.size - FOOTER_FRAME_BYTES), Math.min(src.size, FOOTER_FRAME_BYTES)), {
        display: footer ? `ok, file checksum ${CHECKSUM_ALGOS[footer.checksumAlgo] ?? footer.checksumAlgo}` : rawFooter ? 'damaged: frames found by a front-to-back scan' : 'missing: frames found by a front-to-back scan',
        mark: footer ? undefined : 'warn',
      }),
    ];
    const warnings: Check[] = [];
    if (preamble.size === 8) warnings.push(warn('preamble', '8-byte preamble variant ("BINDU\\0" + u16 version)', 0));
    if (preamble.formatMajor > 1) warnings.push(warn('preamble', `format major ${preamble.formatMajor} is newer than 1: read best-effort`, 6));
    if (!footer) warnings.push(warn('footer', rawFooter ? 'footer damaged (CRC or offset): scanned front to back' : 'no footer: scanned front to back'));
    if (walk.stop) warnings.push(failFrom('frames', walk.stop));
    if (headerError) warnings.push(failFrom('Header frame', headerError));
    for (const f of walk.frames) {
      const crc = crcs.get(f.offset);
      if (crc !== undefined && crc !== f.storedCrc) warnings.push(fail('frame CRC', `${frameTypeName(f.type)} frame: stored ${hex(f.storedCrc, 8)}, computed ${hex(crc, 8)}`, f.offset));
      if (notUnderstood(f) && !(f.flags & FLAG_SKIPPABLE)) warnings.push(fail('critical frame', `${frameTypeName(f.type)} frame is not skippable and not understood`, f.offset));
    }
    this.warnings = warnings;
    this.tables = [this.frameTable()];
  }

  private crcState(f: FrameHeader): string {
    const crc = this.crcs.get(f.offset);
    if (crc === undefined) return 'not checked';
    return crc === f.storedCrc ? 'ok' : `mismatch (computed ${hex(crc, 8)})`;
  }

  private frameTable(): Table {
    const frames = this.walk.frames;
    return {
      id: 'frames',
      title: 'Frames',
      columns: [
        { key: 'offset', title: 'offset', type: 'number' },
        { key: 'type', title: 'type', type: 'text' },
        { key: 'version', title: 'version', type: 'number' },
        { key: 'flags', title: 'flags', type: 'text' },
        { key: 'length', title: 'payload bytes', type: 'number' },
        { key: 'crc', title: 'CRC', type: 'text' },
      ],
      rowCount: () => ({ known: frames.length, complete: true }),
      page: (from, count) =>
        Promise.resolve(
          frames.slice(from, from + count).map((f): Row => {
            const crc = this.crcs.get(f.offset);
            return {
              cells: [f.offset, frameTypeName(f.type), f.version, flagText(f.flags), f.payloadLength, this.crcState(f)],
              range: range(f.offset, frameLength(f)),
              mark: crc !== undefined && crc !== f.storedCrc ? 'error' : notUnderstood(f) ? 'warn' : undefined,
            };
          }),
        ),
    };
  }

  structure(): StructNode {
    const p = this.preamble;
    const children: StructNode[] = [
      {
        label: 'preamble',
        range: range(0, p.size),
        mark: p.size === 8 ? 'warn' : undefined,
        note: p.size === 8 ? '8-byte variant' : undefined,
        children: [leaf('magic', 'BINDU\\0', range(0, 6)), leaf(p.size === 10 ? 'format major' : 'version (u16)', p.formatMajor, range(6, p.size - 6))],
      },
    ];
    for (const f of this.walk.frames) children.push(this.frameNode(f));
    if (this.walk.stop) children.push(errorNode(this.walk.stop, 'frame walk stopped'));
    return { label: this.title, range: range(0, this.src.size), children };
  }

  private frameNode(f: FrameHeader): StructNode {
    const crc = this.crcs.get(f.offset);
    const bad = crc !== undefined && crc !== f.storedCrc;
    const children: StructNode[] = [
      leaf('type', `${hex(f.type, 2)} ${frameTypeName(f.type)}`, range(f.offset, 1)),
      leaf('version', f.version, range(f.offset + 1, 1)),
      leaf('flags', `${f.flags} (${flagText(f.flags)})`, range(f.offset + 2, 2)),
      leaf('payload length', f.payloadLength, range(f.offset + 4, 8)),
      leaf('payload', `${f.payloadLength} bytes`, range(f.offset + FRAME_HEADER_BYTES, f.payloadLength)),
      leaf('CRC-32C', `${hex(f.storedCrc, 8)} (${this.crcState(f)})`, range(f.offset + FRAME_HEADER_BYTES + f.payloadLength, 4), bad ? { mark: 'error' } : {}),
    ];
    if (f.type === FrameType.Footer && this.footer) children.push(...this.footerFields(this.footer));
    return {
      label: `${frameTypeName(f.type)} frame`,
      value: `${f.payloadLength} bytes`,
      range: range(f.offset, frameLength(f)),
      mark: bad ? 'error' : notUnderstood(f) ? 'warn' : undefined,
      note: bad ? 'CRC mismatch' : notUnderstood(f) ? (f.flags & FLAG_SKIPPABLE ? 'unknown, skippable' : 'unknown and critical') : undefined,
      children,
    };
  }

  private footerFields(ft: Footer): StructNode[] {
    const p = ft.offset + FRAME_HEADER_BYTES;
    return [
      leaf('footer version', ft.version, range(p, 4)),
      leaf('footer flags', `${ft.flags}${ft.flags & 1 ? ' sealed' : ''}${ft.flags & 2 ? ' checksum' : ''}`, range(p + 4, 4)),
      leaf('footer offset', ft.footerOffset, range(p + 8, 8)),
      leaf('frame count', ft.frameCount, range(p + 16, 8)),
      leaf('checksum algorithm', CHECKSUM_ALGOS[ft.checksumAlgo] ?? ft.checksumAlgo, range(p + 24, 1)),
      leaf('file checksum', hexBytes(ft.checksum), range(p + 32, 32)),
      leaf('schema fingerprint', hexBytes(ft.fingerprint), range(p + 64, 16)),
      leaf('Merkle root', hexBytes(ft.merkleRoot), range(p + 80, 32)),
      {
        label: 'section table',
        range: range(p + 120, 8 * 24),
        children: ft.sections.map((s, i) => leaf(frameTypeName(s.type), `${s.count} frames, ${s.span} bytes at ${s.firstOffset}`, range(p + 120 + 24 * i, 24))),
      },
      leaf('magic', 'BINDUFTR', range(p + 488, 8)),
    ];
  }

  /** Structural checks: every frame's CRC, critical unknown frames, footer fields and section table. */
  async *verify(ctx: TaskContext): AsyncIterable<Check> {
    if (this.preamble.size === 8) yield warn('preamble', '8-byte preamble variant', 0);
    else yield pass('preamble', `format major ${this.preamble.formatMajor}`, 0);
    if (this.walk.stop) yield failFrom('frames', this.walk.stop);
    let bad = 0;
    for (const f of this.walk.frames) {
      const crc = this.crcs.get(f.offset) ?? (await frameCrc(this.src, f, ctx));
      if (crc !== f.storedCrc) {
        bad++;
        yield fail('frame CRC', `${frameTypeName(f.type)} frame at ${f.offset}: stored ${hex(f.storedCrc, 8)}, computed ${hex(crc, 8)}`, f.offset, 'frame CRC');
      }
      if (notUnderstood(f)) {
        yield f.flags & FLAG_SKIPPABLE
          ? warn('unknown frame', `${frameTypeName(f.type)} frame skipped (skippable)`, f.offset)
          : fail('critical frame', `${frameTypeName(f.type)} frame is not skippable and not understood: a decoder must fail here`, f.offset, 'frame type');
      }
    }
    if (bad === 0) yield pass('frame CRCs', `all ${plural(this.walk.frames.length, 'frame')} match`);
    if (!this.footer) {
      yield this.rawFooter ? fail('footer', 'footer damaged (CRC or footer offset)', this.src.size - FOOTER_FRAME_BYTES, 'footer') : warn('footer', 'no footer (frames scanned front to back)');
      return;
    }
    yield* this.verifyFooter(this.footer);
  }

  private *verifyFooter(ft: Footer): Iterable<Check> {
    yield pass('footer', 'footer frame CRC, magic and offset match', ft.offset);
    const counted = this.walk.frames.length - 1;
    yield ft.frameCount === counted
      ? pass('frame count', `${counted} frames before the footer`, ft.offset + FRAME_HEADER_BYTES + 16)
      : fail('frame count', `footer says ${ft.frameCount} frames, the file holds ${counted}`, ft.offset + FRAME_HEADER_BYTES + 16, 'frame count');
    let bad = false;
    for (const s of ft.sections) {
      const frames = this.walk.frames.filter((f) => f.type === s.type);
      const first = frames[0]?.offset ?? 0;
      const last = frames[frames.length - 1];
      const span = last ? last.offset + frameLength(last) - first : 0;
      if (frames.length !== s.count || first !== s.firstOffset || span !== s.span) {
        bad = true;
        yield fail('section table', `${frameTypeName(s.type)}: footer says ${s.count} frames, ${s.span} bytes at ${s.firstOffset}; the file has ${frames.length}, ${span} bytes at ${first}`, ft.offset, 'section table');
      }
    }
    if (!bad) yield pass('section table', `${ft.sections.length} sections match the frames`);
  }

  info(): Record<string, unknown> {
    const h = this.header;
    return {
      preamble: this.preamble.size,
      formatMajor: this.preamble.formatMajor,
      rowCount: h?.rowCount ?? null,
      columnCount: h?.columnCount ?? null,
      fileFlags: h ? fileFlagText(h.fileFlags) : null,
      writer: h ? `${h.writerName} ${h.writerVersion.join('.')}` : null,
      footer: this.footer ? 'ok' : this.rawFooter ? 'damaged' : 'missing',
      frames: this.walk.frames.map((f) => ({ offset: f.offset, type: f.type, typeName: frameTypeName(f.type), version: f.version, flags: f.flags, payloadLength: f.payloadLength, crcStored: f.storedCrc, crcOk: this.crcs.has(f.offset) ? this.crcs.get(f.offset) === f.storedCrc : null })),
    };
  }
}
