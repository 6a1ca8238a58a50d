import { describe, expect, it } from 'vitest';
import { lazyDiff, lazyPanel, once } from './lazy.js';
import type { DiffSpec, FormatDocument, Panel, TaskContext } from './model.js';

describe('once', () => {
  it('shares one load between callers', async () => {
    let loads = 0;
    const get = once(async () => ++loads);
    expect(await Promise.all([get(), get()])).toEqual([1, 1]);
    expect(await get()).toBe(1);
  });

  it('tries again after a failed load', async () => {
    let loads = 0;
    const get = once(async () => {
      if (++loads === 1) throw new Error('first load fails');
      return loads;
    });
    await expect(get()).rejects.toThrow('first load fails');
    expect(await get()).toBe(2);
  });
});

describe('lazyPanel', () => {
  it('lists its head without loading, and loads once when first drawn', async () => {
    let loads = 0;
    const drawn: unknown[] = [];
    const panel = lazyPanel({ id: 'p', title: 'P', kind: 'chart', params: [] }, async () => {
      loads++;
      return {
        id: 'p',
        title: 'P',
        kind: 'chart',
        data: async (params) => (drawn.push(params), { kind: 'chart', chart: 'bar', xLabel: '', yLabel: '', series: [] }),
      } satisfies Panel;
    });
    expect({ id: panel.id, title: panel.title, kind: panel.kind, params: panel.params, loads }).toEqual({
      id: 'p',
      title: 'P',
      kind: 'chart',
      params: [],
      loads: 0,
    });
    await panel.data({ sample: 1 });
    await panel.data({ sample: 2 });
    expect(loads).toBe(1);
    expect(drawn).toEqual([{ sample: 1 }, { sample: 2 }]);
  });
});

describe('lazyDiff', () => {
  it('runs the loaded diff with the same arguments and returns its summary', async () => {
    const seen: unknown[] = [];
    const inner: DiffSpec = {
      async *run(other, ctx, options) {
        seen.push(other, ctx, options);
        yield { kind: 'k', at: 'a', text: 't' };
        return { differences: 1, counts: { k: 1 } };
      },
    };
    const other = {} as FormatDocument;
    const ctx = {} as TaskContext;
    const run = lazyDiff(async () => inner).run(other, ctx, { key: 'id' });
    expect(await run.next()).toEqual({ done: false, value: { kind: 'k', at: 'a', text: 't' } });
    expect(await run.next()).toEqual({ done: true, value: { differences: 1, counts: { k: 1 } } });
    expect(seen).toEqual([other, ctx, { key: 'id' }]);
  });
});
