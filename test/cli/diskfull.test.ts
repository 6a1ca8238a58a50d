import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binlens } from '../helpers/cli.js';

/**
 * A conversion that runs out of disk space says so and leaves nothing behind. The full disk is
 * a 64 KiB tmpfs, which needs root (CI runs as root); elsewhere the test says why it is skipped.
 */
const root = process.getuid?.() === 0;

describe.runIf(root)('convert on a full disk', () => {
  const full = mkdtempSync(join(tmpdir(), 'binlens-full-'));
  const work = mkdtempSync(join(tmpdir(), 'binlens-input-'));
  let mounted = false;

  beforeAll(() => {
    mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', full]).status === 0;
  });

  afterAll(() => {
    if (mounted) spawnSync('umount', [full]);
    rmSync(full, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  it('reports ENOSPC with exit 2 and leaves no partial or temporary file', async () => {
    expect(mounted, 'mounting a tmpfs failed').toBe(true);
    const input = join(work, 'random.bin');
    writeFileSync(input, randomBytes(1 << 20));
    const r = await binlens('convert', input, join(full, 'random.bindu'), '--to', 'bindu-bytes');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/ENOSPC|no space left/i);
    expect(readdirSync(full)).toEqual([]);
  });
});

if (!root) console.warn('convert on a full disk: skipped, mounting a tmpfs needs root');
