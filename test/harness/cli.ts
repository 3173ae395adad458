import { execFile } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import type { K8sObject } from '../../src/core/object.js';
import { TEST_CLI } from './cli-build.js';

/**
 * The `groundwork` command of this checkout: the run's build of its sources (`cli-build.ts`, named by
 * the global setup), else the checkout's `bin/groundwork.js`, which runs the sources through tsx.
 */
export const BIN =
  process.env[TEST_CLI] || fileURLToPath(new URL('../../bin/groundwork.js', import.meta.url));

/** The package directory of the `groundwork` that `BIN` runs (what it names as its own package). */
export const BIN_PACKAGE_ROOT = dirname(dirname(BIN));

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

/** `groundwork synth --dir DIR` run in DIR through the real CLI, with the objects of its stdout parsed. */
export async function cliSynth(dir: string): Promise<{ code: number; objects: K8sObject[]; stderr: string }> {
  const { code, stdout, stderr } = await groundwork(['synth', '--dir', dir], { cwd: dir });
  const objects = parseAllDocuments(stdout)
    .map((d) => d.toJS() as K8sObject)
    .filter(Boolean);
  return { code, objects, stderr };
}
