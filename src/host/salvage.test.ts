import { describe, expect, it } from 'vitest';
import { FormatError } from '../core/errors.js';
import { DamagedDataError } from '../core/integrity.js';
import { RpcError } from '../protocol/rpc.js';
import { toErrorDTO } from './errors.js';
import { firstLines, isDamage, salvageOrder } from './salvage.js';

describe('Convert and Save Intact Part: what the host decides from the engine', () => {
  it('offers salvage for the damage a read path reports, as the engine sends it', () => {
    const damaged = toErrorDTO(new DamagedDataError({ unit: 'chunk 3', detail: 'BLAKE3 hash differs from the footer', range: { offset: 400, length: 90 } }));
    expect(damaged).toMatchObject({ code: 'checksum', offset: 400 });
    expect(isDamage(damaged)).toBe(true);
    for (const code of ['truncated', 'corrupt', 'out-of-range'] as const)
      expect(isDamage(toErrorDTO(new FormatError(code, 'x', { offset: 1 }))), code).toBe(true);
  });

  it('does not offer salvage where it would stop the same way: an unsupported feature, a safety cap, a cancel, a bug', () => {
    for (const code of ['unsupported', 'limit', 'cancelled'] as const) expect(isDamage(toErrorDTO(new FormatError(code, 'x'))), code).toBe(false);
    expect(isDamage(toErrorDTO(new Error('boom')))).toBe(false);
    expect(isDamage(toErrorDTO(new RpcError({ message: 'no converter raw', code: 'invalid-request' })))).toBe(false);
  });

  it("lists Recover first when saving the intact part, the other converters in the file's order", () => {
    const ids = salvageOrder([{ id: 'jsonl' }, { id: 'bendl' }, { id: 'recover' }, { id: 'assets' }]).map((c) => c.id);
    expect(ids).toEqual(['recover', 'jsonl', 'bendl', 'assets']);
    expect(salvageOrder([{ id: 'raw' }, { id: 'chunks' }]).map((c) => c.id)).toEqual(['raw', 'chunks']);
  });

  it('cuts a long left-out list for the notification and counts the rest', () => {
    expect(firstLines(['chunk 1', 'chunk 4', 'chunk 9', 'chunk 12'], 3)).toEqual({ shown: 'chunk 1; chunk 4; chunk 9', more: 1 });
    expect(firstLines(['chunk 1'], 3)).toEqual({ shown: 'chunk 1', more: 0 });
  });
});
