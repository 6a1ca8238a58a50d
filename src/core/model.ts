/**
 * The contracts between a format and everything that shows, checks or converts it.
 * A format folder implements `FormatHandler`; the registry lists the handlers; the CLI, the
 * engine behind the editor and the tests only ever talk to these types.
 */
import type { Coverage, IntegrityLog } from './integrity.js';
import type { ByteSource } from './io/byteSource.js';
import type { PanelData } from './views.js';

/** A half-open byte range [offset, offset + length) in the file. */
export interface ByteRange {
  readonly offset: number;
  readonly length: number;
}

export type Scalar = string | number | bigint | boolean | null;

/** Marks a value the reader found damaged ('error') or suspicious ('warn'). */
export type Mark = 'warn' | 'error';

/** One named value with the bytes it came from: summaries, node details. */
export interface Field {
  readonly name: string;
  readonly value: Scalar;
  /** How to show the value when `String(value)` is not enough, e.g. `0x12 (AnyTrans)`. */
  readonly display?: string;
  readonly range?: ByteRange;
  readonly mark?: Mark;
  readonly note?: string;
}

/**
 * A node of the structure tree: a section, a frame, a field. Children are either given or
 * loaded lazily in pages, so a file with millions of frames has a tree that opens at once.
 */
export interface StructNode {
  readonly label: string;
  readonly value?: string;
  readonly range?: ByteRange;
  readonly mark?: Mark;
  readonly note?: string;
  readonly children?: readonly StructNode[] | LazyChildren;
}

export interface LazyChildren {
  readonly lazy: true;
  /** Number of children when known; `undefined` while it is still being counted. */
  count(): number | undefined;
  /**
   * Children [from, from + count); fewer at the end. Damage that stops the list is thrown as a
   * FormatError (not returned as an error node), so every consumer stops asking for more.
   */
  load(from: number, count: number, signal?: AbortSignal): Promise<readonly StructNode[]>;
}

export function isLazy(children: StructNode['children']): children is LazyChildren {
  return children !== undefined && (children as LazyChildren).lazy === true;
}

export type ColumnType = 'number' | 'text' | 'hex' | 'bool' | 'json';

export interface Column {
  readonly key: string;
  readonly title: string;
  readonly type?: ColumnType;
  readonly description?: string;
}

/** A table cell: a plain value, or text with a tooltip and a mark. */
export type Cell = Scalar | { readonly text: string; readonly title?: string; readonly mark?: Mark | 'null' };

export interface Row {
  readonly cells: readonly Cell[];
  /** The bytes this row was read from, for "reveal bytes". */
  readonly range?: ByteRange;
  readonly mark?: Mark;
}

export interface RowCount {
  /** Rows known so far. */
  readonly known: number;
  /** False while a background count is still running: show "≥ known". */
  readonly complete: boolean;
}

/** Content that pages: samples, chunks, rows, keys, frames. */
export interface Table {
  readonly id: string;
  readonly title: string;
  readonly columns: readonly Column[];
  rowCount(): RowCount;
  /** Completes the count of an incomplete table; resolves to the final count. */
  count?(ctx: TaskContext): Promise<number>;
  /**
   * The count's walk also leaves what far pages need (an fst's key every 1024 rows), so viewers
   * run it in the background even when the row count is already complete.
   */
  readonly countIndexes?: boolean;
  /** Rows [from, from + count); fewer at the end. */
  page(from: number, count: number, signal?: AbortSignal): Promise<readonly Row[]>;
  /** Choices that change what the table shows (a reading, a column to expand); shown as inputs above it. */
  readonly params?: readonly OptionSpec[];
  /** The table as these parameter values show it, with its own columns; its id differs per distinct values. */
  withParams?(values: OptionValues): Promise<Table>;
}

export type OptionValue = string | number | boolean;
export type OptionValues = Readonly<Record<string, OptionValue>>;

/** A parameter a user sets for a search or a conversion. */
export interface OptionSpec {
  readonly key: string;
  readonly label: string;
  /** 'path' is a file the user picks (a graph.json to bundle, say). */
  readonly type: 'string' | 'number' | 'boolean' | 'choice' | 'path';
  readonly choices?: readonly { readonly value: string; readonly label: string }[];
  readonly default?: OptionValue;
  readonly description?: string;
  /** Bounds of a 'number' option. */
  readonly min?: number;
  readonly max?: number;
}

/** A query over the content whose results stream into a table. */
export interface SearchSpec {
  readonly id: string;
  readonly label: string;
  readonly params: readonly OptionSpec[];
  readonly columns: readonly Column[];
  run(params: OptionValues, ctx: TaskContext, emit: (rows: readonly Row[]) => void): Promise<SearchReport>;
}

export interface SearchReport {
  readonly count: number;
  readonly note?: string;
}

/** A picture or a specialised view: the payload's shape is named by `kind` (see views.ts). */
export interface Panel {
  readonly id: string;
  readonly title: string;
  readonly kind: PanelData['kind'];
  /** Inputs shown above the panel (a sample number, a key); changing one redraws it. */
  readonly params?: readonly OptionSpec[];
  /**
   * `files` opens a file a parameter names (a graph.json the user picked), where the host can;
   * reports the progress of a long panel (the ensemble pass); and keeps results between opens.
   */
  data(params: OptionValues, signal?: AbortSignal, files?: PanelHost): Promise<PanelData>;
}

/** What a panel may ask of its host besides the document. */
export interface PanelHost extends Pick<TaskContext, 'openPath' | 'progress'> {
  /**
   * Bytes kept beside the document's saved index (same file identity), under a key of the
   * panel's choosing; absent where nothing is kept (the web host). Failures read as "nothing kept".
   */
  readonly cache?: { load(key: string): Promise<Uint8Array | undefined>; save(key: string, bytes: Uint8Array): Promise<void> };
}

export interface Progress {
  readonly done: number;
  readonly total?: number;
  readonly message?: string;
}

export interface TaskContext {
  readonly signal?: AbortSignal;
  progress?(p: Progress): void;
  /** Temporary files for work larger than memory (an external sort); absent = keep it in memory. */
  readonly scratch?: ScratchSpace;
  /** Opens a file the user named in a 'path' option (a graph.json to bundle); absent where files cannot be opened. */
  openPath?(path: string): Promise<ByteSource>;
  /** What to do with damaged units (integrity.ts); absent = stop at the first one. */
  readonly integrity?: IntegrityLog;
}

/** Where a task may spill data; the caller deletes everything when the task ends. */
export interface ScratchSpace {
  create(): Promise<ScratchFile>;
}

export interface ScratchFile extends ByteSink {
  /** Ends writing and gives the bytes back for reading. */
  finish(): Promise<ByteSource>;
}

export type CheckStatus = 'pass' | 'fail' | 'warn' | 'info';

/** One finding of a verification: streamed as the check runs. */
export interface Check {
  readonly name: string;
  readonly status: CheckStatus;
  readonly detail: string;
  readonly offset?: number;
  readonly field?: string;
}

/** Where a conversion writes: one file, or several named files in a folder. */
export interface OutputTarget {
  /** The output file; `name` picks a file inside the output folder for folder outputs. */
  file(name?: string): Promise<ByteSink>;
  /**
   * A file beside a file output, named the output's name + `suffix` (`.node_permutation_map.json`),
   * written and renamed into place together with it. Absent where a host cannot write one.
   */
  beside?(suffix: string): Promise<ByteSink>;
}

export interface ByteSink {
  write(chunk: Uint8Array): Promise<void>;
  /**
   * True when the sink is done with a chunk once its write resolves (it wrote or copied it), so a
   * writer may fill the same memory again. Otherwise a writer hands over a copy: a sink may keep
   * the chunk (a pipe's queue, a collecting test sink).
   */
  readonly releasesChunk?: boolean;
  /**
   * Overwrites bytes already written at `offset`: a header finalised after the content it
   * describes (a BENDL bundle's counts and checksums). File outputs have it; pipes do not.
   */
  patch?(offset: number, bytes: Uint8Array): Promise<void>;
}

export interface ConvertReport {
  readonly summary: string;
  readonly warnings?: readonly string[];
}

export interface ConverterSpec {
  /** Stable id, used by `binlens convert --to ID`. */
  readonly id: string;
  readonly label: string;
  /** Default extension of the output, with the dot; empty for folder outputs. */
  readonly extension: string;
  readonly output: 'file' | 'folder';
  readonly options?: readonly OptionSpec[];
}

/** Converts an opened document to something else. */
export interface Converter extends ConverterSpec {
  run(target: OutputTarget, ctx: TaskContext, options: OptionValues): Promise<ConvertReport>;
}

/** Creates a file of this format from another kind of file (text sources, raw bytes). */
export interface Importer extends ConverterSpec {
  /** Extensions of the inputs it reads, with the dot (`.jsonl`); `*` reads any file. */
  readonly accepts: readonly string[];
  run(src: ByteSource, target: OutputTarget, ctx: TaskContext, options: OptionValues): Promise<ConvertReport>;
}

export type CatFormat = 'jsonl' | 'tsv' | 'csv' | 'raw';

export interface CatOptions {
  readonly from?: number;
  readonly count?: number;
  readonly options?: OptionValues;
}

/** Decoded content as text or bytes: what `binlens cat` prints. */
export interface CatSpec {
  readonly formats: readonly CatFormat[];
  run(format: CatFormat, range: CatOptions, out: ByteSink, ctx: TaskContext): Promise<void>;
}

/**
 * Memory a reader keeps only to answer faster (decoded blocks, file pages): counted and given
 * back on request, after which reads decode again. The viewer holds all its documents' caches
 * to one budget (enginePool.ts, `binlens.memory.budgetMB`).
 */
export interface CacheMemory {
  /** Bytes held now. */
  bytes(): number;
  /** Gives everything back; later reads refill it. */
  drop(): void;
}

export interface FormatDocument {
  /**
   * The id of the handler that opened it. `FormatId` (registry.ts) is the union of the ids; here a
   * string, since the handlers' types are built from this file and a union would be circular.
   */
  readonly format: string;
  /** What this file is, in a few words: "FST v3 map", "BEN MkvChain stream". */
  readonly title: string;
  readonly summary: readonly Field[];
  /** Problems found while opening a file that is still readable. */
  readonly warnings: readonly Check[];
  structure(): StructNode;
  readonly tables: readonly Table[];
  readonly searches?: readonly SearchSpec[];
  readonly panels?: readonly Panel[];
  verify(ctx: TaskContext): AsyncIterable<Check>;
  readonly converters: readonly Converter[];
  readonly cat?: CatSpec;
  /** Compares with another document of this family; without it `binlens diff` compares structure. */
  readonly diff?: DiffSpec;
  /**
   * Completes the counts that need a pass over the data (BEN frames and samples), so that
   * `summary` and `info()` give them exactly; `binlens info` runs it unless --fast.
   */
  countAll?(ctx: TaskContext): Promise<void>;
  /**
   * What the document learnt by walking the file (a frame index, key checkpoints) that a later
   * open of the same, unchanged file may start from; the viewer keeps it between sessions.
   */
  readonly savedIndex?: SavedIndex;
  /** Decoded data it keeps to answer again faster, which it can give back (the viewer's memory budget). */
  readonly memory?: CacheMemory;
  /** Machine-readable facts for `binlens info --json` (bigints become decimal strings). */
  info(): Record<string, unknown>;
  /** What each of the file's checks covers, and what no check covers (integrity.ts). */
  coverage(signal?: AbortSignal): Promise<Coverage>;
  close?(): Promise<void>;
}

/**
 * Index state worth keeping between opens. The store (the host's) checks that the file is the
 * same before it hands bytes back; `restore` still checks that they fit this file, since a store
 * can hold anything.
 */
export interface SavedIndex {
  /** The state as bytes, or undefined while there is nothing worth keeping. */
  save(): Uint8Array | undefined;
  /** Starts from saved state: false, and nothing changed, when the bytes do not fit. */
  restore(bytes: Uint8Array): boolean;
}

/** One difference `binlens diff` found between two files of a family. */
export interface Difference {
  /** What changed, in the family's words: 'key-added', 'sample-changed', 'column-retyped'. */
  readonly kind: string;
  /** Where: "sample 12", "key abc", "row 3", "chunk <hash>". */
  readonly at: string;
  /** The readable line. */
  readonly text: string;
  /** The same facts for `--json` (bigints as decimal strings). */
  readonly data?: Readonly<Record<string, unknown>>;
}

/** What a diff ends with: how many differences there were in all (listed or only counted), per kind. */
export interface DiffSummary {
  readonly differences: number;
  readonly counts: Readonly<Record<string, number>>;
}

/**
 * A family's semantic diff (`binlens diff A B`): streams the differences from this document to
 * `other` in bounded memory and returns the summary. `other` is of the same family, its `diff`
 * of the same kind (the family reaches its own internals through it). Damaged data throws, as on
 * every read path.
 */
export interface DiffSpec {
  /** Whether `run` can match rows by a key column (`options.key`): the tabular families. */
  readonly keyed?: boolean;
  run(other: FormatDocument, ctx: TaskContext, options?: DiffOptions): AsyncGenerator<Difference, DiffSummary>;
}

/** What `binlens diff` is asked beyond the two files. */
export interface DiffOptions {
  /** Match rows by this column's value instead of by position (`--key`); only where the spec is `keyed`. */
  readonly key?: string;
}

export type SniffVerdict = 'yes' | 'maybe' | 'no';

/** What sniffing sees: the first and last bytes of the file (each up to `PROBE_BYTES`). */
export interface Probe {
  readonly head: Uint8Array;
  readonly tail: Uint8Array;
  readonly size: number;
  readonly name?: string;
}

export const PROBE_BYTES = 4096;

export interface OpenContext {
  /** File name (not path) for hints such as a xorb hash in the name. */
  readonly name?: string;
  readonly signal?: AbortSignal;
}

export interface FormatHandler {
  /** Declared with `satisfies FormatHandler` and `as const`, so registry.ts derives `FormatId` from it. */
  readonly id: string;
  readonly label: string;
  readonly extensions: readonly string[];
  /** Decides from content; the extension is only a tie-breaker between 'maybe's. */
  sniff(probe: Probe): SniffVerdict;
  open(src: ByteSource, ctx: OpenContext): Promise<FormatDocument>;
  /** Loaded on demand: an importer's code (writers, inference) is most of a family's. */
  importers?(): Promise<readonly Importer[]>;
}
