import { describe, expect, it } from 'vitest';
import type { Table } from '../../core/model.js';
import { tableDTO } from './dto.js';

const table = (over: Partial<Table>): Table => ({
  id: 't',
  title: 'T',
  columns: [],
  rowCount: () => ({ known: 10, complete: true }),
  page: async () => [],
  ...over,
});

describe('which tables the viewer counts in the background', () => {
  it('an incomplete count that a walk can finish', () => {
    expect(tableDTO(table({ rowCount: () => ({ known: 0, complete: false }), count: async () => 5 })).countable).toBe(true);
  });
  it('a complete count whose walk also indexes far pages (an fst)', () => {
    expect(tableDTO(table({ count: async () => 10, countIndexes: true })).countable).toBe(true);
  });
  it('not a complete count that only counts, nor a table without a count', () => {
    expect(tableDTO(table({ count: async () => 10 })).countable).toBe(false);
    expect(tableDTO(table({ rowCount: () => ({ known: 0, complete: false }) })).countable).toBe(false);
  });
});
