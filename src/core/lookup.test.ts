import { describe, expect, it } from 'vitest';
import { lookup } from './lookup.js';

describe('lookup', () => {
  const table: Readonly<Record<string, number>> = { one: 1, zero: 0 };

  it('finds the table’s own entries, falsy values included', () => {
    expect(lookup(table, 'one')).toBe(1);
    expect(lookup(table, 'zero')).toBe(0);
  });

  it('does not find Object.prototype’s members', () => {
    for (const key of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf']) expect(lookup(table, key)).toBeUndefined();
  });
});
