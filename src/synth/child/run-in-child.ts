import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { GroundworkError } from '../../core/errors.js';
import type { SynthResult } from '../synthesize.js';
import { SynthValidationError } from '../validation.js';
import type { SynthChildOutput } from './protocol.js';

export interface ChildSynthOptions {
  /** Repository checkout holding groundwork.yaml. */
  dir: string;
  /** One overlay, or every overlay. */
  overlay: string | { all: true };
  /** Kill the child after this long. @default 60_000 */
  timeoutMs?: number;
  /** V8 heap cap of the child in MiB. @default 1024 */
  memoryMb?: number;
}

/** Environment variables the synth child may see: nothing that reaches a cluster or a git server. */
const ALLOWED_ENV = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'HOME'];

// From the sources (tsx) the child is main.ts; from a build (dist/) it is main.js.
const MAIN = fileURLToPath(
  new URL(import.meta.url.endsWith('.ts') ? './main.ts' : './main.js', import.meta.url),
);
const HOOKS = fileURLToPath(new URL('./register-hooks.mjs', import.meta.url));

/**
 * Synthesizes in a separate Node process with a timeout and a heap cap, and an environment
 * stripped to `ALLOWED_ENV`: no kubeconfig, no service-account variables, no git credentials.
 * Platform code is untrusted input; a crash, an endless loop or a memory blow-up in it cannot
 * take the agent down. Rejects with the same errors in-process synth throws (SynthValidationError
 * with every issue, or a GroundworkError with code CompileFailed, BuildFailed, SynthTimeout, SynthCrashed).
 */
export function synthesizeInChild(opts: ChildSynthOptions): Promise<SynthResult[]> {
  const env: NodeJS.ProcessEnv = {};
  for (const k of ALLOWED_ENV) if (process.env[k] !== undefined) env[k] = process.env[k];
  const args = [
    `--max-old-space-size=${opts.memoryMb ?? 1024}`,
    '--import',
    HOOKS,
    MAIN,
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
            message: `synth process ended (${signal ?? `exit ${code}`}) without a result${oom ? `: over the ${opts.memoryMb ?? 1024} MiB heap cap` : ''}\n${err.split('\n').slice(-8).join('\n')}`,
          }),
        );
        return;
      }
      if (parsed.ok) resolve(parsed.results);
      else if (parsed.error.issues) reject(new SynthValidationError(parsed.error.issues));
      else
        reject(
          new GroundworkError({
            code: parsed.error.code,
            message: parsed.error.message,
            ...(parsed.error.fix ? { fix: parsed.error.fix } : {}),
          }),
        );
    });
  });
}
