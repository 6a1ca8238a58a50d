import { fail, failFrom, hex, info, pass, plural, warn } from '../../describe.js';
import type { Check, TaskContext } from '../../model.js';
import { HEADER_BYTES } from './bendl.js';
import type { Bundle } from './bendlParts.js';
import { unreferenced } from './bendlTree.js';
import { sampleCountCheck } from './features.js';
import { verifyXz } from './xzView.js';

/** A bundle's checks: header tail and rules, directory, each asset's CRC32C, gaps, then the stream. */
export async function* verifyBundle(b: Bundle, ctx: TaskContext): AsyncIterable<Check> {
  if (b.layout === 'newest') yield pass('header checksum', `CRC32C ${hex((b.tail as { crc: number }).crc, 8)} of the header matches its tail`, HEADER_BYTES);
  else if (b.layout === 'older') yield warn('header checksum', 'absent: older v1 layout (first payload at 64)');
  else yield fail('header checksum', b.tailDetail(), HEADER_BYTES, 'header tail');
  if (b.problems.length === 0) yield pass('header', 'magic, version, offsets, finalized and sample count are consistent');
  for (const p of b.problems) yield failFrom('header', p);
  if (b.directoryError) {
    // Already said as a header problem when the header put the directory past the end.
    if (!b.problems.includes(b.directoryError)) yield failFrom('directory', b.directoryError);
  } else if (b.directory) {
    yield pass(
      'directory',
      `${plural(b.directory.entries.length, 'entry', 'entries')}: names unique, types named, checksum flags consistent`,
      b.directory.offset,
    );
    for (const e of b.directory.entries) {
      if (e.checksum === undefined) {
        yield info(`asset ${e.name}`, 'no checksum stored');
        continue;
      }
      const crc = await b.assetCrc(e, ctx.signal);
      yield crc === e.checksum
        ? pass(`asset ${e.name}`, `CRC32C ${hex(crc, 8)} matches`, e.payloadOffset)
        : fail(`asset ${e.name}`, `stored CRC32C ${hex(e.checksum, 8)}, computed ${hex(crc, 8)}`, e.payloadOffset, 'asset payload');
    }
  } else if (b.header.finalized === 1) yield warn('directory', 'a finalized bundle without a directory');
  for (const gap of unreferenced(b))
    yield info('unreferenced bytes', `${gap.length} bytes nothing refers to (an older directory left by an append, or a crashed write)`, gap.offset);
  yield* verifyStream(b, ctx);
}

async function* verifyStream(b: Bundle, ctx: TaskContext): AsyncIterable<Check> {
  const h = b.header;
  const s = b.stream;
  if (h.finalized !== 1) yield info('stream checksum', 'bundle incomplete (unfinalized): no stream checksum yet');
  else if (!(h.flags & 1)) yield info('stream checksum', 'unavailable (flag clear)');
  else {
    const crc = await b.streamCrc(ctx);
    yield crc === h.streamChecksum
      ? pass('stream checksum', `CRC32C ${hex(crc, 8)} matches`, s.offset)
      : fail('stream checksum', `stored ${hex(h.streamChecksum, 8)}, computed ${hex(crc, 8)}`, s.offset, 'stream');
  }
  if (b.streamError) yield failFrom('stream', b.streamError);
  if (b.xzStream) yield* verifyXz(b.src, b.xzStream);
  if (!b.plans) return;
  const decoded = yield* b.plans.verify(ctx);
  if (h.finalized === 1 && !decoded.error) yield sampleCountCheck(h.sampleCount, decoded.samples);
  else if (h.finalized !== 1) yield info('sample count', `unknown in an unfinalized bundle; ${plural(decoded.samples, 'complete sample')} decode`);
}
