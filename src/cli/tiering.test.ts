import { describe, expect, it } from 'vitest';
import { raiseBudgetForVerify, VERIFY_POOL } from './tiering.js';

// The main thread's `verify` case sets a process-wide V8 flag, so it is proven by the CLI itself
// (test/cli/cli.test.ts, its code cache), not in this test process.
describe('raiseBudgetForVerify', () => {
  it('leaves every other command at V8 defaults, also when an option comes first or a file is named verify', () => {
    expect(raiseBudgetForVerify(['info', 'a.fst'], undefined)).toBe(false);
    expect(raiseBudgetForVerify(['--json', 'cat', 'verify'], undefined)).toBe(false);
    expect(raiseBudgetForVerify([], undefined)).toBe(false);
  });

  it("a verify pool thread runs with its main thread's budget; the XBEN encoder's threads do not", () => {
    expect(raiseBudgetForVerify(undefined, VERIFY_POOL)).toBe(true);
    expect(raiseBudgetForVerify(undefined, undefined)).toBe(false);
    expect(raiseBudgetForVerify(undefined, 'binlens-xz-blocks')).toBe(false);
  });
});
