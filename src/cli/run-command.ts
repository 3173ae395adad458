import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/** Runs a program without a shell and resolves to its stdout; rejects with its stderr. */
export async function runCommand(
  cmd: string,
  args: readonly string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<string> {
  const { stdout } = await promisify(execFile)(cmd, [...args], {
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env },
  });
  return stdout;
}
