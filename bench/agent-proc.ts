// The agent process as the kernel counts it, for `bench agent`: its CPU (/proc/<pid>/stat) and its
// memory, readings of /proc/<pid>/status (sampled over a window: its lowest and highest RSS), the peak RSS since the
// process started (VmHWM), and one reading after a full GC asked through Node's inspector.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** CPU time of process `pid` and its waited-for children so far (ms), from /proc/<pid>/stat. */
export function processCpuMs(pid: number): number {
  const { self, children } = processCpu(pid);
  return self + children;
}

/** CPU time of process `pid` (utime + stime) and of its waited-for children (cutime + cstime) so far, ms. */
export function processCpu(pid: number): { self: number; children: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // utime, stime, cutime, cstime: fields 14 to 17 of the line, 11 to 14 after the command name.
  const f = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .slice(11, 15)
    .map((x) => Number(x) * 10);
  return { self: f[0]! + f[1]!, children: f[2]! + f[3]! };
}

/** One reading of a process's memory, MB. */
export interface ProcMemory {
  /** Resident set (VmRSS): anonymous + file-backed + shared memory pages in RAM. */
  rssMb: number;
  /** Anonymous pages (RssAnon): V8's heap, malloc's arenas, Node's external buffers. */
  anonMb: number;
  /** File-backed pages (RssFile): mostly the `node` binary's own code and data, shared and clean. */
  fileMb: number;
  /** The highest RSS since the process started (VmHWM). */
  peakMb: number;
}

/** `pid`'s memory now, from /proc/<pid>/status. */
export function procMemory(pid: number): ProcMemory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (field: string) => {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    if (!m) throw new Error(`/proc/${pid}/status has no ${field}`);
    return Number(m[1]) / 1024;
  };
  return { rssMb: mb('VmRSS'), anonMb: mb('RssAnon'), fileMb: mb('RssFile'), peakMb: mb('VmHWM') };
}

/**
 * Reads `procMemory(pid)` every `everyMs` until `stop()`, which returns the readings with the
 * lowest and the highest RSS (and how many readings there were).
 */
export function sampleMemory(
  pid: number,
  everyMs = 1000,
): { stop(): { min: ProcMemory; max: ProcMemory; samples: number } } {
  let min = procMemory(pid);
  let max = min;
  let samples = 1;
  const timer = setInterval(() => {
    const now = procMemory(pid);
    samples++;
    if (now.rssMb < min.rssMb) min = now;
    if (now.rssMb > max.rssMb) max = now;
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return { min, max, samples };
    },
  };
}

/**
 * A full garbage collection in the Node process `pid`, asked as one could ask any Node process:
 * SIGUSR1 opens its inspector (on the port its `--inspect-port` names; that flag alone starts
 * nothing), and the DevTools protocol's `HeapProfiler.collectGarbage` runs the GC. The protocol
 * client is a Node of its own (`--experimental-websocket`: Node 20 has no WebSocket client
 * otherwise). Resolves once the GC has run. With `snapshot`, a heap snapshot is written there
 * after the GC (`HeapProfiler.takeHeapSnapshot`; Chrome's DevTools open it in their Memory tab).
 * Leaves the inspector open: call it last.
 */
export async function fullGc(pid: number, inspectPort: number, snapshot?: string): Promise<void> {
  process.kill(pid, 'SIGUSR1');
  let url: string | undefined;
  for (let i = 0; i < 100 && !url; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const targets = await fetch(`http://127.0.0.1:${inspectPort}/json/list`)
      .then((r) => r.json() as Promise<{ webSocketDebuggerUrl?: string }[]>)
      .catch(() => []);
    url = targets[0]?.webSocketDebuggerUrl;
  }
  if (!url) throw new Error(`the agent's inspector did not open on port ${inspectPort}`);
  const client = [
    "const fs = require('node:fs');",
    'const [url, out] = process.argv.slice(1);',
    'const ws = new WebSocket(url);',
    'const chunks = out ? fs.openSync(out, "w") : undefined;',
    "ws.onopen = () => ws.send(JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' }));",
    'ws.onmessage = (e) => {',
    '  const m = JSON.parse(e.data);',
    "  if (m.method === 'HeapProfiler.addHeapSnapshotChunk') fs.writeSync(chunks, m.params.chunk);",
    "  if (m.id === 1 && out) ws.send(JSON.stringify({ id: 2, method: 'HeapProfiler.takeHeapSnapshot' }));",
    '  else if (m.id === 1 || m.id === 2) { ws.close(); process.exit(0); }',
    '};',
    'ws.onerror = () => process.exit(1);',
  ].join('\n');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--experimental-websocket', '-e', client, url, ...(snapshot ? [snapshot] : [])],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`full GC request exited ${code}`)),
    );
  });
}
