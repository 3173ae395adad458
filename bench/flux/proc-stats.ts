// What the Flux benchmark reads about processes and the apiserver: CPU and memory from Linux /proc,
// requests from the apiserver's audit log.
import { readFileSync } from 'node:fs';

/** utime + stime of a process, in milliseconds (Linux /proc). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // USER_HZ is 100 on Linux
}

/** Resident and peak resident memory of a process, in MB. */
export function memoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** The audit log's length now: pass it to `requestsSince` later. */
export function auditOffset(log: string): number {
  return readFileSync(log, 'utf8').length;
}

/** Audit-log lines since `offset` whose user agent starts with `agent`. */
export function requestsSince(
  log: string,
  offset: number,
  agent: string,
): { total: number; writes: number; lists: number } {
  const lines = readFileSync(log, 'utf8').slice(offset).split('\n').filter(Boolean);
  let total = 0;
  let writes = 0;
  let lists = 0;
  for (const line of lines) {
    const e = JSON.parse(line) as { userAgent?: string; verb?: string; stage?: string };
    if (e.stage !== 'ResponseComplete' || !e.userAgent?.startsWith(agent)) continue;
    total++;
    if (e.verb === 'list') lists++;
    if (!['get', 'list', 'watch'].includes(e.verb ?? '')) writes++;
  }
  return { total, writes, lists };
}
