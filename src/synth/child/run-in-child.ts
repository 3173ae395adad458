import { spawn } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { GroundworkError, isErrorCode } from '../../core/errors.js';
import { packageRoot } from '../../core/package-root.js';
import { cacheRoot } from '../../controlplane/paths.js';
import { loadProjectConfig } from '../config.js';
import { bundleChild } from './bundle.js';
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
  /**
   * Reuse the bundle of an earlier synth whose input files are unchanged (`<cache>/synth/`).
   * @default true, unless GROUNDWORK_SYNTH_CACHE=0
   */
  cache?: boolean;
  /** Where cached bundles live. @default `<cache root>/synth` */
  cacheDir?: string;
}

/** Environment variables the synth child may see: nothing that reaches a cluster or a git server. */
const ALLOWED_ENV = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'HOME'];

/**
 * Synthesizes in a separate Node process with a timeout and a heap cap, an environment stripped
 * to `ALLOWED_ENV` (no kubeconfig, no service-account variables, no git credentials), under Node's
 * permission model (`sandboxFlags`): platform code can read its checkout and nothing else of the
 * machine (not the agent's service-account token), write nothing, start no process or thread.
 * The child is one bundle (`bundleChild`) of Groundwork's synth and the platform code.
 * Platform code is untrusted input; a crash, an endless loop or a memory blow-up in it cannot
 * take the agent down. Rejects with the same errors in-process synth throws (SynthValidationError
 * with every issue, or a GroundworkError with code CompileFailed, BuildFailed, NotPermitted, SynthTimeout,
 * SynthCrashed).
 */
export async function synthesizeInChild(opts: ChildSynthOptions): Promise<SynthResult[]> {
  const dir = await realpath(opts.dir);
  const config = await loadProjectConfig(dir);
  const bundle = await bundleChild(dir, config.entry, {
    ...(opts.cache === false || process.env.GROUNDWORK_SYNTH_CACHE === '0'
      ? {}
      : { cacheDir: opts.cacheDir ?? join(cacheRoot(), 'synth') }),
  });
  try {
    return await runBundle(bundle.file, { ...opts, dir }, bundle.builtIn);
  } finally {
    await bundle.dispose();
  }
}

/**
 * Node's permission model for platform code: read the checkout, the bundle, and Groundwork's
 * shipped data (CRDs, update graphs) and package.json; write nothing; no child processes, no
 * worker threads. The network is not restricted by Node 20 (see the README's security notes).
 */
export function sandboxFlags(dir: string, bundleFile: string): string[] {
  return [
    '--experimental-permission',
    `--allow-fs-read=${dir}/`,
    `--allow-fs-read=${bundleFile}`,
    `--allow-fs-read=${join(packageRoot, 'data')}/`,
    `--allow-fs-read=${join(packageRoot, 'package.json')}`,
  ];
}

function runBundle(
  bundleFile: string,
  opts: ChildSynthOptions & { dir: string },
  builtIn: string,
): Promise<SynthResult[]> {
  // A bundle reused from another checkout of the same files names that checkout in stack traces.
  const here = (text: string) => (builtIn === opts.dir ? text : text.split(builtIn).join(opts.dir));
  const env: NodeJS.ProcessEnv = { GROUNDWORK_PACKAGE_ROOT: packageRoot };
  for (const k of ALLOWED_ENV) if (process.env[k] !== undefined) env[k] = process.env[k];
  const args = [
    ...sandboxFlags(opts.dir, bundleFile),
    '--no-warnings',
    '--enable-source-maps',
    `--max-old-space-size=${opts.memoryMb ?? 1024}`,
    bundleFile,
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
