import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * The nice value of the pool's job threads: low enough that the threads a person waits on (the
 * extension host, the view threads) take a core whenever they need one, while a verify still
 * gets every cycle nobody else wants. Linux weighs nice values within a scheduling group: with
 * autogroups (a group per session) other sessions' processes are not put ahead by it.
 */
export const JOB_NICE = 10;

/**
 * This thread's id for the kernel (Linux: /proc/thread-self is "PID/task/TID"); undefined on
 * other systems, where a number given to setPriority would name a whole process.
 */
export function ownThreadId(): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined; // no /proc mounted
  }
}

/**
 * Lowers the OS priority of the calling thread only (setpriority on a thread id applies to that
 * thread in Linux), never its process: the extension host is every extension's. A thread already
 * lower stays so (raising it back needs privileges). Returns whether it did; where it cannot, the
 * thread runs at the priority it has.
 */
export function lowerOwnPriority(nice = JOB_NICE): boolean {
  const tid = ownThreadId();
  if (tid === undefined) return false;
  try {
    setPriority(tid, Math.max(nice, getPriority(tid)));
    return true;
  } catch {
    return false;
  }
}
