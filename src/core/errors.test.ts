import { describe, expect, it } from 'vitest';
import { FormatError, rethrowUnlessFormatError } from './errors';

/** What the call throws, or undefined when it returns. */
function thrown(fn: () => void): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe('rethrowUnlessFormatError', () => {
  it('lets a FormatError through so the catch block can recover from it', () => {
    const e = new FormatError('corrupt', 'bad count', { offset: 12, field: 'header' });
    expect(thrown(() => rethrowUnlessFormatError(e))).toBeUndefined();
  });

  it('rethrows a non-FormatError unchanged (a bug is not damage)', () => {
    const bug = new TypeError('x is undefined');
    expect(thrown(() => rethrowUnlessFormatError(bug))).toBe(bug);
    expect(thrown(() => rethrowUnlessFormatError('a string', 'cancelled'))).toBe('a string');
  });

  it('lets a cancellation through unless asked to rethrow it', () => {
    const cancelled = new FormatError('cancelled', 'cancelled by the user');
    expect(thrown(() => rethrowUnlessFormatError(cancelled))).toBeUndefined();
    expect(thrown(() => rethrowUnlessFormatError(cancelled, 'cancelled'))).toBe(cancelled);
  });

  it('rethrows every listed code and lets the others through', () => {
    const codes = ['cancelled', 'limit', 'unsupported'] as const;
    const limit = new FormatError('limit', 'too big');
    const unsupported = new FormatError('unsupported', 'codec 9');
    const truncated = new FormatError('truncated', 'ends early', { offset: 3 });
    expect(thrown(() => rethrowUnlessFormatError(limit, ...codes))).toBe(limit);
    expect(thrown(() => rethrowUnlessFormatError(unsupported, ...codes))).toBe(unsupported);
    expect(thrown(() => rethrowUnlessFormatError(truncated, ...codes))).toBeUndefined();
  });
});
