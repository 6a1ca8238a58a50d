import { FormatError } from '../../src/core/errors.js';

/** The FormatError a call throws; any other exception escapes, and a call that returns fails the test. */
export function formatErrorOf(f: () => unknown): FormatError {
  try {
    f();
  } catch (e) {
    if (e instanceof FormatError) return e;
    throw e;
  }
  throw new Error('did not throw');
}
