/**
 * One long operation several callers join, started by the first: a compare view's page asks for
 * its diff each time it loads (shown again after being hidden, it starts afresh), and the diff
 * must run once. A caller that joins late gets the latest progress at once, then every later
 * event, then the outcome all callers share.
 */
export class SharedRun<R, E> {
  private result: Promise<R> | undefined;
  private latest: { readonly event: E } | undefined;
  private readonly listeners = new Set<(event: E) => void>();

  constructor(private readonly start: (emit: (event: E) => void) => Promise<R>) {}

  async join(onEvent: (event: E) => void): Promise<R> {
    this.listeners.add(onEvent);
    if (this.latest) onEvent(this.latest.event);
    try {
      return await (this.result ??= this.start((event) => {
        this.latest = { event };
        for (const l of this.listeners) l(event);
      }));
    } finally {
      this.listeners.delete(onEvent);
    }
  }
}
