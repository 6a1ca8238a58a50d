import { readdirSync, readFileSync } from 'node:fs';

/**
 * The extension host of one code-server, seen from /proc: Binlens's engine workers are threads of
 * that process, so its VmRSS is the host and its workers together, and its thread and descriptor
 * counts are what a leaked worker, timer-held handle or open file would raise.
 */
export interface HostUsage {
  readonly pid: number;
  readonly rssBytes: number;
  readonly threads: number;
  readonly fds: number;
}

/**
 * The extension host whose environment has this XDG_CONFIG_HOME (each code-server of session.ts
 * gets its own), waiting up to `waitMs` for it: the palette lists Binlens's commands from its
 * manifest before the host runs, and on a loaded machine a CI try looked before it had started (a
 * host that restarts is two processes for a moment).
 */
export async function extensionHostPid(xdgConfigHome: string, waitMs = 30_000): Promise<number> {
  const until = Date.now() + waitMs;
  for (;;) {
    const found = extensionHostPids(xdgConfigHome);
    if (found.length === 1) return found[0]!;
    if (Date.now() > until) throw new Error(`expected one extension host for ${xdgConfigHome}, found ${found.length}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function extensionHostPids(xdgConfigHome: string): number[] {
  const marker = `XDG_CONFIG_HOME=${xdgConfigHome}`;
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!readFileSync(`/proc/${name}/cmdline`, 'latin1').includes('--type=extensionHost')) continue;
      if (readFileSync(`/proc/${name}/environ`, 'latin1').split('\0').includes(marker)) found.push(Number(name));
    } catch {
      // A process that ended while we looked.
    }
  }
  return found;
}

export function hostUsage(pid: number): HostUsage {
  const status = readFileSync(`/proc/${pid}/status`, 'latin1');
  const field = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  return { pid, rssBytes: field('VmRSS') * 1024, threads: field('Threads'), fds: readdirSync(`/proc/${pid}/fd`).length };
}

export function mb(bytes: number): string {
  return (bytes / 2 ** 20).toFixed(0);
}
