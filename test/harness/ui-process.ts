import { spawn, type ChildProcess } from 'node:child_process';
import { BIN } from './cli.js';

/** A running `groundwork ui` process, the URL it printed, and its exit. */
export interface UiProcess {
  child: ChildProcess;
  url: URL;
  exited: Promise<number | null>;
}

/**
 * Starts the real `groundwork ui ARGS` and resolves once it prints its URL; rejects (with its
 * stderr) when it exits first. `track` gets the process at once, so the caller can kill it even
 * when it never prints the URL.
 */
export function startUi(
  args: readonly string[],
  opts: { track: (child: ChildProcess) => void; env?: NodeJS.ProcessEnv },
): Promise<UiProcess> {
  const child = spawn(process.execPath, [BIN, 'ui', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(opts.env ? { env: opts.env } : {}),
  });
  opts.track(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Dashboard \(read-only\): (\S+)\n/.exec(out);
      if (m) resolve({ child, url: new URL(m[1]!), exited });
    });
    void exited.then((code) => reject(new Error(`groundwork ui exited ${code}: ${err}`)));
  });
}
