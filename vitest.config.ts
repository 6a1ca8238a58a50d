import { defineConfig } from 'vitest/config';

/**
 * Three projects: fast tests (unit tests beside the code, conformance over ../shared/fixtures,
 * the CLI), the webview in headless Chromium, and the end-to-end run in a real VS Code. They
 * need the build (`npm test` does it first).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/conformance/**/*.test.ts', 'test/cli/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'webview',
          include: ['test/webview/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          // Each file runs its own code-server and Chromium: one at a time on a 2-core machine.
          poolOptions: { forks: { singleFork: true } },
          testTimeout: 180_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
