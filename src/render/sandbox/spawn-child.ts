import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { GroundworkError } from '../../core/errors.js';
import { packageRoot } from '../../core/package-root.js';
import type { SynthResult } from '../synth/synthesize.js';
import { settleOutcome, type ChildStop } from './child-outcome.js';
import { launchArgv, type ChildLauncher } from './isolation.js';
import { RESULT_FD } from './protocol.js';

/** Environment variables the synth child may see: nothing that reaches a cluster or a git server. */
const ALLOWED_ENV = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'HOME'];

/** How much of the child's stdout and stderr the parent reads before it stops the child. */
const LOG_CAP_BYTES = 16 * 1024 * 1024;

/** How many characters of that output an error quotes from (its last 8 lines). */
const LOG_TAIL_CHARS = 4000;

/** How `runBundle` starts one synth child. */
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
  /** How the child is isolated from other processes (`detectLauncher`). */
  launcher: ChildLauncher;
  timeoutMs: number;
  /** V8 heap cap (`--max-old-space-size`). */
  memoryMb: number;
  /** The most the parent reads of the result (fd 3) before it stops the child. */
  outputCapBytes: number;
}

/**
 * Runs one synth child and resolves to its results, or rejects with its error (`settleOutcome`).
 * The child leads a process group of its own, under `opts.launcher`, and everything in that group
 * is killed on a timeout or past a cap. What the parent holds stays bounded whatever the child
 * writes: the result up to `outputCapBytes`, of stdout and stderr only their last 4000 characters
 * (at most `LOG_CAP_BYTES` are read). The result is a frame with a nonce of this run, which the
 * child reads from its stdin before platform code loads.
 */
export function runBundle(opts: RunBundleOptions): Promise<SynthResult[]> {
  // A bundle reused from another checkout of the same files names that checkout in stack traces.
  const here = (text: string) => (opts.builtIn === opts.dir ? text : text.split(opts.builtIn).join(opts.dir));
  const env: NodeJS.ProcessEnv = { GROUNDWORK_PACKAGE_ROOT: packageRoot };
  for (const k of ALLOWED_ENV) if (process.env[k] !== undefined) env[k] = process.env[k];
  const argv = launchArgv(opts.launcher, [
    process.execPath,
    ...opts.nodeFlags,
    '--no-warnings',
    '--enable-source-maps',
    `--max-old-space-size=${opts.memoryMb}`,
    opts.bundleFile,
    opts.dir,
    typeof opts.overlay === 'string' ? opts.overlay : '--all',
  ]);
  const nonce = randomBytes(16).toString('hex');
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: opts.dir,
      env,
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
      detached: true, // its own session and process group: kill(0) from inside reaches only the child
    });
    child.stdin!.on('error', () => {}); // a child that dies before reading its nonce
    child.stdin!.end(`${nonce}\n`);
    let stopped: ChildStop | undefined;
    const stop = (why: ChildStop) => {
      stopped ??= why;
      killGroup(child);
    };
    const frame = collect(child.stdio[RESULT_FD] as Readable, opts.outputCapBytes, () => stop('result-cap'));
    const log = { text: '', bytes: 0 };
    for (const stream of [child.stdout!, child.stderr!]) {
      stream.on('data', (d: Buffer) => {
        log.bytes += d.length;
        // Decodes at most the tail of each chunk: memory stays bounded however much is written.
        log.text = (log.text + d.subarray(-LOG_TAIL_CHARS).toString()).slice(-LOG_TAIL_CHARS);
        if (log.bytes > LOG_CAP_BYTES) stop('log-cap');
      });
    }
    const timer = setTimeout(() => stop('timeout'), opts.timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(
        new GroundworkError({
          code: 'SynthCrashed',
          subject: opts.dir,
          message: `synth process did not start: ${e.message}`,
          cause: e,
        }),
      );
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      try {
        resolve(
          settleOutcome({
            dir: opts.dir,
            exit: { code, signal },
            stopped,
            frame: frame(),
            nonce,
            log: log.text,
            limits: {
              timeoutMs: opts.timeoutMs,
              heapMb: opts.memoryMb,
              resultBytes: opts.outputCapBytes,
              logBytes: LOG_CAP_BYTES,
            },
            here,
          }),
        );
      } catch (err) {
        reject(err);
      }
    });
  });
}

/** Buffers `stream` up to `cap` bytes; past it, calls `onOverflow` and keeps nothing more. */
function collect(stream: Readable, cap: number, onOverflow: () => void): () => Buffer {
  const chunks: Buffer[] = [];
  let size = 0;
  stream.on('data', (d: Buffer) => {
    if (size + d.length > cap) {
      size = cap + 1;
      chunks.length = 0;
      onOverflow();
      return;
    }
    size += d.length;
    chunks.push(d);
  });
  return () => Buffer.concat(chunks);
}

/** SIGKILL to the child's whole process group (it leads one: `detached`); it may be gone already. */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // ESRCH: the group ended on its own.
  }
}
