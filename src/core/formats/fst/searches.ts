import { throwIfAborted } from '../../errors.js';
import { yieldToEventLoop } from '../../io/scan.js';
import { SHOW_DAMAGED } from '../../integrity.js';
import type { OptionSpec, OptionValues, Row, SearchReport, SearchSpec, TaskContext } from '../../model.js';
import { choiceParam } from '../../tableSpec.js';
import { type Automaton, startsWith, subsequence } from './automaton.js';
import { KEY_COLUMNS, keyRow } from './keysTable.js';
import { escapeKey, parseKey } from './keyText.js';
import { levenshtein, MAX_DISTANCE } from './levenshtein.js';
import type { FstChecksum } from './checksum.js';
import { crcFailure, markDamaged } from './damagedView.js';
import type { FstReader } from './reader.js';
import { regexAutomaton } from './regex.js';
import { type Bound, KeyStream, type StreamOptions } from './stream.js';

/**
 * The searches of the content view. Every one is a walk of the fst (seeking to a bound and/or
 * intersecting with an automaton), never a scan over all keys followed by a filter; results
 * stream in key order in batches and stop at the limit or on cancel.
 */
const BATCH = 256;
const DEFAULT_LIMIT = 100_000;

const KEY_HELP = 'text; write other bytes as \\xHH (e.g. \\xff)';
const limit: OptionSpec = { key: 'limit', label: 'Max results', type: 'number', default: DEFAULT_LIMIT, min: 1 };

async function collect<S>(
  reader: FstReader,
  checksum: FstChecksum,
  opts: StreamOptions<S>,
  params: OptionValues,
  ctx: TaskContext,
  emit: (rows: readonly Row[]) => void,
  extra?: (state: S | undefined) => number,
): Promise<SearchReport> {
  const max = Math.max(1, Number(params.limit ?? DEFAULT_LIMIT) || DEFAULT_LIMIT);
  // No row leaves before the file's CRC is known; a failed one marks every row damaged.
  const failure = crcFailure(await checksum.check(ctx));
  const showAnyway = params[SHOW_DAMAGED.key] === true;
  const stream = new KeyStream(reader, opts);
  let batch: Row[] = [];
  let count = 0;
  for (;;) {
    throwIfAborted(ctx.signal);
    let slice = 0;
    const done = await stream.run((key, len, hi, lo, node, state) => {
      const row = keyRow(key, len, hi, lo, node.start, node.addr);
      batch.push(extra ? { ...row, cells: [...row.cells, extra(state)] } : row);
      count++;
      return count < max && batch.length < BATCH && ++slice < 4096;
    }, ctx.signal);
    if (batch.length) {
      emit(markDamaged(batch, failure, showAnyway));
      batch = [];
    }
    if (done) return { count };
    if (count >= max) return { count, note: `stopped at the limit of ${max}` };
    await yieldToEventLoop();
  }
}

function keyParam(key: string, label: string, description = KEY_HELP, dflt = ''): OptionSpec {
  return { key, label, type: 'string', description, default: dflt };
}

/** `collect` bound to one file. */
type Collect = <S>(
  opts: StreamOptions<S>,
  params: OptionValues,
  ctx: TaskContext,
  emit: (rows: readonly Row[]) => void,
  extra?: (state: S | undefined) => number,
) => Promise<SearchReport>;

const text = (v: unknown) => (v === undefined ? '' : String(v));

export function fstSearches(reader: FstReader, checksum: FstChecksum): SearchSpec[] {
  const run: Collect = (opts, params, ctx, emit, extra) => collect(reader, checksum, opts, params, ctx, emit, extra);
  const specs = [prefixSearch(run), getSearch(run), rangeSearch(run), regexSearch(run), fuzzySearch(run), subsequenceSearch(run)];
  return specs.map((spec) => ({ ...spec, params: [...spec.params, SHOW_DAMAGED] }));
}

function prefixSearch(collect: Collect): SearchSpec {
  return {
    id: 'prefix',
    label: 'Prefix',
    params: [keyParam('prefix', 'Starts with'), limit],
    columns: KEY_COLUMNS,
    run: (p, ctx, emit) => {
      const prefix = parseKey(text(p.prefix), { field: 'prefix' });
      return collect({ automaton: startsWith(prefix), from: { key: prefix, inclusive: true } }, p, ctx, emit);
    },
  };
}

function getSearch(collect: Collect): SearchSpec {
  return {
    id: 'get',
    label: 'Get key',
    params: [keyParam('key', 'Key')],
    columns: KEY_COLUMNS,
    run: async (p, ctx, emit) => {
      const key = parseKey(text(p.key), { field: 'key' });
      const exact: Bound = { key, inclusive: true };
      const report = await collect({ from: exact, to: exact }, { ...p, limit: 1 }, ctx, emit);
      return report.count ? { count: 1 } : { count: 0, note: `no key ${escapeKey(key)}` };
    },
  };
}

const RANGE_PARAMS: OptionSpec[] = [
  keyParam('from', 'From', `${KEY_HELP}; empty = the first key`),
  choiceParam('fromInclusive', 'From is', { inclusive: 'inclusive (≥, fst range -s, vellum start)', exclusive: 'exclusive (>)' }),
  keyParam('to', 'To', `${KEY_HELP}; empty = the last key`),
  choiceParam('toInclusive', 'To is', { exclusive: 'exclusive (<, vellum Iterator end, fst lt)', inclusive: 'inclusive (≤, fst range -e)' }),
  limit,
];

function rangeSearch(collect: Collect): SearchSpec {
  return {
    id: 'range',
    label: 'Range',
    params: RANGE_PARAMS,
    columns: KEY_COLUMNS,
    run: async (p, ctx, emit) => {
      const fromText = text(p.from);
      const toText = text(p.to);
      const from = fromText === '' ? undefined : { key: parseKey(fromText, { field: 'from' }), inclusive: p.fromInclusive !== 'exclusive' };
      const to = toText === '' ? undefined : { key: parseKey(toText, { field: 'to' }), inclusive: p.toInclusive === 'inclusive' };
      const report = await collect({ from, to }, p, ctx, emit);
      const lower = from ? `${escapeKey(from.key)} ${from.inclusive ? '≤' : '<'} ` : '';
      const upper = to ? ` ${to.inclusive ? '≤' : '<'} ${escapeKey(to.key)}` : '';
      return { ...report, note: [`keys k with ${lower}k${upper}`, report.note].filter(Boolean).join('; ') };
    },
  };
}

function regexSearch(collect: Collect): SearchSpec {
  return {
    id: 'regex',
    label: 'Regex',
    params: [{ key: 'pattern', label: 'Pattern', type: 'string', default: '', description: 'matches whole keys; Unicode classes; \\xHH is a raw byte' }, limit],
    columns: KEY_COLUMNS,
    run: (p, ctx, emit) => collect({ automaton: regexAutomaton(text(p.pattern)) as Automaton<number> }, p, ctx, emit),
  };
}

function fuzzySearch(collect: Collect): SearchSpec {
  return {
    id: 'fuzzy',
    label: 'Fuzzy (Levenshtein)',
    params: [
      { key: 'query', label: 'Query', type: 'string', default: '' },
      { key: 'distance', label: 'Max edits', type: 'number', default: 1, min: 0, max: MAX_DISTANCE, description: 'edits counted in Unicode characters' },
      { key: 'transpositions', label: 'Swaps count as one edit', type: 'boolean', default: false },
      { key: 'prefix', label: 'Match key prefixes', type: 'boolean', default: false, description: 'keys that start with something within the distance' },
      limit,
    ],
    columns: [...KEY_COLUMNS, { key: 'distance', title: 'edits', type: 'number' }],
    run: (p, ctx, emit) => {
      const distance = Math.max(0, Math.min(MAX_DISTANCE, Math.floor(Number(p.distance ?? 1))));
      const aut = levenshtein(text(p.query), { distance, transpositions: p.transpositions === true, prefix: p.prefix === true });
      return collect({ automaton: aut }, p, ctx, emit, (s) => aut.distance(s!));
    },
  };
}

function subsequenceSearch(collect: Collect): SearchSpec {
  return {
    id: 'subsequence',
    label: 'Subsequence',
    params: [keyParam('needle', 'Contains in order', `${KEY_HELP}; the bytes may have others between them`), limit],
    columns: KEY_COLUMNS,
    run: (p, ctx, emit) => collect({ automaton: subsequence(parseKey(text(p.needle), { field: 'needle' })) }, p, ctx, emit),
  };
}
