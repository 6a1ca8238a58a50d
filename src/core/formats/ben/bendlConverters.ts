import { damageFrom } from '../../integrity.js';
import { plural, range } from '../../describe.js';
import { FormatError } from '../../errors.js';
import { scanRange } from '../../io/scan.js';
import type { Converter, TaskContext } from '../../model.js';
import { ASSET_FLAG_CHECKSUM, MAX_ASSET_BYTES, checkAssetCrc, readAsset } from './bendl.js';
import type { Bundle } from './bendlParts.js';
import type { AssetInput } from './bendlWrite.js';
import { reportError } from './salvage.js';

/**
 * Every asset in stored form, for a rewrite or a recovery: one that cannot be located or
 * whose CRC32C fails is reported (a strict run stops; a salvage, Recover, leaves it out).
 */
export async function keptAssets(b: Bundle, ctx: TaskContext): Promise<AssetInput[]> {
  b.checkHeader(ctx);
  if (b.directoryError) {
    reportError(ctx, b.directoryError, (d) => damageFrom('directory', d, { range: range(b.header.directoryOffset, b.header.directoryLength) }));
    return [];
  }
  const out: AssetInput[] = [];
  for (const e of b.directory?.entries ?? []) {
    if (e.payloadLength > MAX_ASSET_BYTES)
      throw new FormatError('limit', `asset ${e.name} has ${e.payloadLength} bytes; at most ${MAX_ASSET_BYTES} are carried into a new bundle`, {
        offset: e.payloadOffset,
        field: `asset ${e.name}`,
      });
    const stored = await b.src.read(e.payloadOffset, e.payloadLength);
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

/** The bundle's own conversions; Recover is `rewrite` (the 'bendl' conversion) in the stream's own format. */
export function bundleConverters(b: Bundle, rewrite: Converter | undefined): Converter[] {
  const h = b.header;
  const s = b.stream;
  const ext = h.assignmentFormat === 2 ? '.xben' : '.ben';
  const out: Converter[] = [
    {
      id: 'stream',
      label: `The embedded stream, byte for byte (${ext})`,
      extension: ext,
      output: 'file',
      run: async (target, ctx) => {
        b.checkHeader(ctx);
        const d = await b.streamDamage(ctx);
        const sink = await target.file();
        if (d) {
          // The stream is one unit here: salvage leaves all of it out.
          reportError(ctx, new FormatError('checksum', d.detail, { offset: d.offset, field: 'stream' }), () => d);
          return { summary: 'stream left out: its CRC32C fails' };
        }
        const pieces: Promise<void>[] = [];
        await scanRange(b.src, s.offset, s.length, ctx, (p) => void pieces.push(sink.write(p.slice())), 'stream');
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
        b.checkHeader(ctx);
        // A directory that does not read holds assets that cannot be located: not "no assets".
        if (b.directoryError) throw b.directoryError;
        let written = 0;
        for (const e of b.directory?.entries ?? []) {
          let bytes: Uint8Array;
          try {
            bytes = await readAsset(b.src, e);
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
  const variant = b.plans?.variant ?? 'standard';
  const broken = h.finalized !== 1 || b.streamError !== undefined || b.benStream?.index.known.error !== undefined;
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
