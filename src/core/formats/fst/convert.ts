import { damageFrom, reportDamage } from '../../integrity.js';
import type { Converter, TaskContext } from '../../model.js';
import type { FstChecksum } from './checksum.js';
import { FstBuilder, type WriteVersion } from './builder.js';
import { writeDot } from './inspect.js';
import type { FstReader } from './reader.js';
import { checkedKeyStream } from './checkedStream.js';
import { writeKeysAsText } from './textOut.js';
import { yieldToEventLoop } from '../../io/scan.js';
import { throwIfAborted } from '../../errors.js';

/**
 * What an fst converts to: its keys and values as TSV (the `binlens cat` format, which the
 * TSV importer reads back to the same bytes) or JSON lines, the same keys rewritten in another
 * format version (v1 for vellum, v3 for a checksum), and the automaton as Graphviz `dot`.
 */
export function fstConverters(reader: FstReader, isSet: () => Promise<boolean>, checksum: FstChecksum): Converter[] {
  const text = (id: 'tsv' | 'jsonl', label: string, extension: string): Converter => ({
    id,
    label,
    extension,
    output: 'file',
    async run(target, ctx) {
      await checksum.require(ctx);
      const sink = await target.file();
      const values = id === 'tsv' || !(await isSet());
      const n = await writeKeysAsText(reader, id, { values }, sink, ctx);
      return { summary: `${n} keys` };
    },
  });
  return [
    text('tsv', 'TSV (KEY<TAB>VALUE, keys escaped as binlens cat prints them)', '.tsv'),
    text('jsonl', 'JSON lines ({"key","value"}; non-UTF-8 keys as "keyHex")', '.jsonl'),
    {
      id: 'fst',
      label: 'FST in another format version (3: fst 0.4; 1: vellum, fst 0.2)',
      extension: '.fst',
      output: 'file',
      options: [
        {
          key: 'version',
          label: 'Format version',
          type: 'choice',
          default: reader.version === 3 ? '1' : '3',
          choices: [
            { value: '3', label: '3: fst 0.4 (with checksum)' },
            { value: '2', label: '2: fst 0.3' },
            { value: '1', label: '1: fst 0.2 and vellum' },
          ],
        },
      ],
      async run(target, ctx, options) {
        const version = Number(options.version ?? 3) as WriteVersion;
        await checksum.require(ctx);
        const sink = await target.file();
        const n = await rewrite(reader, version, (b) => sink.write(b), ctx);
        return { summary: `fst v${version} with ${n} keys` };
      },
    },
    {
      id: 'dot',
      label: 'Graphviz dot (as fst dot writes it)',
      extension: '.dot',
      output: 'file',
      async run(target, ctx) {
        await checksum.require(ctx);
        const sink = await target.file();
        const enc = new TextEncoder();
        const n = await writeDot(
          reader,
          (t) => sink.write(enc.encode(t)),
          ctx.signal,
          ctx.integrity?.salvage ? (e, addr) => reportDamage(ctx, damageFrom(`state @${addr}`, e)) : undefined,
        );
        return { summary: `${n} states` };
      },
    },
  ];
}

/** Streams every key into a builder of another version: the same keys and values, new bytes. */
export async function rewrite(reader: FstReader, version: WriteVersion, write: (b: Uint8Array) => Promise<void>, ctx: TaskContext): Promise<number> {
  const builder = new FstBuilder(version);
  const stream = checkedKeyStream(reader, ctx, () => builder.count);
  for (;;) {
    throwIfAborted(ctx.signal);
    let slice = 0;
    const done = await stream.run((key, len, hi, lo) => {
      builder.insert(key.slice(0, len), (BigInt(hi) << 32n) | BigInt(lo));
      return ++slice < 16384;
    }, ctx.signal);
    const bytes = builder.takeBytes();
    if (bytes.length) await write(bytes);
    if (done) break;
    ctx.progress?.({ done: builder.count, total: Number(reader.keyCount), message: 'keys' });
    await yieldToEventLoop();
  }
  await write(builder.finish());
  return builder.count;
}
