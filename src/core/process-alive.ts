import { readFileSync } from 'node:fs';

/**
 * True when a process with this PID exists and is not a zombie: signal 0 reaches it, or is refused
 * because it belongs to another user (EPERM: it exists); and /proc does not show it as exited and
 * waiting to be reaped. Where /proc cannot be read, signal 0 alone decides.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.split(') ')[1]?.[0] !== 'Z';
  } catch {
    return true;
  }
}
