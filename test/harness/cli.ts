import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The `groundwork` command of this checkout. */
export const BIN = fileURLToPath(new URL('../../bin/groundwork.js', import.meta.url));

export interface CliResult {
  /** Exit code; 1 when the process died of a signal. */
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real CLI in a child process (the same entry point users run) and resolves to its exit
 * code and output; never rejects on a non-zero exit.
 * @example
 * const { code, stderr } = await groundwork(['synth', '--dir', repo]);
 */
export function groundwork(
  args: readonly string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      {
        cwd: opts.cwd,
        env: { ...process.env, ...opts.env },
        maxBuffer: 1 << 26,
        ...(opts.timeoutMs ? { timeout: opts.timeoutMs } : {}),
      },
      (_err, stdout, stderr) => resolve({ code: child.exitCode ?? 1, stdout, stderr }),
    );
  });
}
