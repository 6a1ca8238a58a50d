import { FormatError } from '../../errors.js';
import { once } from '../../lazy.js';
import type { ByteSource } from '../../io/byteSource.js';
import type { ByteSink, Converter, ConvertReport, Importer, OptionSpec, OptionValues, OutputTarget, TaskContext } from '../../model.js';
import { type AssetInput, assetType, writeBundle } from './bendlWrite.js';
import { MAX_PRESET } from '../../codecs/xz/encode.js';
import type { Variant } from './model.js';
import { VARIANT_NAMES } from './model.js';
import { type SampleRun, selectSamples, type WriteReport, writeJsonlSamples, writeStream } from './pipeline.js';
import { parseSelection } from './select.js';
import { plural } from '../../describe.js';
import { choiceParam } from '../../tableSpec.js';
import {
  Levers,
  appliesMap,
  directionOption,
  graphOption,
  permutationOption,
  plainLeverOptions,
  readOptionFile,
  relabelOption,
  reorderOption,
  type SizeSpec,
} from './levers.js';

/**
 * Where converters get samples from: all of them from the start (a document's stream, a JSONL
 * file). A document's source reports damage through the context (salvage.ts).
 */
export type SampleSource = (ctx: TaskContext) => AsyncIterable<SampleRun>;

const variantOption = (dflt: Variant): OptionSpec => ({
  ...choiceParam(
    'variant',
    'Variant',
    VARIANT_NAMES,
    'Standard: a frame per sample; MkvChain: repeats folded into counts; TwoDelta: pair-swap deltas between snapshots',
  ),
  default: dflt,
});

export const presetOption: OptionSpec = {
  key: 'preset',
  label: 'xz preset',
  type: 'number',
  min: 0,
  max: MAX_PRESET,
  default: MAX_PRESET,
  description: `0 (fast) … ${MAX_PRESET} (smallest); the reference writes 9, which needs more memory than the WASM encoder has`,
};

export const selectOption: OptionSpec = {
  key: 'select',
  label: 'Samples',
  type: 'string',
  default: 'all',
  description: 'all, every K [from S], START..END (0-based, end excluded) or a list 0,5,17',
};

const bundleOptions: OptionSpec[] = [
  choiceParam('stream', 'Stream format', { ben: 'BEN (random access)', xben: 'XBEN (xz, smallest)' }),
  graphOption,
  { key: 'metadata', label: 'metadata.json', type: 'path', description: 'run metadata (any JSON)' },
  permutationOption,
  { key: 'assets', label: 'Custom assets', type: 'string', default: '', description: 'more files to bundle, comma-separated paths' },
];

function str(o: OptionValues, key: string, dflt = ''): string {
  const v = o[key];
  return v === undefined ? dflt : String(v);
}

function variantOf(o: OptionValues, dflt: Variant): Variant {
  const v = str(o, 'variant', dflt);
  if (v !== 'standard' && v !== 'mkv_chain' && v !== 'two_delta') throw new FormatError('corrupt', `unknown variant ${v}`, { field: 'variant' });
  return v;
}

function presetOf(o: OptionValues): number {
  return Number(o.preset ?? MAX_PRESET);
}

function report(what: string, r: { samples: number; bytes: number }, note?: string): ConvertReport {
  return { summary: `${plural(r.samples, 'sample')} → ${r.bytes.toLocaleString('en-US')} bytes of ${what}${note ? `; ${note}` : ''}` };
}

/** The options' files as bundle assets, read through the platform. */
async function assetsFromOptions(o: OptionValues, ctx: TaskContext): Promise<AssetInput[]> {
  const out: AssetInput[] = [];
  const add = async (path: string, name: string) => {
    const bytes = await readOptionFile(ctx, path, name);
    const json = name.endsWith('.json');
    if (json) {
      try {
        JSON.parse(new TextDecoder().decode(bytes));
      } catch {
        throw new FormatError('corrupt', `${path} is not valid JSON`, { field: name });
      }
    }
    out.push({ name, type: assetType(name), json, bytes });
  };
  // Python's writer order: graph, permutation map, metadata, then custom assets. A map the
  // conversion applies is not stored as it is (levers.ts stores the map of what was done).
  if (str(o, 'graph')) await add(str(o, 'graph'), 'graph.json');
  if (str(o, 'permutation') && !appliesMap(o)) await add(str(o, 'permutation'), 'node_permutation_map.json');
  if (str(o, 'metadata')) await add(str(o, 'metadata'), 'metadata.json');
  for (const p of str(o, 'assets')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean))
    await add(p, p.split(/[\\/]/).pop()!);
  return out;
}

/** Where a stream's conversions read: its samples, and the assets a bundle passes on when it is rewritten. */
interface StreamInput {
  readonly source: SampleSource;
  readonly extraAssets?: (ctx: TaskContext) => Promise<AssetInput[]>;
}

/** The samples the `select` option names, read from the start. */
function selected(source: SampleSource, o: OptionValues, ctx: TaskContext): AsyncIterable<SampleRun> {
  return selectSamples(source(ctx), parseSelection(str(o, 'select', 'all')));
}

/**
 * The conversions every stream offers: JSONL, BEN and XBEN in any variant, and a new bundle;
 * each can subsample. `extraAssets` are assets a bundle passes on when it is rewritten.
 */
export function streamConverters(source: SampleSource, variant: Variant, extraAssets?: (ctx: TaskContext) => Promise<AssetInput[]>): Converter[] {
  const input: StreamInput = { source, extraAssets };
  const renumber = (o: OptionValues) => parseSelection(str(o, 'select', 'all')).kind !== 'all';
  return [
    {
      id: 'jsonl',
      label: 'JSONL (one plan per line, as the reference decoder prints)',
      extension: '.jsonl',
      output: 'file',
      options: [selectOption, ...plainLeverOptions],
      async run(target, ctx, o) {
        const { r, note } = await plainOutput(input, o, ctx, target, { variant, preset: MAX_PRESET }, (runs, sink) =>
          writeJsonlSamples(runs, sink, renumber(o), ctx),
        );
        return report('JSONL', r, note);
      },
    },
    {
      id: 'ben',
      label: 'BEN stream',
      extension: '.ben',
      output: 'file',
      options: [variantOption(variant), selectOption, ...plainLeverOptions],
      async run(target, ctx, o) {
        const v = variantOf(o, variant);
        const { r, note } = await plainOutput(input, o, ctx, target, { variant: v, preset: presetOf(o), output: 'ben' }, (runs, sink) =>
          writeStream(runs, sink, { format: 'ben', variant: v }, ctx),
        );
        return report('BEN', r, note);
      },
    },
    {
      id: 'xben',
      label: 'XBEN (xz-compressed stream)',
      extension: '.xben',
      output: 'file',
      options: [variantOption(variant), presetOption, selectOption, ...plainLeverOptions],
      async run(target, ctx, o) {
        const v = variantOf(o, variant);
        const { r, note } = await plainOutput(input, o, ctx, target, { variant: v, preset: presetOf(o), output: 'xben' }, (runs, sink) =>
          writeStream(runs, sink, { format: 'xben', variant: v, preset: presetOf(o) }, ctx),
        );
        return report('XBEN', r, note);
      },
    },
    bundleConverter(input, variant),
  ];
}

/**
 * A plain output: the selected samples through the levers the options name (levers.ts), the
 * files they leave beside the output, and the line that says what each lever saved.
 */
async function plainOutput(
  input: StreamInput,
  o: OptionValues,
  ctx: TaskContext,
  target: OutputTarget,
  sizes: SizeSpec,
  write: (runs: AsyncIterable<SampleRun>, sink: ByteSink) => Promise<WriteReport>,
): Promise<{ r: WriteReport; note: string }> {
  const levers = await Levers.resolve(o, ctx, input.extraAssets, 'plain');
  // The map and the graph are known before the first sample: a host that cannot write them refuses now.
  const beside = await levers.writeBeside(target);
  const sink = await target.file();
  const { report, note } = await levers.run(
    (c) => selected(input.source, o, c),
    ctx,
    sizes,
    (runs) => write(runs, sink),
  );
  return { r: report, note: [note, ...(beside.length ? [`beside it: ${beside.join(', ')}`] : [])].filter(Boolean).join('; ') };
}

/** A new bundle: the stream (through the levers) with the graph, map, metadata and assets the options name or the source keeps. */
function bundleConverter(input: StreamInput, variant: Variant): Converter {
  const { extraAssets } = input;
  return {
    id: 'bendl',
    label: 'BENDL bundle (stream with graph, metadata and assets)',
    extension: '.bendl',
    output: 'file',
    options: [...bundleOptions, variantOption(variant), presetOption, selectOption, relabelOption, reorderOption, directionOption],
    async run(target, ctx, o) {
      const format = str(o, 'stream', 'ben') === 'xben' ? 'xben' : 'ben';
      const v = variantOf(o, variant);
      // Read once: the levers take the bundle's graph and map from them, the new bundle the rest.
      const keptOnce = extraAssets && once(() => extraAssets(ctx));
      const levers = await Levers.resolve(o, ctx, keptOnce, 'bundle');
      const chosen = await assetsFromOptions(o, ctx);
      const kept = (await keptOnce?.()) ?? [];
      const assets = levers.bundleAssets([...kept.filter((k) => !chosen.some((c) => c.name === k.name)), ...chosen]);
      let note: string | undefined;
      const r = await writeBundle(await target.file(), format, assets, async (out) => {
        const w = await levers.run(
          (c) => selected(input.source, o, c),
          ctx,
          { variant: v, preset: presetOf(o), output: format },
          (runs) => writeStream(runs, out, { format, variant: v, preset: presetOf(o) }, ctx),
        );
        note = w.note;
        return w.report;
      });
      return {
        summary: `${plural(r.samples, 'sample')}, ${plural(r.assets, 'asset')}, ${r.bytes.toLocaleString('en-US')} bytes (${format.toUpperCase()} stream)${note ? `; ${note}` : ''}`,
      };
    },
  };
}

/** JSONL → BEN / XBEN / BENDL: the stream conversions, each run over the JSONL file it is given. */
export function jsonlImporters(read: (src: ByteSource, signal?: AbortSignal) => AsyncIterable<SampleRun>): Importer[] {
  const over = (src: ByteSource) => streamConverters((ctx) => read(src, ctx.signal), 'mkv_chain');
  // The specs (ids, labels, options) do not depend on the source; `run` binds it.
  return over(EMPTY)
    .filter((c) => c.id !== 'jsonl')
    .map((c) => ({
      id: c.id,
      label: `${c.label} from JSONL`,
      extension: c.extension,
      output: c.output,
      options: c.options,
      accepts: ['.jsonl'],
      run: (src, target, ctx, o) =>
        over(src)
          .find((x) => x.id === c.id)!
          .run(target, ctx, o),
    }));
}

const EMPTY: ByteSource = { size: 0, read: async () => new Uint8Array(0) };
