import { spawn, type ChildProcess } from 'node:child_process';
import { BIN } from '../harness/cli.js';

/** A running `groundwork git serve`, as a user starts it: the printout read, the process kept. */
export interface ServeProcess {
  readonly child: ChildProcess;
  readonly stdout: string;
  readonly url: string;
  /** From the printed agent command; undefined with `--no-token`. */
  readonly token: string | undefined;
  /** The printed agent command line. */
  readonly agentLine: string;
  /** SIGINT (Ctrl-C); resolves with the exit code. */
  interrupt(): Promise<number | null>;
}

/** Starts the real CLI's `git serve ARGS` in `cwd` and waits (60 s at most) for its printout. */
export function startServe(args: readonly string[], cwd: string): Promise<ServeProcess> {
  const child = spawn(process.execPath, [BIN, 'git', 'serve', ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`git serve printed no URL: ${stdout}${stderr}`));
    }, 60_000);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`git serve exited ${code}: ${stdout}${stderr}`));
    });
    child.stdout!.on('data', () => {
      if (!stdout.includes('Ctrl-C stops it.')) return;
      clearTimeout(timer);
      const agentLine = stdout
        .split('\n')
        .find((l) => l.includes('groundwork agent'))!
        .trim();
      resolve({
        child,
        stdout,
        url: /--repo (\S+)/.exec(agentLine)![1]!,
        token: /GROUNDWORK_GIT_TOKEN=(\S+)/.exec(agentLine)?.[1],
        agentLine,
        interrupt: async () => {
          child.kill('SIGINT');
          return exited;
        },
      });
    });
  });
}
