/** A thread that says when it has ended. */
export interface Ending {
  onExit(listener: () => void): void;
}

/**
 * Starts threads with `start(holds, ...args)`, the caller's arguments passed on, where `holds` is
 * true for one thread at a time: the first started while no living thread holds it. For the BLAKE3 addon, which the engine threads must
 * not use two at once: with it in two verify threads the process died of SIGSEGV inside the
 * addon (napi-rs) in 1 run of 3 over 10 000 files, and in the extension host that process is
 * every extension's. The others hash with hash-wasm.
 */
export function singleHolder<W extends Ending, A extends unknown[] = []>(start: (holds: boolean, ...args: A) => W): (...args: A) => W {
  let held = false;
  return (...args) => {
    const holds = !held;
    const worker = start(holds, ...args);
    if (holds) {
      held = true;
      worker.onExit(() => {
        held = false;
      });
    }
    return worker;
  };
}
