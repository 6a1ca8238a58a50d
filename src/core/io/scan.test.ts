import { describe, expect, it } from 'vitest';
import { TimeSlice } from './scan.js';

describe('TimeSlice', () => {
  it('is spent once 4 ms have passed since it began, and a new slice begins then', () => {
    let now = 100;
    const slice = new TimeSlice(() => now);
    now = 103.9;
    expect(slice.spent()).toBe(false);
    now = 104;
    expect(slice.spent()).toBe(true);
    // The new slice began at 104, not at 100.
    now = 107;
    expect(slice.spent()).toBe(false);
    now = 108.5;
    expect(slice.spent()).toBe(true);
    expect(slice.spent()).toBe(false);
  });
});
