import type { XzEncodeOptions } from './encode.js';

/**
 * Encoders on other threads that a host lends (the Node hosts: blockWorkers.node.ts); core has no
 * threads of its own. This module is only the lending, so a host's start loads no codec for it.
 */
export interface XzBlockEncoders {
  readonly threads: number;
  /** Compresses one block's data into a whole one-block .xz stream; `data` is handed over (transferred), not kept by the caller. */
  encode(data: Uint8Array, opts: XzEncodeOptions): Promise<Uint8Array>;
  /** Starts the threads ahead of the first block, so they are ready when it is. */
  warm(): void;
  /** Ends the threads; called once the writer is done with them. */
  close(): void;
}

let startEncoders: (() => Promise<XzBlockEncoders>) | undefined;

/** Called by a host at start: each parallel xz writer then starts its encoders through `start`. */
export function lendXzBlockEncoders(start: (() => Promise<XzBlockEncoders>) | undefined): void {
  startEncoders = start;
}

/** Encoders for one writer, when a host lent them. */
export function startXzBlockEncoders(): Promise<XzBlockEncoders | undefined> {
  return startEncoders?.() ?? Promise.resolve(undefined);
}
