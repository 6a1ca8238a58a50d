import { describe, expect, it } from 'vitest';
import { validateCompareRequest, validateViewRequest } from './validate.js';

describe('validateViewRequest', () => {
  it('accepts well-formed requests', () => {
    expect(validateViewRequest('page', { table: 'rows', from: 1_000_000, count: 100 })).toBeUndefined();
    expect(validateViewRequest('bytes', { offset: 0, length: 65536 })).toBeUndefined();
    expect(validateViewRequest('search', { search: 'prefix', params: { prefix: 'mon', limit: 10, exact: false } })).toBeUndefined();
    expect(validateViewRequest('table', { table: 'rows', params: { reading: 'legacy', slot: 200 } })).toBeUndefined();
  });

  it('rejects wrong types, negative or fractional numbers, oversized pages and unknown operations', () => {
    expect(validateViewRequest('page', { table: 'rows', from: -1, count: 10 })).toMatch(/from/);
    expect(validateViewRequest('page', { table: 'rows', from: 1.5, count: 10 })).toMatch(/from/);
    expect(validateViewRequest('page', { table: 'rows', from: 0, count: 1e9 })).toMatch(/count/);
    expect(validateViewRequest('bytes', { offset: 0, length: 1 << 30 })).toMatch(/length/);
    expect(validateViewRequest('children', { node: 7, from: 0, count: 1 })).toMatch(/node/);
    expect(validateViewRequest('panel', { panel: 'p', params: { x: { nested: true } } })).toMatch(/params\.x/);
    expect(validateViewRequest('panel', null)).toMatch(/object/);
    expect(validateViewRequest('table', { table: 'rows', params: [1] })).toMatch(/params/);
    expect(validateViewRequest('__proto__', {})).toMatch(/unknown operation/);
    expect(validateViewRequest('constructor', {})).toMatch(/unknown operation/);
  });

  it('checks a compare view’s requests: a side is a or b, rows are integers, pages bounded, document operations unknown', () => {
    expect(validateCompareRequest('children', { side: 'b', node: '3', from: 0, count: 200 })).toBeUndefined();
    expect(validateCompareRequest('page', { from: 49_900, count: 100 })).toBeUndefined();
    expect(validateCompareRequest('reveal', { row: 7 })).toBeUndefined();
    expect(validateCompareRequest('diff', {})).toBeUndefined();
    expect(validateCompareRequest('children', { side: 'c', node: '3', from: 0, count: 1 })).toMatch(/side/);
    expect(validateCompareRequest('page', { from: 0, count: 1e6 })).toMatch(/count/);
    expect(validateCompareRequest('reveal', { row: '7' })).toMatch(/row/);
    expect(validateCompareRequest('bytes', { offset: 0, length: 1 })).toMatch(/unknown operation/);
    expect(validateCompareRequest('hasOwnProperty', {})).toMatch(/unknown operation/);
  });
});
