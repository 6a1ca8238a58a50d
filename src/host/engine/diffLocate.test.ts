import { describe, expect, it } from 'vitest';
import { diffTargets } from './diffLocate.js';

/** Differences as the families' diffs write them (their `data`, as `binlens diff --json` prints it). */
describe('diffTargets', () => {
  it('puts a changed row in both files and rows only one file has in that file, from their first row', () => {
    expect(diffTargets({ kind: 'row-changed', at: 'row 3', text: '', data: { row: 3, cells: {} } })).toEqual({
      a: { kind: 'row', table: 'rows', row: 3 },
      b: { kind: 'row', table: 'rows', row: 3 },
    });
    expect(diffTargets({ kind: 'rows-removed', at: 'rows 7–9', text: '', data: { from: 7, count: 3 } })).toEqual({ a: { kind: 'row', table: 'rows', row: 7 } });
    expect(diffTargets({ kind: 'rows-added', at: 'rows 7–9', text: '', data: { from: 7, count: 3 } })).toEqual({ b: { kind: 'row', table: 'rows', row: 7 } });
  });

  it('puts rows matched by a key column at each file’s own row number', () => {
    expect(diffTargets({ kind: 'row-changed', at: 'key 7', text: '', data: { key: 7, rowA: 2, rowB: 5, cells: {} } })).toEqual({
      a: { kind: 'row', table: 'rows', row: 2 },
      b: { kind: 'row', table: 'rows', row: 5 },
    });
    expect(diffTargets({ kind: 'row-removed', at: 'key 8', text: '', data: { key: 8, row: 3 } })).toEqual({ a: { kind: 'row', table: 'rows', row: 3 } });
    expect(diffTargets({ kind: 'row-added', at: 'key 9', text: '', data: { key: 9, row: 0 } })).toEqual({ b: { kind: 'row', table: 'rows', row: 0 } });
  });

  it('puts a chunk in the file that has it, at its index there', () => {
    expect(diffTargets({ kind: 'chunk-removed', at: 'chunk ab', text: '', data: { hash: 'ab', index: 4, size: 9 } })).toEqual({
      a: { kind: 'row', table: 'chunks', row: 4 },
    });
    expect(diffTargets({ kind: 'chunk-added', at: 'chunk cd', text: '', data: { hash: 'cd', index: 0, size: 9 } })).toEqual({
      b: { kind: 'row', table: 'chunks', row: 0 },
    });
  });

  it('has no place for schema, metadata, structure and only-counted differences, nor for malformed data', () => {
    for (const kind of ['column-added', 'meta-changed', 'structure-differs', 'not-shown', 'variant-changed'])
      expect(diffTargets({ kind, at: '', text: '', data: {} })).toEqual({});
    expect(diffTargets({ kind: 'sample-changed', at: '', text: '', data: { sample: 0 } })).toEqual({});
    expect(diffTargets({ kind: 'row-changed', at: '', text: '', data: { row: -1 } })).toEqual({});
    expect(diffTargets({ kind: 'chunk-added', at: '', text: '', data: { index: '3' } })).toEqual({});
  });
});
