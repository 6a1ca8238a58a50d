/**
 * An importer's run as every caller makes it (`binlens convert` of a non-binary input, the
 * editor's Convert on a .jsonl or .csv): the input opened through the host, scratch space for
 * sorts larger than memory, the output written atomically, and all of it released however the
 * run ends.
 */
import type { ByteSource } from '../io/byteSource.js';
import type { ConvertReport, Importer, OptionValues, OutputTarget, ScratchSpace, TaskContext } from '../model.js';

/** Files to read, atomic outputs and scratch space: the CLI's Node files, or the engine's `Platform` (which extends it). */
export interface FileHost {
  openPath(path: string): Promise<ByteSource>;
  writeOutput<T>(
    out: string,
    opts: { force: boolean; inputs: readonly string[]; kind: 'file' | 'folder' },
    run: (target: OutputTarget) => Promise<T>,
  ): Promise<T>;
  /** Temporary files for imports that sort more than fits in memory; absent = in memory only. */
  scratch?(): Promise<ScratchSpace & { dispose(): Promise<void> }>;
}

export interface ImportJob {
  readonly input: string;
  readonly out: string;
  readonly force: boolean;
  readonly options: OptionValues;
}

export async function importFile(
  importer: Importer,
  job: ImportJob,
  host: FileHost,
  ctx: Pick<TaskContext, 'signal' | 'progress'> = {},
): Promise<ConvertReport> {
  const src = await host.openPath(job.input);
  try {
    const scratch = await host.scratch?.();
    try {
      return await host.writeOutput(job.out, { force: job.force, inputs: [job.input], kind: importer.output }, (target) =>
        importer.run(src, target, { ...ctx, scratch, openPath: (p) => host.openPath(p) }, job.options),
      );
    } finally {
      await scratch?.dispose();
    }
  } finally {
    await src.close?.();
  }
}
