import { spawnSync } from 'node:child_process';
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

/** Asks an inspector (its WebSocket URL the argument) to collect garbage twice, then exits 0. */
const COLLECT = `
const ws = new WebSocket(process.argv[1]);
const send = (id) => ws.send(JSON.stringify({ id, method: 'HeapProfiler.collectGarbage' }));
ws.onopen = () => send(1);
ws.onmessage = (e) => { const { id } = JSON.parse(e.data); if (id === 1) send(2); else if (id === 2) process.exit(0); };
ws.onerror = () => process.exit(1);
`;

/**
 * Has the extension host collect its garbage, so that a memory sample counts what it holds and
 * not what V8 has yet to free (idle, Node collects only when it allocates): SIGUSR1 opens Node's
 * inspector on 127.0.0.1:9229, and a child Node asks it. Its first call adds the inspector's
 * thread, so call it before every sample that is compared. False when no inspector of this
 * code-server answered; the sample then counts the garbage too.
 */
export async function collectGarbage(pid: number): Promise<boolean> {
  process.kill(pid, 'SIGUSR1');
  const until = Date.now() + 5000;
  while (Date.now() < until) {
    const targets = await fetch('http://127.0.0.1:9229/json/list')
      .then((r) => r.json() as Promise<{ title: string; webSocketDebuggerUrl: string }[]>)
      .catch(() => []);
    // Its title is the main script's path: code-server's bootstrap.
    const host = targets.find((t) => t.title.includes('code-server'));
    if (host) return spawnSync(process.execPath, ['--experimental-websocket', '-e', COLLECT, host.webSocketDebuggerUrl], { timeout: 30_000 }).status === 0;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

export function mb(bytes: number): string {
  return (bytes / 2 ** 20).toFixed(0);
}
