/** A file's verify passed its deadline: its signal is aborted with this reason. */
export class DeadlineExceeded extends Error {
  override readonly name = 'DeadlineExceeded';
  constructor(readonly ms: number) {
    super(`no answer in ${Math.round(ms / 1000)} s`);
  }
}

export interface VerifyQueueOptions<F, R> {
  /** Files verified at once. */
  readonly parallel: number;
  /** The user's cancel: no file starts after it, and the files in flight are told. */
  readonly signal: AbortSignal;
  /** How long a file may take before its signal is aborted with `DeadlineExceeded`. */
  readonly deadlineMs: (file: F) => number;
  /**
   * Verifies one file. Its signal aborts on cancel or at the file's deadline; at the deadline it
   * still answers (the file reported as not answering), on cancel it answers 'cancelled'.
   */
  readonly verify: (file: F, signal: AbortSignal) => Promise<R | 'cancelled'>;
  /** Each file as it is done, in the order they finish: `done` of `total`. */
  readonly report: (file: F, result: R, done: number, total: number) => void;
}

/**
 * Verifies files `parallel` at a time and reports each as it finishes, so a folder of 10 000
 * files streams into the Problems panel and the log instead of arriving at the end. A file
 * that hangs holds its place only until its deadline: the caller ends the thread it hangs in
 * (enginePool.ts `abandon`) and the queue goes on with the next file.
 */
export async function runVerifyQueue<F, R>(files: readonly F[], options: VerifyQueueOptions<F, R>): Promise<void> {
  let next = 0;
  let done = 0;
  const lane = async (): Promise<void> => {
    while (next < files.length && !options.signal.aborted) {
      const file = files[next++]!;
      const ms = options.deadlineMs(file);
      const stop = new AbortController();
      const timer = setTimeout(() => stop.abort(new DeadlineExceeded(ms)), ms);
      try {
        const result = await options.verify(file, AbortSignal.any([options.signal, stop.signal]));
        if (result === 'cancelled') return;
        options.report(file, result, ++done, files.length);
      } finally {
        clearTimeout(timer);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(files.length, Math.max(1, options.parallel)) }, lane));
}

/**
 * `work`, or the signal's reason once it aborts, whichever comes first: a call into a thread
 * stuck in a loop never settles, and its cancel is never answered.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
