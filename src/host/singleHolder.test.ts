import { describe, expect, it } from 'vitest';
import { singleHolder } from './singleHolder.js';

describe('one thread at a time holds the native hasher', () => {
  it('goes to the first thread, and to the next one started after that thread has ended', () => {
    const threads: { holds: boolean; exit?: () => void }[] = [];
    const start = singleHolder((holds) => {
      const t: { holds: boolean; exit?: () => void } = { holds };
      threads.push(t);
      return { onExit: (l: () => void) => void (t.exit = l) };
    });
    start();
    start();
    start();
    expect(threads.map((t) => t.holds)).toEqual([true, false, false]);
    // A thread that does not hold it ending changes nothing.
    threads[1]!.exit?.();
    start();
    expect(threads[3]!.holds).toBe(false);
    threads[0]!.exit!();
    start();
    start();
    expect(threads.slice(4).map((t) => t.holds)).toEqual([true, false]);
  });
});
