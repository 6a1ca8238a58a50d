import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { RpcClient, RpcServer, memoryChannel } from './rpc.js';

interface Ops {
  add: { params: { a: number; b: number }; result: number };
  count: { params: { to: number }; result: string; event: number };
  wait: { params: Record<string, never>; result: string };
}

function setup(validate?: (op: string, params: unknown) => string | undefined) {
  const [a, b] = memoryChannel();
  let cancelled = false;
  new RpcServer<Ops>(
    b,
    {
      add: async ({ a: x, b: y }) => x + y,
      count: async ({ to }, { emit }) => {
        for (let i = 1; i <= to; i++) emit(i);
        return 'done';
      },
      wait: ({}, { signal }) =>
        new Promise((resolve, reject) => {
          signal.addEventListener('abort', () => {
            cancelled = true;
            reject(new Error('stopped'));
          });
          void resolve;
        }),
    },
    (e) => ({ message: (e as Error).message, code: 'internal' }),
    validate,
  );
  return { client: new RpcClient<Ops>(a), wasCancelled: () => cancelled };
}

describe('rpc', () => {
  it('answers requests with their results', async () => {
    const { client } = setup();
    expect(await client.call('add', { a: 2, b: 40 })).toBe(42);
  });

  it('delivers events in order before the result', async () => {
    const { client } = setup();
    const seen: number[] = [];
    expect(await client.call('count', { to: 3 }, { onEvent: (e) => seen.push(e) })).toBe('done');
    expect(seen).toEqual([1, 2, 3]);
  });

  it('cancels a running operation through its AbortSignal', async () => {
    const { client, wasCancelled } = setup();
    const controller = new AbortController();
    const call = client.call('wait', {}, { signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toThrow('stopped');
    expect(wasCancelled()).toBe(true);
  });

  it('takes its abort listener off the signal once a call is answered, refused or given up', async () => {
    const { client } = setup((op, p) => (op === 'add' && (p as { a: number }).a < 0 ? 'a must not be negative' : undefined));
    // One signal for many calls (a whole verify run's); Node 20 keeps an AbortSignal.any() signal, and what its listeners hold, while one is on it.
    const signal = AbortSignal.any([new AbortController().signal]);
    for (let i = 0; i < 10; i++) await client.call('add', { a: i, b: 1 }, { signal });
    await expect(client.call('add', { a: -1, b: 1 }, { signal })).rejects.toThrow('a must not be negative');
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    const waiting = client.call('wait', {}, { signal });
    expect(getEventListeners(signal, 'abort')).toHaveLength(1);
    client.dispose();
    await expect(waiting).rejects.toThrow('connection closed');
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('refuses invalid requests and unknown operations before any handler runs', async () => {
    const { client } = setup((op, p) => (op === 'add' && (p as { a: number }).a < 0 ? 'a must not be negative' : undefined));
    await expect(client.call('add', { a: -1, b: 1 })).rejects.toMatchObject({ error: { code: 'invalid-request', message: 'a must not be negative' } });
    await expect((client as unknown as RpcClient<{ evil: { params: null; result: null } }>).call('evil', null)).rejects.toMatchObject({
      error: { code: 'invalid-request' },
    });
  });
});
