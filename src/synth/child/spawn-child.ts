import { spawn } from 'node:child_process';
import { GroundworkError, isErrorCode } from '../../core/errors.js';
import { packageRoot } from '../../core/package-root.js';
import type { SynthResult } from '../synthesize.js';
import { SynthValidationError } from '../validation.js';
import type { SynthChildOutput } from './protocol.js';

/** Environment variables the synth child may see: nothing that reaches a cluster or a git server. */
const ALLOWED_ENV = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'HOME'];

/** How `runBundle` starts one synth child. */
export interface RunBundleOptions {
  /** The bundle (`bundleChild`) to run. */
  bundleFile: string;
  /** The checkout (real path): the child's cwd and argument. */
  dir: string;
  /** The checkout the bundle was built in (stack traces name it; mapped back to `dir`). */
  builtIn: string;
  overlay: string | { all: true };
  /** Node flags of the sandbox (`sandboxFlags`). */
  nodeFlags: readonly string[];
  /** @default 60_000 */
  timeoutMs?: number;
  /** @default 1024 */
  memoryMb?: number;
}

/** Runs one synth child and resolves to its results, or rejects with its error. */
export function runBundle(opts: RunBundleOptions): Promise<SynthResult[]> {
  const builtIn = opts.builtIn;
  // A bundle reused from another checkout of the same files names that checkout in stack traces.
  const here = (text: string) => (builtIn === opts.dir ? text : text.split(builtIn).join(opts.dir));
  const env: NodeJS.ProcessEnv = { GROUNDWORK_PACKAGE_ROOT: packageRoot };
  for (const k of ALLOWED_ENV) if (process.env[k] !== undefined) env[k] = process.env[k];
  const args = [
    ...opts.nodeFlags,
    '--no-warnings',
    '--enable-source-maps',
    `--max-old-space-size=${opts.memoryMb ?? 1024}`,
    opts.bundleFile,
    opts.dir,
    typeof opts.overlay === 'string' ? opts.overlay : '--all',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: opts.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    let timedOut = false;
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs ?? 60_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new GroundworkError({ code: 'SynthCrashed', message: e.message, cause: e }));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (timedOut) {
        reject(
          new GroundworkError({
            code: 'SynthTimeout',
            subject: opts.dir,
            message: `synth did not finish within ${(opts.timeoutMs ?? 60_000) / 1000}s`,
            fix: 'look for an endless loop or a slow computation in the platform code',
          }),
        );
        return;
      }
      let parsed: SynthChildOutput | undefined;
      try {
        parsed = JSON.parse(Buffer.concat(out).toString('utf8')) as SynthChildOutput;
      } catch {
        parsed = undefined;
      }
      if (!parsed) {
        const oom = /heap out of memory|Allocation failed/.test(err);
        reject(
          new GroundworkError({
            code: oom ? 'SynthOutOfMemory' : 'SynthCrashed',
            subject: opts.dir,
            message: `synth process ended (${signal ?? `exit ${code}`}) without a result${oom ? `: over the ${opts.memoryMb ?? 1024} MiB heap cap` : ''}\n${here(err.split('\n').slice(-8).join('\n'))}`,
          }),
        );
        return;
      }
      if (parsed.ok) resolve(parsed.results);
      else if (parsed.error.issues) reject(new SynthValidationError(parsed.error.issues));
      else
        reject(
          new GroundworkError({
            code: isErrorCode(parsed.error.code) ? parsed.error.code : 'SynthCrashed',
            message: here(parsed.error.message),
            ...(parsed.error.fix ? { fix: parsed.error.fix } : {}),
          }),
        );
    });
  });
}
