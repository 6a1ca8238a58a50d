import { readFileSync } from 'node:fs';
import { defineConfig, type Plugin } from 'vitest/config';

/** `.wasm` imports are the file's bytes, as esbuild's `binary` loader makes them in the build. */
const wasmBytes: Plugin = {
  name: 'wasm-bytes',
  enforce: 'pre',
  load(id) {
    if (!id.endsWith('.wasm')) return null;
    return `export default Uint8Array.from(atob(${JSON.stringify(readFileSync(id).toString('base64'))}), (c) => c.charCodeAt(0));`;
  },
};

/**
 * Three projects: fast tests (unit tests beside the code, conformance over ../shared/fixtures,
 * the CLI), the webview in headless Chromium, and the end-to-end run in a real VS Code. They
 * need the build (`npm test` does it first).
 */
export default defineConfig({
  plugins: [wasmBytes],
  test: {
    // node-liblzma is ESM that imports a .wasm: it must go through the plugin, not Node's loader.
    server: { deps: { inline: ['node-liblzma'] } },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'src/**/*.test.ts',
            'webview/**/*.test.ts',
            'bench/**/*.test.ts',
            'test/conformance/**/*.test.ts',
            'test/cli/**/*.test.ts',
            'test/corpus/**/*.test.ts',
            'test/fuzz/**/*.test.ts',
          ],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'webview',
          include: ['test/webview/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          // Each file starts its own code-server and Chromium: side by side on two cores, clicks and
          // multi-selections time out, so the e2e files run one after another in one fork.
          pool: 'forks',
          poolOptions: { forks: { singleFork: true } },
          testTimeout: 180_000,
          hookTimeout: 240_000,
        },
      },
      {
        extends: true,
        test: {
          // Measurements at scale (the host's event loop while a 2 GB file is verified): npm test
          // runs this project on its own, after the others, so no other test shares the cores.
          name: 'scale',
          include: ['test/scale/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          poolOptions: { forks: { singleFork: true } },
          testTimeout: 600_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
