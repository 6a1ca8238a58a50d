import { field, hex, info, leaf, pass, range, fail, warn } from '../../describe.js';
import type { ByteSource } from '../../io/byteSource.js';
import { scanRange } from '../../io/scan.js';
import { crc32c } from '../../codecs/crc32c.js';
import type { Check, Field, FormatDocument, OpenContext, StructNode, TaskContext } from '../../model.js';
import { CHECKSUM_BYTES, FOOTER_BYTES, HEADER_BYTES, NODES_START, type FstLayout, maskChecksum, readLayout, rootProblem } from './header.js';

export async function openFst(src: ByteSource, _ctx: OpenContext): Promise<FormatDocument> {
  return new FstDocument(src, await readLayout(src));
}

const PRODUCERS: Record<string, string> = {
  '1': 'fst 0.1–0.2 or vellum',
  '2': 'fst 0.3',
  '3': 'fst 0.4',
};

class FstDocument implements FormatDocument {
  readonly format = 'fst' as const;
  readonly title: string;
  readonly summary: readonly Field[];
  readonly warnings: readonly Check[];
  readonly tables = [];
  readonly converters = [];

  constructor(
    private readonly src: ByteSource,
    private readonly layout: FstLayout,
  ) {
    const { header, footer } = layout;
    this.title = `FST format version ${header.version}`;
    const root = rootProblem(layout);
    this.warnings = root ? [{ name: 'root address', status: root.severity === 'error' ? 'fail' : 'warn', detail: root.detail, offset: footer.offset + 8 }] : [];
    this.summary = [
      field('format version', header.version, range(0, 8), { display: `${header.version} (${PRODUCERS[String(header.version)]})` }),
      field('fst type', header.fstType, range(8, 8), { note: header.fstType === 0n ? undefined : 'non-zero user tag' }),
      field('keys (footer)', footer.keyCount, range(footer.offset, 8)),
      field('root address', footer.rootAddress, range(footer.offset + 8, 8), {
        display: footer.rootAddress === 0n ? '0 (EMPTY: only the empty key)' : `${footer.rootAddress} (${hex(footer.rootAddress)})`,
        mark: root?.severity,
        note: root?.detail,
      }),
      field('node bytes', footer.offset - NODES_START, range(NODES_START, footer.offset - NODES_START)),
      field('checksum', layout.storedChecksum ?? null, this.checksumRange(), {
        display: layout.storedChecksum === undefined ? 'none in this format version (unverifiable)' : `masked CRC-32C ${hex(layout.storedChecksum, 8)}`,
      }),
    ];
  }

  private checksumRange() {
    return this.layout.storedChecksum === undefined ? undefined : range(this.layout.size - CHECKSUM_BYTES, CHECKSUM_BYTES);
  }

  structure(): StructNode {
    const { header, footer, storedChecksum, size } = this.layout;
    const root = rootProblem(this.layout);
    const children: StructNode[] = [
      {
        label: 'header',
        range: range(0, HEADER_BYTES),
        children: [leaf('version', header.version, range(0, 8)), leaf('fst type', header.fstType, range(8, 8))],
      },
      {
        label: 'nodes',
        value: `${footer.offset - NODES_START} bytes, written bottom-up; the root is last`,
        range: range(NODES_START, footer.offset - NODES_START),
      },
      {
        label: 'footer',
        range: range(footer.offset, FOOTER_BYTES),
        children: [
          leaf('key count', footer.keyCount, range(footer.offset, 8)),
          leaf('root address', footer.rootAddress, range(footer.offset + 8, 8), { mark: root?.severity, note: root?.detail }),
        ],
      },
    ];
    if (storedChecksum !== undefined) {
      children.push(leaf('checksum (masked CRC-32C)', hex(storedChecksum, 8), range(size - CHECKSUM_BYTES, CHECKSUM_BYTES)));
    }
    return { label: `fst v${header.version}`, range: range(0, size), children };
  }

  async *verify(ctx: TaskContext): AsyncIterable<Check> {
    const { header, footer, storedChecksum, size } = this.layout;
    yield pass('format version', `version ${header.version} (${PRODUCERS[String(header.version)]})`, 0);
    const root = rootProblem(this.layout);
    if (root === undefined) yield pass('root address', `root ${footer.rootAddress} is the last node byte`, footer.offset + 8);
    else if (root.severity === 'error') yield fail('root address', root.detail, footer.offset + 8, 'root address');
    else yield warn('root address', root.detail, footer.offset + 8);
    if (storedChecksum === undefined) {
      yield info('checksum', `no checksum in format version ${header.version} (unverifiable)`);
      return;
    }
    let crc = 0;
    await scanRange(this.src, 0, size - CHECKSUM_BYTES, ctx, (piece) => (crc = crc32c(piece, crc)), 'checksum');
    const computed = maskChecksum(crc);
    yield computed === storedChecksum
      ? pass('checksum', `masked CRC-32C ${hex(computed, 8)} matches`, size - CHECKSUM_BYTES)
      : fail('checksum', `stored ${hex(storedChecksum, 8)}, computed ${hex(computed, 8)}`, size - CHECKSUM_BYTES, 'checksum');
  }

  info(): Record<string, unknown> {
    const { header, footer, storedChecksum, size } = this.layout;
    return {
      version: header.version,
      fstType: header.fstType,
      keyCount: footer.keyCount,
      rootAddress: footer.rootAddress,
      checksum: storedChecksum === undefined ? 'absent' : 'present',
      storedChecksum,
      nodeBytes: footer.offset - NODES_START,
      size,
    };
  }
}
