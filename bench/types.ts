/**
 * A benchmark case: Binlens doing a job, and where one exists on the machine, the native
 * reference tool doing the same job, each run in a fresh process so time and peak memory are
 * its own. `npm run bench` runs every case several times and reports medians and ratios.
 */
export interface BenchResult {
  /** Items processed (keys, samples, rows, chunks), for items/s. */
  readonly items?: number;
  /** Bytes processed, for MB/s. */
  readonly bytes?: number;
  /**
   * The time of the part the case is about, when that is not the whole run (a page fetched
   * after an index was built, say); the table reports it instead of the run's time.
   */
  readonly timedMs?: number;
  /** Memory the measured work added to the process: peak RSS minus RSS before it began. */
  readonly extraRssMb?: number;
  /** Extra result lines in Markdown (a table of compression ratios, say), printed after the summary. */
  readonly table?: string;
}

export interface BenchCase {
  /** Stable id, e.g. `fst-stream`; `npm run bench -- fst` runs the ids containing "fst". */
  readonly id: string;
  readonly title: string;
  /** Makes the case's input under `data` (bench/.data) once; skipped when it exists. */
  prepare?(data: string): Promise<void>;
  /** The measured Binlens work, in a fresh Node process. */
  run(data: string): Promise<BenchResult>;
  /** The reference tool: a command line, or undefined when the tool is not on this machine. */
  native?(data: string): { readonly label: string; readonly command: readonly string[] } | undefined;
  /** Runs per side (default 5). */
  readonly runs?: number;
}
