import { convertersOf } from '../../src/core/dump.js';
import { MemorySource } from '../../src/core/io/byteSource.js';
import type { ByteSink, Converter, ConvertReport, FormatDocument, Importer, OptionValues, OutputTarget, TaskContext } from '../../src/core/model.js';
import { openDocument } from '../../src/core/open.js';
import { handlers, importersFor } from '../../src/core/registry.js';

/**
 * Conversions reached the way the CLI reaches them: importers through `importersFor(name)`,
 * converters through `openDocument` (content detection) and `convertersOf` (the document's own
 * plus the dump every format offers).
 */

const encoder = new TextEncoder();

/** Output files kept in memory, in the order they were opened; each can be patched, like a real file. */
function memoryTarget(): OutputTarget & { readonly files: Map<string, Uint8Array> } {
  const sinks = new Map<string, { bytes: Uint8Array; size: number }>();
  return {
    get files() {
      return new Map([...sinks].map(([name, f]) => [name, f.bytes.slice(0, f.size)]));
    },
    async file(name = '') {
      const f = { bytes: new Uint8Array(1024), size: 0 };
      sinks.set(name, f);
      const sink: ByteSink = {
        async write(chunk) {
          if (f.size + chunk.length > f.bytes.length) {
            const grown = new Uint8Array(Math.max(f.bytes.length * 2, f.size + chunk.length));
            grown.set(f.bytes.subarray(0, f.size));
            f.bytes = grown;
          }
          f.bytes.set(chunk, f.size);
          f.size += chunk.length;
        },
        async patch(offset, bytes) {
          if (offset + bytes.length > f.size) throw new Error('patch past the end');
          f.bytes.set(bytes, offset);
        },
      };
      return sink;
    },
    /** A file beside the output is kept under its suffix (`.graph.json`). */
    beside(suffix: string) {
      return this.file(suffix);
    },
  };
}

/** The importer of `format` with this id that accepts a file named `name`. */
export async function importerFor(format: string, id: string, name: string): Promise<Importer> {
  const found = (await importersFor(name)).find((c) => c.handler.id === format && c.importer.id === id);
  if (!found) throw new Error(`no importer ${format}/${id} accepts ${name}`);
  return found.importer;
}

export interface Written {
  /** The output files by name ('' is the single-file output), in the order they were opened. */
  readonly files: Map<string, Uint8Array>;
  readonly report: ConvertReport;
}

/** Runs an importer found through the registry on `input`. */
export async function runImporter(
  format: string,
  id: string,
  name: string,
  input: Uint8Array | string,
  options: OptionValues = {},
  ctx: TaskContext = {},
): Promise<Written> {
  const target = memoryTarget();
  const bytes = typeof input === 'string' ? encoder.encode(input) : input;
  const report = await (await importerFor(format, id, name)).run(new MemorySource(bytes), target, ctx, options);
  return { files: target.files, report };
}

/** The single file an importer writes. */
export async function imported(
  format: string,
  id: string,
  name: string,
  input: Uint8Array | string,
  options: OptionValues = {},
  ctx: TaskContext = {},
): Promise<Uint8Array> {
  return single(await runImporter(format, id, name, input, options, ctx));
}

export interface Opened {
  readonly format: string;
  readonly doc: FormatDocument;
  readonly converters: readonly Converter[];
}

/** Opens bytes by content detection, as `binlens` does; fails when no reader takes them. */
export async function openDetected(bytes: Uint8Array, name: string): Promise<Opened> {
  const outcome = await openDocument(new MemorySource(bytes), { name });
  if (outcome.kind !== 'opened') throw new Error(`${name} did not open: ${outcome.reason}`);
  return { format: outcome.handler.id, doc: outcome.doc, converters: convertersOf(outcome.doc, name, bytes.length) };
}

/** Runs the converter `id` an opened file offers. */
export async function runConverter(opened: Opened, id: string, options: OptionValues = {}, ctx: TaskContext = {}): Promise<Written> {
  const converter = opened.converters.find((c) => c.id === id);
  if (!converter) throw new Error(`${opened.format} offers no converter ${id}: ${opened.converters.map((c) => c.id).join(', ')}`);
  const target = memoryTarget();
  const report = await converter.run(target, ctx, options);
  return { files: target.files, report };
}

/** The single file a converter writes. */
export async function converted(opened: Opened, id: string, options: OptionValues = {}, ctx: TaskContext = {}): Promise<Uint8Array> {
  return single(await runConverter(opened, id, options, ctx));
}

function single(w: Written): Uint8Array {
  const out = w.files.get('');
  if (!out || w.files.size !== 1) throw new Error(`expected one output file, got ${[...w.files.keys()].join(', ')}`);
  return out;
}

export const text = (b: Uint8Array): string => new TextDecoder().decode(b);

/** One conversion: `input` is the document's extension (converters) or an accepted input extension (importers). */
export interface ConversionKey {
  readonly format: string;
  readonly kind: 'converter' | 'importer';
  readonly id: string;
  readonly input: string;
}

export const keyText = (k: ConversionKey): string => `${k.format} ${k.kind} ${k.id} ${k.input}`;

/** Small files of every document kind, written through the registry's importers (damaged ones cut short). */
async function sampleFiles(): Promise<[string, Uint8Array][]> {
  const jsonl = '{"assignment":[1,1,2,2],"sample":1}\n{"assignment":[1,2,2,2],"sample":2}\n{"assignment":[2,2,1,1],"sample":3}\n';
  const ben = await imported('ben', 'ben', 'plans.jsonl', jsonl, { variant: 'standard' });
  const xben = await imported('ben', 'xben', 'plans.jsonl', jsonl, { variant: 'standard', preset: 0 });
  const bytes = Uint8Array.from({ length: 5000 }, (_, i) => (i * 7919) & 0xff);
  return [
    ['plans.ben', ben],
    ['cut.ben', ben.subarray(0, ben.length - 3)],
    ['plans.xben', xben],
    ['cut.xben', xben.subarray(0, xben.length - 20)],
    ['plans.bendl', await imported('ben', 'bendl', 'plans.jsonl', jsonl, { preset: 0 })],
    ['data.xorb', await imported('xorb', 'xorb', 'data.bin', bytes)],
    ['table.bindu', await imported('bindu', 'bindu', 'table.csv', 'a,b\n1,x\n2,y\n')],
    ['stream.bindu', await imported('bindu', 'bindu-bytes', 'data.bin', bytes)],
    ['table.idv', await imported('idv', 'idv-from-csv', 'table.csv', 'a,b\n1,x\n2,y\n')],
    ['map.fst', await imported('fst', 'fst', 'map.tsv', 'a\t1\nb\t2\n')],
    ['set.fst', await imported('fst', 'fst', 'keys.txt', 'a\nb\n')],
  ];
}

/** Every importer of every handler, and every converter every kind of document offers. */
export async function everyConversion(): Promise<ConversionKey[]> {
  const keys = new Map<string, ConversionKey>();
  const add = (k: ConversionKey) => keys.set(keyText(k), k);
  for (const h of handlers)
    for (const imp of (await h.importers?.()) ?? []) for (const input of imp.accepts) add({ format: h.id, kind: 'importer', id: imp.id, input });
  for (const [name, bytes] of await sampleFiles()) {
    const opened = await openDetected(bytes, name);
    const input = name.slice(name.lastIndexOf('.'));
    for (const c of opened.converters) add({ format: opened.format, kind: 'converter', id: c.id, input });
  }
  return [...keys.values()];
}
