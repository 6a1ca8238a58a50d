import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * A fresh folder under the system's temporary folder, removed after the last test of the file or
 * describe block that made it, whether the tests passed or not: call it at file or describe level.
 */
export function scratchDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `binlens-${name}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
