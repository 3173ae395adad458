import { randomBytes } from 'node:crypto';
import { GroundworkError } from '../../core/errors.js';
import { packageRoot } from '../../core/package-root.js';
import type { SynthResult } from '../synth/synthesize.js';
import { settleOutcome } from './child-outcome.js';
import { supervise } from './supervise.js';
import { unrenderedAnswer } from './unrendered-answer.js';

/** Environment variables the platform child may see: nothing that reaches a cluster or a git server. */
// GROUNDWORK_ALLOW_LOOPBACK_URLS: the URL policy the child reads groundwork.yaml with (alert URLs),
// the caller's, as the renderer's; the child connects nowhere.
const ALLOWED_ENV = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'HOME', 'GROUNDWORK_ALLOW_LOOPBACK_URLS'];

const MiB = 1024 * 1024;

/** How `runBundle` starts one platform child. */
interface RunBundleOptions {
  /** The bundle (`bundleChild`) to run. */
  bundleFile: string;
  /** The checkout (real path): the child's cwd and argument. */
  dir: string;
  /** The checkout the bundle was built in (stack traces name it; mapped back to `dir`). */
  builtIn: string;
  overlay: string | { all: true };
  /** Node flags of the sandbox (`sandboxFlags`). */
  nodeFlags: readonly string[];
  /**
   * `setpriv --pdeathsig KILL --`, when setpriv exists: the child dies with the renderer. The
   * renderer's own isolation (namespaces, another user, the renderer pod) holds around both.
   */
  prefix: readonly string[];
  timeoutMs: number;
  /** V8 heap cap (`--max-old-space-size`, MiB). */
  memoryMb: number;
  /** Resident memory budget (MiB), polled every 100 ms: past it the child is killed (`SynthOutOfMemory`). */
  rssMb: number;
  /** The most read of the result (fd 3) before the child is stopped. */
  outputCapBytes: number;
  /**
   * Answer an unrendered result (`unrenderedAnswer`) with its frame's JSON as the child sent it,
   * unparsed, for the renderer to forward. @default false
   */
  forward?: boolean;
}

/** A platform child's answer: its results, or (`forward`) the JSON of its unrendered result. */
export type BundleAnswer = { results: SynthResult[] } | { json: Buffer };

/**
 * Runs one platform child and resolves to its results (or with `forward`, the JSON of a result
 * with nothing to render, `unrenderedAnswer`), or rejects with its error (`settleOutcome`).
 * The child leads a process group of its own, killed whole on a timeout, past a cap or past its
 * memory budget (`supervise`). The result is a frame with a nonce of this run, which the child
 * reads from its stdin before platform code loads.
 */
export async function runBundle(opts: RunBundleOptions): Promise<BundleAnswer> {
  // A bundle reused from another checkout of the same files names that checkout in stack traces.
  const here = (text: string) => (opts.builtIn === opts.dir ? text : text.split(opts.builtIn).join(opts.dir));
  const env: NodeJS.ProcessEnv = { GROUNDWORK_PACKAGE_ROOT: packageRoot };
  for (const k of ALLOWED_ENV) if (process.env[k] !== undefined) env[k] = process.env[k];
  const nonce = randomBytes(16).toString('hex');
  const ended = await supervise({
    argv: [
      ...opts.prefix,
      process.execPath,
      ...opts.nodeFlags,
      '--no-warnings',
      '--enable-source-maps',
      `--max-old-space-size=${opts.memoryMb}`,
      opts.bundleFile,
      opts.dir,
      typeof opts.overlay === 'string' ? opts.overlay : '--all',
    ],
    cwd: opts.dir,
    env,
    stdin: `${nonce}\n`,
    timeoutMs: opts.timeoutMs,
    frameCapBytes: opts.outputCapBytes,
    rssCapBytes: opts.rssMb * MiB,
  }).catch((e: unknown) => {
    throw new GroundworkError({
      code: 'SynthCrashed',
      subject: opts.dir,
      message: `synth process did not start: ${e instanceof Error ? e.message : String(e)}`,
      cause: e,
    });
  });
  const json =
    opts.forward && ended.stopped === undefined
      ? unrenderedAnswer(ended.frame, nonce, opts.outputCapBytes)
      : undefined;
  if (json) return { json };
  const results = settleOutcome({
    dir: opts.dir,
    ...ended,
    nonce,
    limits: {
      timeoutMs: opts.timeoutMs,
      heapMb: opts.memoryMb,
      rssMb: opts.rssMb,
      resultBytes: opts.outputCapBytes,
    },
    here,
  });
  return { results };
}
