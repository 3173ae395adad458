import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from './cli.js';

/** A `groundwork renderer` running as a process of its own. */
export interface RendererProcess {
  readonly url: string;
  readonly pid: number;
  /** What it has logged so far (stdout and stderr). */
  log(): string;
  stop(): Promise<void>;
}

/**
 * Starts `groundwork renderer --port 0` on 127.0.0.1 as a separate process whose environment is
 * only `env` plus `PATH`, a fresh `HOME`, `TMPDIR` and cache (none of this process's variables:
 * no planted secret reaches it), and resolves once it listens.
 */
export function startRendererProcess(env: NodeJS.ProcessEnv = {}): Promise<RendererProcess> {
  const home = mkdtempSync(join(tmpdir(), 'gw-renderer-home-'));
  const child = spawn(process.execPath, [BIN, 'renderer', '--port', '0', '--bind', '127.0.0.1'], {
    env: {
      PATH: process.env.PATH,
      HOME: home,
      TMPDIR: home,
      GROUNDWORK_CACHE_DIR: join(home, 'cache'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the renderer did not listen:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const port = /"port":(\d+),"msg":"renderer listening"/.exec(output)?.[1];
      if (!port) return;
      clearTimeout(timer);
      resolve({
        url: `http://127.0.0.1:${port}`,
        pid: child.pid!,
        log: () => output,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the renderer exited (${code}):\n${output}`));
    });
  });
}
