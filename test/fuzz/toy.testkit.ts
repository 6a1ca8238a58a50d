import { reportDamage } from '../../src/core/integrity.js';
import type { ByteSink, FormatDocument, TaskContext } from '../../src/core/model.js';
import type { Opener } from '../helpers/integrity.js';

/**
 * A toy format, so the oracle is tested apart from any family's work in progress: a payload and
 * one last byte, the payload's sum mod 256, which covers every byte. `cat raw` and the `hex`
 * conversion write the payload. The honest reader checks the sum first, as issue 17 asks; the
 * leaky one does not, like the xorb `cat` the issue found.
 */
function toyDoc(bytes: Uint8Array, opts: { checks: boolean; coverage?: boolean }): FormatDocument {
  const payload = bytes.subarray(0, bytes.length - 1);
  const checked = (ctx: TaskContext) => {
    const sum = payload.reduce((a, b) => (a + b) & 0xff, 0);
    if (opts.checks && sum !== bytes[bytes.length - 1])
      reportDamage(ctx, { unit: 'payload', detail: 'sum differs from the last byte', range: { offset: 0, length: payload.length } });
    return payload;
  };
  const write = (out: ByteSink, b: Uint8Array) => out.write(b);
  return {
    format: 'xorb',
    title: 'toy',
    summary: [],
    warnings: [],
    structure: () => ({ label: 'toy' }),
    tables: [],
    verify: async function* () {},
    converters: [
      {
        id: 'hex',
        label: 'hex',
        extension: '.hex',
        output: 'file',
        async run(target, ctx) {
          await write(await target.file(), new TextEncoder().encode(Buffer.from(checked(ctx)).toString('hex')));
          return { summary: 'hex' };
        },
      },
    ],
    cat: { formats: ['raw'], run: (_f, _r, out, ctx) => write(out, checked(ctx)) },
    info: () => ({}),
    coverage: async () => ({
      parts: [{ part: 'payload and sum', check: opts.coverage === false ? null : 'sum byte', ranges: [{ offset: 0, length: bytes.length }] }],
    }),
  };
}

export const toy =
  (opts: { checks: boolean; coverage?: boolean }): Opener =>
  async (bytes) =>
    toyDoc(bytes, opts);

/** Payload "binlens" and its sum, worked out by hand: 98+105+110+108+101+110+115 = 747 = 0x2eb → 0xeb. */
export const TOY_FILE = Uint8Array.from([...Buffer.from('binlens'), 0xeb]);
