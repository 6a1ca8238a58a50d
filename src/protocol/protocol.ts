/**
 * What crosses the boundaries: the webview asks the host for pages (ViewOps); the host asks its
 * engine worker, which holds the open documents (EngineOps). Every type here is plain JSON
 * (bigints arrive as decimal strings), so the same messages work through `postMessage` to a
 * webview, a Node worker thread or a browser Web Worker.
 */
import type {
  ByteRange,
  Cell,
  Check,
  CheckStatus,
  ConvertReport,
  Column,
  ConverterSpec,
  Field,
  OptionSpec,
  OptionValues,
  Panel,
  Progress,
  Row,
  RowCount,
  SearchReport,
  SearchSpec,
  StructNode,
  Table,
} from '../core/model.js';
import type { PanelData } from '../core/views.js';
import type { Wire } from './wire.js';

// The webview imports types from this module only: these are the core's, as they cross the wire.
export type { PanelData };
export { PLAN_HELD_PARAM, PLAN_MAP_PARAM, PLAN_SHAPES_PARAMS } from '../core/views.js';
export { DISTRICTS_PARAMS, ENSEMBLE_PARAMS } from '../core/views.js';
export type { OptionSpec };
export type {
  AutomatonPanelData,
  BarsPanelData,
  ChartPanelData,
  DistrictsPanelData,
  EnsemblePanelData,
  LayersPanelData,
  PipelinePanelData,
  PlanPanelData,
  TreeDiagramNode,
  TreePanelData,
} from '../core/views.js';

// Each DTO below is its core model type as it crosses (Wire: bigints as strings, methods dropped),
// with only what the wire adds or settles written here.

export type RangeDTO = Wire<ByteRange>;

/** A field with its value already shown as text (`display`, else the scalar formatted). */
export interface FieldDTO extends Omit<Wire<Field>, 'value' | 'display'> {
  readonly value: string;
}

export interface NodeDTO extends Omit<Wire<StructNode>, 'children'> {
  /** Handle for asking the node's children. */
  readonly id: string;
  /** 0 for a leaf; null while the number of children is still unknown. */
  readonly childCount: number | null;
}

export type ColumnDTO = Wire<Column>;

export type CellDTO = Wire<Cell>;

export type RowDTO = Wire<Row>;

export type RowCountDTO = Wire<RowCount>;

/**
 * A finished count, and what else it changed: a document whose counts the table's count settled
 * (BEN frames and samples) says them again in its summary and its structure's top rows.
 */
export interface CountResultDTO extends RowCountDTO {
  readonly summary?: readonly FieldDTO[];
  readonly top?: TopDTO;
}

/**
 * The structure's root and its first children, fresh: the values a count settled and the marks a
 * check found (a failed CRC) since the tree was drawn. The tree updates those rows in place.
 */
export interface TopDTO {
  readonly root: NodeDTO;
  readonly children: readonly NodeDTO[];
}

export interface TableDTO extends Omit<Wire<Table>, 'countIndexes'> {
  readonly rowCount: RowCountDTO;
  /** The count is incomplete and can be finished with the `count` operation. */
  readonly countable: boolean;
}

export interface PanelDTO extends Wire<Panel> {
  readonly params: readonly OptionSpec[];
}

export type SearchDTO = Wire<SearchSpec>;

export interface ConverterDTO extends Wire<ConverterSpec> {
  readonly options: readonly OptionSpec[];
}

export type CheckDTO = Wire<Check>;

export interface DocDTO {
  readonly fileName: string;
  readonly size: number;
  readonly format: string;
  readonly formatLabel: string;
  readonly title: string;
  readonly summary: readonly FieldDTO[];
  readonly warnings: readonly CheckDTO[];
  readonly root: NodeDTO;
  readonly tables: readonly TableDTO[];
  readonly panels: readonly PanelDTO[];
  readonly searches: readonly SearchDTO[];
  readonly converters: readonly ConverterDTO[];
}

export interface UnrecognisedDTO {
  readonly fileName: string;
  readonly size: number;
  readonly reason: string;
  /** The format the extension suggested, when a reader was tried. */
  readonly format?: string;
  readonly offset?: number;
  /** The first bytes of the file as hex, for a look at what it is. */
  readonly head: string;
}

export type OpenResultDTO = { readonly kind: 'opened'; readonly doc: DocDTO } | ({ readonly kind: 'unrecognised' } & UnrecognisedDTO);

export interface BytesDTO {
  readonly offset: number;
  /** Lower-case hex, two digits per byte. */
  readonly hex: string;
}

export interface VerifySummaryDTO {
  readonly format: string | null;
  readonly ok: boolean;
  readonly unreadable: boolean;
  readonly counts: Readonly<Record<CheckStatus, number>>;
}

export interface ConvertResultDTO extends Required<Wire<ConvertReport>> {
  /** Damaged units a salvaging conversion left out, one line each (empty when all was intact). */
  readonly damaged?: readonly string[];
  /** Parts left out by design (a column no codec decodes). */
  readonly omitted?: readonly string[];
}

/**
 * Where a difference lies in one file, for opening that file at it: a row of one of its tables
 * (a sample, a row, a chunk), or a search whose results start there (an fst key: the keys table
 * cannot seek to a key's row).
 */
export type RevealDTO =
  | { readonly kind: 'row'; readonly table: string; readonly row: number }
  | { readonly kind: 'search'; readonly search: string; readonly params: OptionValues };

/** How a diff ended, as `binlens diff` exits: 0 same, 1 different, 2 trouble (a side unreadable or damaged). */
export interface DiffResultDTO {
  readonly exitCode: 0 | 1 | 2;
  /** Differences in all, listed or only counted (with trouble: those found before it). */
  readonly differences: number;
  readonly counts: Readonly<Record<string, number>>;
  /** Rows in the diff table: the first MAX_DIFF_ROWS differences the family listed. */
  readonly rows: number;
  /** Listed differences left out of the table past MAX_DIFF_ROWS. */
  readonly dropped: number;
  /** Why the diff stopped (exit code 2): which file, and the located error. */
  readonly trouble?: { readonly side?: 'A' | 'B'; readonly message: string; readonly offset?: number; readonly field?: string };
}

/** The columns of a diff table; each row's cells are in this order. */
export const DIFF_COLUMNS: readonly ColumnDTO[] = [
  { key: 'kind', title: 'kind', type: 'text' },
  { key: 'at', title: 'where', type: 'text' },
  { key: 'text', title: 'change', type: 'text' },
];

/** The most differences a diff table keeps; the rest are counted only, so memory stays bounded. */
export const MAX_DIFF_ROWS = 50_000;

/** What the compare view asks its host: each side's structure, and the diff as a paged table. */
export interface CompareOps {
  children: { params: { side: 'a' | 'b'; node: string; from: number; count: number }; result: NodeDTO[] };
  /** The diff, run once in the background; every call returns its outcome, events say how many rows are in so far. */
  diff: { params: Record<string, never>; result: DiffResultDTO; event: { rows: number } };
  page: { params: { from: number; count: number }; result: RowDTO[] };
  /** Opens both files at diff row `row` beside the compare view. */
  reveal: { params: { row: number }; result: void };
}

/** What the compare view's page gets at start: both files as opened (a side may be unrecognised). */
export interface ComparePayload {
  readonly a: OpenResultDTO;
  readonly b: OpenResultDTO;
  readonly l10n?: L10nBundle;
}

/** The largest byte range the bytes pane asks for at once. */
export const MAX_BYTES_REQUEST = 64 * 1024;
/** The largest page of rows or children asked for at once. */
export const MAX_PAGE = 2000;

/** Operations the webview may ask the host for, about the document it shows. */
export interface ViewOps {
  children: { params: { node: string; from: number; count: number }; result: NodeDTO[] };
  page: { params: { table: string; from: number; count: number }; result: RowDTO[] };
  /** The table as these parameter values show it (its own id and columns), to page like any other. */
  table: { params: { table: string; params: OptionValues }; result: TableDTO };
  count: { params: { table: string }; result: CountResultDTO; event: Progress };
  bytes: { params: { offset: number; length: number }; result: BytesDTO };
  /** Events: the progress of a long panel (the ensemble pass); cancelling the request stops it. */
  panel: { params: { panel: string; params: OptionValues }; result: PanelData; event: Progress };
  search: { params: { search: string; params: OptionValues }; result: SearchReport; event: RowDTO[] };
  /** The fresh top rows, asked for after a read that may have run a check (a table's first page). */
  top: { params: Record<string, never>; result: TopDTO };
  /** Asks the user for the ensemble's graph JSON (the host keeps it: the districts panel's `graph`); false when cancelled. */
  pickGraph: { params: Record<string, never>; result: { picked: boolean } };
  /** The plan tab's precinct shapes from a GeoJSON FeatureCollection the user picks (kept per ensemble). */
  pickShapes: { params: Record<string, never>; result: { picked: boolean } };
  /** Asks the user for a reference plan file for the ensemble view (JSON list, or CSV node,district); the host keeps it. */
  pickReference: { params: Record<string, never>; result: { picked: boolean } };
  /**
   * Saves what the view made (a plot as SVG or PNG, statistics as CSV or JSONL) where the user
   * chooses in a save dialog; `name` is only the suggested file name. PNG bytes come as base64.
   */
  saveExport: { params: { kind: ExportKind; name: string; data: string }; result: { saved: boolean } };
}

export type ExportKind = 'svg' | 'png' | 'csv' | 'jsonl';
export const EXPORT_KINDS: readonly ExportKind[] = ['svg', 'png', 'csv', 'jsonl'];
/** The largest export the host accepts from a view (characters of text or base64). */
export const MAX_EXPORT_CHARS = 64 * 1024 * 1024;

export type ViewOp = Extract<keyof ViewOps, string>;

/** Operations the host asks its engine worker for; document operations carry the document id. */
export interface EngineOps {
  open: { params: { doc: string; path?: string; bytes?: ArrayBuffer; name: string; format?: string }; result: OpenResultDTO };
  close: { params: { doc: string }; result: void };
  children: { params: { doc: string } & ViewOps['children']['params']; result: NodeDTO[] };
  page: { params: { doc: string } & ViewOps['page']['params']; result: RowDTO[] };
  table: { params: { doc: string } & ViewOps['table']['params']; result: TableDTO };
  count: { params: { doc: string } & ViewOps['count']['params']; result: CountResultDTO; event: Progress };
  bytes: { params: { doc: string } & ViewOps['bytes']['params']; result: BytesDTO };
  panel: { params: { doc: string } & ViewOps['panel']['params']; result: PanelData; event: Progress };
  search: { params: { doc: string } & ViewOps['search']['params']; result: SearchReport; event: RowDTO[] };
  top: { params: { doc: string }; result: TopDTO };
  verify: { params: { doc: string }; result: VerifySummaryDTO; event: { check?: CheckDTO; progress?: Progress } };
  /**
   * The failed checks a verify of the same file found elsewhere (an editor's Verify runs on a job
   * thread): document `doc`'s tree marks the nodes whose range holds their offsets, the root all of
   * them, until it is opened again. At most MAX_FINDINGS are kept. Answers the fresh top rows.
   */
  findings: { params: { doc: string; checks: CheckDTO[] }; result: TopDTO };
  dump: { params: { doc: string; maxChildren?: number }; result: string };
  convert: {
    params: {
      doc: string;
      converter: string;
      out: string;
      options: OptionValues;
      force: boolean;
      input: string;
      salvage?: boolean;
    };
    result: ConvertResultDTO;
    event: Progress;
  };
  importers: { params: { name: string }; result: (ConverterDTO & { format: string })[] };
  formats: { params: Record<string, never>; result: { id: string; label: string; extensions: string[] }[] };
  import: {
    params: { input: string; importer: string; out: string; options: OptionValues; force: boolean };
    result: ConvertResultDTO;
    event: Progress;
  };
  /** Diffs two open documents into a table `diff` (ops/diff.ts, as `binlens diff`); events say how many rows are in. */
  diff: { params: { diff: string; a: string; b: string }; result: DiffResultDTO; event: { rows: number } };
  diffPage: { params: { diff: string; from: number; count: number }; result: RowDTO[] };
  /** Where diff row `row` lies in each file (absent: a side the difference has no place in). */
  diffTargets: { params: { diff: string; row: number }; result: { a?: RevealDTO; b?: RevealDTO } };
  /** Closes every document and diff whose id starts with `prefix`: a pool client's, when it leaves. */
  forget: { params: { prefix: string }; result: void };
  /** Closes everything and lets the thread end by itself (terminating a thread with WebAssembly in it can crash Node). */
  shutdown: { params: Record<string, never>; result: void };
  /**
   * The bytes each open document keeps in caches, by its full id, and under THREAD_MEMORY what the
   * thread holds for all of them (its grown WebAssembly memories): what the pool's memory budget counts.
   */
  memory: { params: Record<string, never>; result: { doc: string; bytes: number }[] };
  /** Gives back the caches of document `doc` (a full id; THREAD_MEMORY: the thread's): it stays open, and later reads refill them. */
  trim: { params: { doc: string }; result: void };
}

/** The failed checks a document's tree keeps from a verify elsewhere (`findings`): a bound on what a host can make an engine hold. */
export const MAX_FINDINGS = 1000;

/** The `memory` and `trim` name of what a thread holds for all its documents; no document's id is empty (enginePool.ts prefixes them). */
export const THREAD_MEMORY = '';

/** The params that name an engine's documents and diffs, which a pool prefixes per client (enginePool.ts). */
export const ENGINE_ID_PARAMS = ['doc', 'a', 'b', 'diff'] as const;

/**
 * The translated UI strings for VS Code's display language (`vscode.l10n.bundle`): English source
 * text → translation, or `{ message, comment }` for strings marked with a translator comment.
 * Undefined for English or when Binlens has no bundle for the language.
 */
export type L10nBundle = Readonly<Record<string, string | { readonly message: string; readonly comment: readonly string[] }>>;

/** What the host tells the webview without being asked. */
export type HostNotice =
  | { readonly topic: 'init'; readonly payload: OpenResultDTO & { readonly hexEditor: boolean; readonly l10n?: L10nBundle } }
  | { readonly topic: 'rowCount'; readonly payload: { readonly table: string } & RowCountDTO }
  | { readonly topic: 'status'; readonly payload: { readonly text: string } }
  /** The fresh top rows after a Verify run in this document's engine: the tree marks what failed. */
  | { readonly topic: 'top'; readonly payload: TopDTO }
  /** The page is a compare view of two files instead of one document's editor. */
  | { readonly topic: 'compare'; readonly payload: ComparePayload }
  /** Show this place of the document (a diff row clicked in a compare view). */
  | { readonly topic: 'reveal'; readonly payload: RevealDTO };

/** What the webview tells the host without expecting an answer. */
export type ViewNotice =
  | { readonly topic: 'ready'; readonly payload: null }
  | { readonly topic: 'command'; readonly payload: { readonly command: 'verify' | 'convert' | 'saveIntact' | 'openAsText' | 'reopenAsText' | 'reopenAsHex' } }
  | { readonly topic: 'revealBytes'; readonly payload: RangeDTO };
