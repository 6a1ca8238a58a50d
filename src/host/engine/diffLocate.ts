import type { Difference } from '../../core/model.js';
import type { RevealDTO } from '../../protocol/protocol.js';

/** Where a difference lies in each file; a side it has no place in (a key only B has) is absent. */
export interface DiffTargets {
  readonly a?: RevealDTO;
  readonly b?: RevealDTO;
}

const row = (table: string, r: number): RevealDTO => ({ kind: 'row', table, row: r });
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined);

/**
 * The place of a difference in each file, read from the facts `binlens diff --json` prints (its
 * `data`), so the families' diffs stay as the CLI contract has them. Kinds are the families':
 * BEN samples (1-based, the samples table has a row per sample, repeats expanded), IDV and bindu
 * rows (0-based, as `cat --from`; by position or matched by a key column), xorb chunks (the index in the file that has it), fst keys
 * (a range search from the key in both: the keys table cannot seek to a key's row). Schema,
 * metadata and structure differences have no place: neither side.
 */
export function diffTargets(d: Difference): DiffTargets {
  const data = d.data ?? {};
  switch (d.kind) {
    case 'sample-changed': {
      const s = num(data.sample);
      return s === undefined || s < 1 ? {} : { a: row('samples', s - 1), b: row('samples', s - 1) };
    }
    case 'sample-count-changed': {
      // The first sample only the longer file has.
      const na = num(data.a);
      const nb = num(data.b);
      if (na === undefined || nb === undefined) return {};
      return na > nb ? { a: row('samples', nb) } : { b: row('samples', na) };
    }
    case 'row-changed': {
      // By position one row number; matched by a key column (keyedRows.ts) each file's own.
      const ra = num(data.rowA) ?? num(data.row);
      const rb = num(data.rowB) ?? num(data.row);
      return ra === undefined || rb === undefined ? {} : { a: row('rows', ra), b: row('rows', rb) };
    }
    case 'rows-removed':
    case 'rows-added':
    case 'row-removed':
    case 'row-added': {
      // A run of rows by position (from its first), or one row matched by key.
      const r = num(data.from) ?? num(data.row);
      if (r === undefined) return {};
      return d.kind.endsWith('-removed') ? { a: row('rows', r) } : { b: row('rows', r) };
    }
    case 'chunk-removed':
    case 'chunk-added': {
      const i = num(data.index);
      if (i === undefined) return {};
      return d.kind === 'chunk-removed' ? { a: row('chunks', i) } : { b: row('chunks', i) };
    }
    case 'key-removed':
    case 'key-added':
    case 'value-changed': {
      if (typeof data.key !== 'string') return {};
      // `data.key` is escaped as the search's key parameter reads it (keyText.ts). The file
      // without the key shows where it would be: its keys from there on.
      const at: RevealDTO = { kind: 'search', search: 'range', params: { from: data.key, fromInclusive: 'inclusive' } };
      return { a: at, b: at };
    }
    default:
      return {};
  }
}
