import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';

/** A process the control plane started: its PID, its log file and how to end it. */
export interface ManagedProcess {
  readonly name: string;
  readonly pid: number;
  readonly logFile: string;
  /** Resolves with the exit code (or signal) once the process has ended. */
  readonly exited: Promise<number | string>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

const live = new Set<ChildProcess>();
const scratchDirs = new Set<string>();
let hooksInstalled = false;

/**
 * Registers a directory (etcd data in /dev/shm, temp work dirs) to delete if this process exits
 * before its owner cleans up; `release` it after a normal stop.
 */
export function registerScratchDir(dir: string): { release(): void } {
  scratchDirs.add(dir);
  installExitHooks();
  return { release: () => scratchDirs.delete(dir) };
}

/**
 * Starts `binary` with `args`, writing stdout and stderr to `logFile`.
 * Attached processes are killed by PID when this Node process exits for any reason
 * (normal exit, uncaught error, SIGINT/SIGTERM/SIGHUP), so nothing outlives a test run.
 * Detached processes (`groundwork cluster up`) are left running and recorded by the caller.
 */
export function startProcess(opts: {
  name: string;
  binary: string;
  args: string[];
  logFile: string;
  detached?: boolean;
  env?: NodeJS.ProcessEnv;
}): ManagedProcess {
  const fd = openSync(opts.logFile, 'a');
  const child = spawn(opts.binary, opts.args, {
    stdio: ['ignore', fd, fd],
    detached: opts.detached ?? false,
    env: opts.env ?? process.env,
  });
  closeSync(fd);
  let spawnError: Error | undefined;
  // Listen at once: a binary that cannot be spawned emits 'error' on the next tick.
  child.on('error', (err) => (spawnError = err));
  if (child.pid === undefined)
    throw new Error(
      `failed to start ${opts.name} (${opts.binary})${spawnError ? `: ${spawnError.message}` : ''}`,
    );
  const pid = child.pid;
  const exited = new Promise<number | string>((resolve) => {
    child.on('exit', (code, signal) => {
      live.delete(child);
      resolve(code ?? signal ?? 'unknown');
    });
    child.on('error', () => resolve('spawn-error'));
  });
  if (opts.detached) {
    child.unref();
  } else {
    live.add(child);
    installExitHooks();
  }
  return {
    name: opts.name,
    pid,
    logFile: opts.logFile,
    exited,
    async stop(graceMs = 5000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The last `lines` lines of a log file, for error messages. */
export function logTail(logFile: string, lines = 15): string {
  try {
    return readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

function killAllSync(): void {
  for (const child of live) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  live.clear();
  for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
  scratchDirs.clear();
}

function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', killAllSync);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    // Only take over a signal nobody else handles: an application with its own handler
    // (the agent, the quick start) stops the control plane itself; `exit` still backs it up.
    if (process.listenerCount(signal) > 0) continue;
    process.once(signal, () => {
      killAllSync();
      process.kill(process.pid, signal);
    });
  }
}
