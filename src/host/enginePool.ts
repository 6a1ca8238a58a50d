import { RpcError, type RpcClient } from '../protocol/rpc.js';
import { ENGINE_ID_PARAMS, THREAD_MEMORY, type EngineOps } from '../protocol/protocol.js';
import { type DocMemory, planTrims } from './memoryBudget.js';

/** What a client of an engine calls: one worker's RPC, seen through a client's own names. */
export type EngineRpc = Pick<RpcClient<EngineOps>, 'call'>;

/** The params that name a document (not a diff): their calls count as the document's use. */
const DOC_PARAMS = ['doc', 'a', 'b'] as const;

/** Editors and compare views page interactively; verify, convert and dump runs are jobs. */
export type EngineLane = 'view' | 'job';

/** A worker thread the pool can start (engineWorker.ts in the extension, a fake in tests). */
export interface PoolWorker {
  readonly rpc: EngineRpc;
  /** Resolves once the thread has ended. */
  terminate(): Promise<void>;
  /** Called once when the thread ends, by `terminate` or by a crash. */
  onExit(listener: () => void): void;
}

export interface EnginePoolOptions {
  /** Threads in all (`binlens.engine.maxWorkers`). */
  readonly maxWorkers: number;
  /** Starts a thread for a lane (a job lane's runs at a lower OS priority in the extension). */
  readonly start: (lane: EngineLane) => PoolWorker;
  /** A thread with no clients ends after this long (ms): memory goes back while nothing is open. */
  readonly idleMs?: number;
  /**
   * Bytes all documents' caches may hold together (`binlens.memory.budgetMB`); absent = no budget.
   * The pool counts them a moment after clients have asked something and has the least recently
   * used documents give theirs back (memoryBudget.ts).
   */
  readonly budgetBytes?: number;
  /** How long after a call the caches are counted (ms, default 2000): one count for a burst of paging. */
  readonly budgetDelayMs?: number;
  /**
   * With a budget: a document nobody has asked anything for this long (ms, default 5 minutes)
   * gives back its caches even while the total fits, so a window left open for days holds only
   * what is in use.
   */
  readonly idleCachesMs?: number;
}

/** A client's share of a worker: its calls, under names no other client sees; `release` ends it. */
export interface EngineLease {
  readonly rpc: EngineRpc;
  release(): void;
  /**
   * The thread does not answer (a decoder in an endless loop): end it now, whatever it holds.
   * The other clients on it are told by their calls failing ('engine stopped'); every later
   * lease goes to a fresh thread.
   */
  abandon(): void;
}

interface Slot {
  readonly worker: PoolWorker;
  readonly lane: EngineLane;
  clients: number;
  idle?: ReturnType<typeof setTimeout>;
  ended: boolean;
}

/**
 * At most `maxWorkers` engine threads for every open editor and command run, where each used to
 * get a thread of its own (13 MB before it read anything). A thread holds many documents: a
 * client's document ids are prefixed with its lease number, so two editors of one file each say
 * "doc" and never meet. With two threads or more, jobs and views run on separate threads (views
 * on half, rounded up), so a long verify never waits in line before a page. A client goes to the
 * least used thread of its lane, or to a new one while the lane has room. Releasing a lease
 * closes its documents and diffs in the thread (`forget`); a thread left without clients ends
 * after `idleMs`, and a crashed thread is replaced by the next lease.
 */
export class EnginePool {
  private readonly slots: Slot[] = [];
  private nextLease = 1;
  /** Each document's last use (full ids), for the memory budget's order. */
  private readonly lastUse = new Map<string, { order: number; at: number }>();
  private uses = 0;
  private budgetTimer: ReturnType<typeof setTimeout> | undefined;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** A call came since the idle timer was set: it looks again one idle time later. */
  private usedSinceIdleCheck = false;

  constructor(private readonly options: EnginePoolOptions) {}

  /** Threads each lane may use. */
  private capacity(lane: EngineLane): number {
    const max = Math.max(1, Math.floor(this.options.maxWorkers));
    if (max === 1) return 1;
    const views = Math.ceil(max / 2);
    return lane === 'view' ? views : max - views;
  }

  get threads(): number {
    return this.slots.length;
  }

  lease(lane: EngineLane): EngineLease {
    const slot = this.pick(lane);
    slot.clients++;
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = undefined;
    const prefix = `${this.nextLease++}/`;
    const inFlight = new Set<AbortController>();
    let released = false;
    const rpc: EngineRpc = {
      call: (op, params, opts?: Parameters<EngineRpc['call']>[2]) => {
        if (released) return Promise.reject(new Error('engine lease released'));
        if (slot.ended) return Promise.reject(new RpcError({ message: 'engine stopped', code: 'cancelled' }));
        const named: Record<string, unknown> = { ...(params as Record<string, unknown>) };
        for (const key of ENGINE_ID_PARAMS) if (typeof named[key] === 'string') named[key] = prefix + (named[key] as string);
        for (const key of DOC_PARAMS) if (typeof named[key] === 'string') this.lastUse.set(named[key] as string, { order: ++this.uses, at: Date.now() });
        // Releasing the lease cancels its calls: what terminating its own thread used to do.
        const stop = new AbortController();
        inFlight.add(stop);
        const signal = opts?.signal ? AbortSignal.any([opts.signal, stop.signal]) : stop.signal;
        return slot.worker.rpc.call(op, named as typeof params, { ...opts, signal }).finally(() => {
          inFlight.delete(stop);
          this.budgetSoon();
        });
      },
    };
    return {
      rpc,
      release: () => {
        if (released) return;
        released = true;
        for (const stop of inFlight) stop.abort();
        if (slot.ended) return;
        slot.worker.rpc.call('forget', { prefix }).catch(() => undefined);
        for (const doc of this.lastUse.keys()) if (doc.startsWith(prefix)) this.lastUse.delete(doc);
        if (--slot.clients === 0) slot.idle = setTimeout(() => void this.end(slot), this.options.idleMs ?? 30_000);
      },
      abandon: () => void this.end(slot),
    };
  }

  /**
   * Holds every document's caches to the budget: counts them in each thread and has the least
   * recently used give theirs back until the total fits. Returns the documents trimmed.
   */
  async enforceBudget(): Promise<string[]> {
    const budget = this.options.budgetBytes;
    if (budget === undefined) return [];
    const where = new Map<string, { slot: Slot; doc: string }>();
    const docs: DocMemory[] = [];
    await Promise.all(
      this.slots.map(async (slot, i) => {
        const counted = await slot.worker.rpc.call('memory', {}).catch(() => []);
        for (const { doc, bytes } of counted) {
          // A thread's own memory (its grown WebAssembly heaps) has no user: it goes first.
          const key = doc === THREAD_MEMORY ? `thread ${i}` : doc;
          where.set(key, { slot, doc });
          docs.push({ doc: key, bytes, lastUse: this.lastUse.get(key)?.order ?? 0 });
        }
      }),
    );
    const idleSince = Date.now() - this.idleCachesMs();
    const idle = docs.filter((d) => d.bytes > 0 && (this.lastUse.get(d.doc)?.at ?? 0) <= idleSince).map((d) => d.doc);
    const trims = [...new Set([...idle, ...planTrims(docs, budget)])];
    await Promise.all(
      trims.map((key) => {
        const { slot, doc } = where.get(key)!;
        return slot.worker.rpc.call('trim', { doc }).catch(() => undefined);
      }),
    );
    return trims;
  }

  private idleCachesMs(): number {
    return this.options.idleCachesMs ?? 5 * 60_000;
  }

  /**
   * Counts the caches a moment after the last call, once for a burst of calls; and an idle time
   * later, for the documents left alone since, again while calls go on. A quiet pool sets no timer.
   */
  private budgetSoon(): void {
    if (this.options.budgetBytes === undefined) return;
    this.budgetTimer ??= setTimeout(() => {
      this.budgetTimer = undefined;
      void this.enforceBudget();
    }, this.options.budgetDelayMs ?? 2000);
    this.usedSinceIdleCheck = true;
    const idleCheck = (): void => {
      this.usedSinceIdleCheck = false;
      this.idleTimer = setTimeout(() => {
        this.idleTimer = undefined;
        void this.enforceBudget();
        if (this.usedSinceIdleCheck) idleCheck();
      }, this.idleCachesMs());
    };
    if (!this.idleTimer) idleCheck();
  }

  /** Ends every thread (the extension's deactivation); resolves once they have ended. */
  async dispose(): Promise<void> {
    clearTimeout(this.budgetTimer);
    clearTimeout(this.idleTimer);
    this.budgetTimer = this.idleTimer = undefined;
    const ending: Promise<void>[] = [];
    while (this.slots.length > 0) ending.push(this.end(this.slots[0]!));
    await Promise.all(ending);
  }

  private pick(lane: EngineLane): Slot {
    const mine = this.slots.filter((s) => s.lane === this.laneOf(lane) && !s.ended);
    const least = mine.reduce<Slot | undefined>((best, s) => (best === undefined || s.clients < best.clients ? s : best), undefined);
    if (least && (least.clients === 0 || mine.length >= this.capacity(lane))) return least;
    const worker = this.options.start(this.laneOf(lane));
    const slot: Slot = { worker, lane: this.laneOf(lane), clients: 0, ended: false };
    worker.onExit(() => this.forgetSlot(slot));
    this.slots.push(slot);
    return slot;
  }

  /** With one thread, both lanes share it. */
  private laneOf(lane: EngineLane): EngineLane {
    return Math.floor(this.options.maxWorkers) <= 1 ? 'view' : lane;
  }

  private end(slot: Slot): Promise<void> {
    if (slot.ended) return Promise.resolve();
    this.forgetSlot(slot);
    return slot.worker.terminate();
  }

  private forgetSlot(slot: Slot): void {
    slot.ended = true;
    if (slot.idle) clearTimeout(slot.idle);
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
  }
}
