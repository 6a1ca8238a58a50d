import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

/**
 * A worker thread's entry bundled as scripts/build.mjs bundles dist/'s (WebAssembly inlined), into
 * a temporary directory: tests start real threads from it without a build. `remove` deletes it.
 */
export async function bundleWorker(entry: string, format: 'esm' | 'cjs'): Promise<{ path: string; remove: () => void }> {
  const path = join(mkdtempSync(join(tmpdir(), 'binlens-worker-')), format === 'esm' ? 'worker.mjs' : 'worker.cjs');
  await build({ entryPoints: [entry], outfile: path, bundle: true, platform: 'node', format, loader: { '.wasm': 'binary' }, logLevel: 'warning' });
  return { path, remove: () => rmSync(dirname(path), { recursive: true, force: true }) };
}
