/**
 * Typed request/response messaging with cancellation, progress events and one-way
 * notifications. The same code connects the webview to the host and the host to its engine
 * worker; each side declares its operations as an `OpMap`.
 */

export interface OpSpec {
  readonly params: unknown;
  readonly result: unknown;
  /** What the operation streams while it runs (progress, rows, findings). */
  readonly event?: unknown;
}

/** A set of operations: each key names one, with its parameter, result and event types. */
export type OpMap<M> = { [K in keyof M]: OpSpec };

export interface ErrorDTO {
  readonly message: string;
  /** FormatError code, or 'internal' for bugs, 'cancelled' for cancellation. */
  readonly code: string;
  readonly offset?: number;
  readonly field?: string;
}

export type Message =
  | { readonly kind: 'request'; readonly id: number; readonly op: string; readonly params: unknown }
  | { readonly kind: 'response'; readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly kind: 'response'; readonly id: number; readonly ok: false; readonly error: ErrorDTO }
  | { readonly kind: 'event'; readonly id: number; readonly event: unknown }
  | { readonly kind: 'cancel'; readonly id: number }
  | { readonly kind: 'notify'; readonly topic: string; readonly payload: unknown };

export interface Transport {
  post(message: Message, transfer?: readonly ArrayBuffer[]): void;
  listen(handler: (message: Message) => void): () => void;
}

export class RpcError extends Error {
  override readonly name = 'RpcError';
  constructor(readonly error: ErrorDTO) {
    super(error.message);
  }
}

type EventOf<S extends OpSpec> = S extends { event: infer E } ? E : never;

export class RpcClient<M extends OpMap<M>> {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void; onEvent?: (e: unknown) => void }>();
  private readonly stop: () => void;

  constructor(private readonly transport: Transport) {
    this.stop = transport.listen((m) => this.receive(m));
  }

  call<K extends keyof M & string>(
    op: K,
    params: M[K]['params'],
    opts: { signal?: AbortSignal; onEvent?: (event: EventOf<M[K]>) => void; transfer?: readonly ArrayBuffer[] } = {},
  ): Promise<M[K]['result']> {
    const id = this.nextId++;
    const { signal } = opts;
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new RpcError({ message: 'cancelled', code: 'cancelled' }));
      const cancel = () => this.transport.post({ kind: 'cancel', id });
      // The listener goes with the call: a signal may outlive it (one cancel for a whole run), and
      // Node 20 keeps an AbortSignal.any() signal, and what its listeners hold, while one is on it.
      const settled =
        <T>(end: (v: T) => void) =>
        (v: T) => {
          signal?.removeEventListener('abort', cancel);
          end(v);
        };
      this.pending.set(id, {
        resolve: settled(resolve as (v: unknown) => void),
        reject: settled(reject),
        onEvent: opts.onEvent as ((e: unknown) => void) | undefined,
      });
      signal?.addEventListener('abort', cancel, { once: true });
      this.transport.post({ kind: 'request', id, op, params }, opts.transfer);
    });
  }

  /** Rejects every call in flight, e.g. when the other side went away. */
  failAll(error: ErrorDTO): void {
    for (const p of this.pending.values()) p.reject(new RpcError(error));
    this.pending.clear();
  }

  dispose(): void {
    this.stop();
    this.failAll({ message: 'connection closed', code: 'cancelled' });
  }

  private receive(m: Message): void {
    if (m.kind === 'response') {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.ok) p.resolve(m.result);
      else p.reject(new RpcError(m.error));
    } else if (m.kind === 'event') {
      this.pending.get(m.id)?.onEvent?.(m.event);
    }
  }
}

export interface OpContext<E> {
  readonly signal: AbortSignal;
  emit(event: E): void;
}

export type Handlers<M extends OpMap<M>> = {
  [K in keyof M]: (params: M[K]['params'], ctx: OpContext<EventOf<M[K]>>) => Promise<M[K]['result']>;
};

/**
 * Serves an OpMap. `validate` runs before a handler sees a request (the host validates every
 * message from the webview); `toError` turns a thrown value into what the client receives.
 */
export class RpcServer<M extends OpMap<M>> {
  private readonly running = new Map<number, AbortController>();
  private readonly stop: () => void;

  constructor(
    private readonly transport: Transport,
    private readonly handlers: Handlers<M>,
    private readonly toError: (e: unknown) => ErrorDTO,
    private readonly validate?: (op: string, params: unknown) => string | undefined,
  ) {
    this.stop = transport.listen((m) => void this.receive(m));
  }

  dispose(): void {
    this.stop();
    for (const c of this.running.values()) c.abort();
    this.running.clear();
  }

  private async receive(m: Message): Promise<void> {
    if (m.kind === 'cancel') {
      this.running.get(m.id)?.abort();
      return;
    }
    if (m.kind !== 'request') return;
    const handler = Object.prototype.hasOwnProperty.call(this.handlers, m.op) ? this.handlers[m.op as keyof M] : undefined;
    const invalid = handler ? this.validate?.(m.op, m.params) : `unknown operation ${JSON.stringify(m.op)}`;
    if (invalid !== undefined) {
      this.transport.post({ kind: 'response', id: m.id, ok: false, error: { message: invalid, code: 'invalid-request' } });
      return;
    }
    const controller = new AbortController();
    this.running.set(m.id, controller);
    try {
      const result = await handler!(m.params as never, {
        signal: controller.signal,
        emit: (event) => this.transport.post({ kind: 'event', id: m.id, event }),
      });
      this.transport.post({ kind: 'response', id: m.id, ok: true, result });
    } catch (e) {
      this.transport.post({ kind: 'response', id: m.id, ok: false, error: this.toError(e) });
    } finally {
      this.running.delete(m.id);
    }
  }
}

/**
 * Two connected transports in one thread, for an engine that runs in the same process (the web
 * build). Messages are delivered asynchronously, as through postMessage.
 */
export function memoryChannel(): [Transport, Transport] {
  const listeners: [((m: Message) => void)[], ((m: Message) => void)[]] = [[], []];
  const end = (me: 0 | 1): Transport => ({
    post: (m) => queueMicrotask(() => listeners[1 - me]!.forEach((l) => l(m))),
    listen: (h) => {
      listeners[me].push(h);
      return () => {
        const i = listeners[me].indexOf(h);
        if (i >= 0) listeners[me].splice(i, 1);
      };
    },
  });
  return [end(0), end(1)];
}
