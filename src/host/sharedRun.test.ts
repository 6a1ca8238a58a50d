import { describe, expect, it } from 'vitest';
import { SharedRun } from './sharedRun.js';

describe('SharedRun', () => {
  it('starts once; a caller joining late gets the latest event at once, then the later ones and the same outcome', async () => {
    let starts = 0;
    let emit: (n: number) => void = () => undefined;
    let finish: (r: string) => void = () => undefined;
    const run = new SharedRun<string, number>((e) => {
      starts++;
      emit = e;
      return new Promise((resolve) => (finish = resolve));
    });
    const first: number[] = [];
    const second: number[] = [];
    const a = run.join((n) => first.push(n));
    emit(100);
    const b = run.join((n) => second.push(n));
    emit(200);
    finish('7 differences');
    expect(await a).toBe('7 differences');
    expect(await b).toBe('7 differences');
    expect(first).toEqual([100, 200]);
    expect(second).toEqual([100, 200]);
    expect(starts).toBe(1);
  });

  it('a caller after the end gets the last event and the outcome without a new start; one who left hears nothing more', async () => {
    let starts = 0;
    let emit: (n: number) => void = () => undefined;
    const run = new SharedRun<string, number>(async (e) => {
      starts++;
      emit = e;
      e(5);
      return 'same';
    });
    const early: number[] = [];
    expect(await run.join((n) => early.push(n))).toBe('same');
    emit(6);
    expect(early).toEqual([5]);
    const late: number[] = [];
    expect(await run.join((n) => late.push(n))).toBe('same');
    expect(late).toEqual([6]);
    expect(starts).toBe(1);
  });
});
