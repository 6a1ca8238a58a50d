import { nativeCodecs } from './codecs/native.js';
import { sha256Stream } from './codecs/sha256.js';
import { hexString } from './describe.js';
import { type DumpOptions, type DumpWrite, markText, oneLine, rangeColumns, writeDumpHead } from './dump.js';
import type { ByteSource } from './io/byteSource.js';
import { scanRange } from './io/scan.js';
import type { FormatDocument, StructNode } from './model.js';
import { isLazy } from './model.js';

/**
 * `binlens dump --brief`: the dump's head (header fields, counts), then one line per top-level
 * section of the structure with its byte range and the SHA-256 of its bytes, instead of every
 * element. Bytes no section claims get lines of their own, so any changed byte changes a line:
 * git textconv shows that two versions differ and where, in time bounded by one read of the file
 * (no frame, key or row is walked; digests stream 1 MiB pieces).
 */
export const BRIEF_DIGEST = 'sha256';

/** A file with more top-level sections than this (bindu: one frame per column) lists the rest as one. */
export const MAX_SECTIONS = 4096;

interface Line {
  readonly offset: number;
  readonly length: number;
  readonly text: string;
}

export async function writeBriefDump(doc: FormatDocument, src: ByteSource, opts: DumpOptions, write: DumpWrite): Promise<void> {
  await writeDumpHead(doc, opts, 'brief', write);
  await write(`\nsections (${BRIEF_DIGEST} of each range's bytes):\n`);
  const lines: Line[] = [];
  for (const node of await sections(doc.structure(), opts.signal)) {
    const range = node.range;
    const label = oneLine(`${node.label}${node.value === undefined ? '' : ` = ${node.value}`}${markText(node.mark, node.note)}`);
    if (range === undefined) {
      await write(`${rangeColumns(undefined)}  ${'-'.padEnd(DIGEST_WIDTH)}  ${label}\n`);
      continue;
    }
    // A damaged file's header may claim bytes past its end: only the bytes that exist are hashed.
    const inFile = Math.max(0, Math.min(range.length, src.size - range.offset));
    const past = inFile < range.length ? `  ! ${range.length - inFile} bytes past the end of the file` : '';
    lines.push({ offset: range.offset, length: range.length, text: `${label}${past}` });
  }
  for (const gap of gaps(lines, src.size)) lines.push({ ...gap, text: '(bytes in no section)' });
  lines.sort((a, b) => a.offset - b.offset || b.length - a.length);
  for (const line of lines) {
    const length = Math.max(0, Math.min(line.length, src.size - line.offset));
    const digest = await digestRange(src, line.offset, length, opts.signal);
    await write(`${rangeColumns(line)}  ${BRIEF_DIGEST}:${digest}  ${line.text}\n`);
  }
}

const DIGEST_WIDTH = BRIEF_DIGEST.length + 1 + 64;

/** The root's children (the root itself when it has none), at most MAX_SECTIONS of a lazy list. */
async function sections(root: StructNode, signal: AbortSignal | undefined): Promise<readonly StructNode[]> {
  const children = root.children;
  if (children === undefined) return [root];
  if (!isLazy(children)) return children.length > 0 ? children : [root];
  const first = await children.load(0, MAX_SECTIONS, signal);
  return first.length > 0 ? first : [root];
}

/** The stretches of [0, size) that no line covers, in order. */
function gaps(lines: readonly Line[], size: number): { offset: number; length: number }[] {
  const sorted = [...lines].sort((a, b) => a.offset - b.offset);
  const out: { offset: number; length: number }[] = [];
  let covered = 0;
  for (const l of sorted) {
    if (l.offset > covered) out.push({ offset: covered, length: Math.min(l.offset, size) - covered });
    covered = Math.max(covered, l.offset + l.length);
    if (covered >= size) break;
  }
  if (covered < size) out.push({ offset: covered, length: size - covered });
  return out.filter((g) => g.length > 0);
}

async function digestRange(src: ByteSource, offset: number, length: number, signal: AbortSignal | undefined): Promise<string> {
  // The host's SHA-256 where it lends one (Node: OpenSSL), else the WebAssembly one.
  const hash = nativeCodecs().sha256?.() ?? (await sha256Stream());
  if (length > 0) await scanRange(src, offset, length, { signal }, (piece) => void hash.update(piece), 'hashing');
  return hexString(hash.digest());
}
