// Running one sandboxed process to its end with everything it can send bounded: its result frame
// on fd 3, its log on stdout and stderr, its time and its resident memory.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { RESULT_FD } from './protocol.js';

/** Why the parent stopped a child before it ended by itself. */
export type ChildStop = 'timeout' | 'result-cap' | 'log-cap' | 'memory';

/** How much of stdout and stderr is read before the process is stopped (`log-cap`). */
export const LOG_CAP_BYTES = 16 * 1024 * 1024;

/** How many characters of that output are kept (for the last lines an error quotes). */
const LOG_TAIL_CHARS = 4000;

/** How often the resident memory of a process with `rssCapBytes` is read. */
const RSS_POLL_MS = 100;

/** One process to run (`argv[0]` an absolute path), and its bounds. */
export interface SupervisedRun {
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Written to its stdin, which is then closed. */
  readonly stdin: string;
  readonly timeoutMs: number;
  /** The most read of fd 3 before the process is stopped (`result-cap`). */
  readonly frameCapBytes: number;
  /** Its resident set (`/proc/<pid>/status`), polled every 100 ms: past it, `memory`. @default none */
  readonly rssCapBytes?: number;
}

/** How a supervised process ended, and what it sent. */
export interface SupervisedExit {
  readonly exit: { code: number | null; signal: NodeJS.Signals | null };
  /** Why it was stopped, when it did not end by itself. */
  readonly stopped?: ChildStop | undefined;
  /** What it wrote to fd 3 (empty past `frameCapBytes`). */
  readonly frame: Buffer;
  /** The last 4000 characters it wrote to stdout and stderr. */
  readonly log: string;
}

/**
 * Starts `run.argv` as the leader of a new process group (`detached`: `kill(0)` from inside reaches
 * only its own group) and resolves once it has ended. On a timeout, past a cap, or past its memory
 * budget, SIGKILL goes to its whole group. What this process holds stays bounded whatever the
 * child writes. Rejects only when the process cannot be started.
 */
export function supervise(run: SupervisedRun): Promise<SupervisedExit> {
  return new Promise((resolve, reject) => {
    const child = spawn(run.argv[0]!, run.argv.slice(1), {
      cwd: run.cwd,
      env: run.env,
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
      detached: true,
    });
    child.stdin!.on('error', () => {}); // a process that dies before reading its input
    child.stdin!.end(run.stdin);
    let stopped: ChildStop | undefined;
    const stop = (why: ChildStop) => {
      stopped ??= why;
      killGroup(child);
    };
    const frame = collect(child.stdio[RESULT_FD] as Readable, run.frameCapBytes, () => stop('result-cap'));
    const log = { text: '', bytes: 0 };
    for (const stream of [child.stdout!, child.stderr!]) {
      stream.on('data', (d: Buffer) => {
        log.bytes += d.length;
        // Decodes at most the tail of each chunk: memory stays bounded however much is written.
        log.text = (log.text + d.subarray(-LOG_TAIL_CHARS).toString()).slice(-LOG_TAIL_CHARS);
        if (log.bytes > LOG_CAP_BYTES) stop('log-cap');
      });
    }
    const timer = setTimeout(() => stop('timeout'), run.timeoutMs);
    const poll =
      run.rssCapBytes === undefined
        ? undefined
        : setInterval(() => {
            const rss = residentBytes(child.pid);
            if (rss !== undefined && rss > run.rssCapBytes!) stop('memory');
          }, RSS_POLL_MS);
    const done = () => {
      clearTimeout(timer);
      if (poll) clearInterval(poll);
    };
    child.on('error', (e) => {
      done();
      reject(e);
    });
    child.on('close', (code, signal) => {
      done();
      resolve({ exit: { code, signal }, stopped, frame: frame(), log: log.text });
    });
  });
}

/** The resident set of `pid` in bytes (`VmRSS` of `/proc/<pid>/status`), or undefined when unreadable. */
export function residentBytes(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const kb = /^VmRSS:\s*(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'latin1'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/** Buffers `stream` up to `cap` bytes; past it, calls `onOverflow` and keeps nothing more. */
function collect(stream: Readable, cap: number, onOverflow: () => void): () => Buffer {
  const chunks: Buffer[] = [];
  let size = 0;
  stream.on('data', (d: Buffer) => {
    if (size + d.length > cap) {
      size = cap + 1;
      chunks.length = 0;
      onOverflow();
      return;
    }
    size += d.length;
    chunks.push(d);
  });
  return () => Buffer.concat(chunks);
}

/** SIGKILL to the child's whole process group (it leads one: `detached`); it may be gone already. */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // ESRCH: the group ended on its own.
  }
}
