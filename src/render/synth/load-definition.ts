import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GroundworkError } from '../../core/errors.js';
import { isPlatformDefinition, type PlatformDefinition } from './define-platform.js';

/**
 * Imports a platform module (or takes it from `opts.load`: the synth child's bundle) and returns
 * its `definePlatform(...)` default export. Outside the child, TypeScript is compiled on the fly
 * (tsx, or vite in tests).
 * Syntax and import errors become `CompileFailed` naming the file (an allocation the data limit
 * refused, `SynthOutOfMemory`); nothing is synthesized.
 */
export async function loadDefinition(
  file: string,
  opts: { load?: () => Promise<unknown>; root?: string } = {},
): Promise<PlatformDefinition> {
  const load = opts.load ?? (() => import(pathToFileURL(file).href));
  if (!existsSync(file)) {
    throw new GroundworkError({
      code: 'CompileFailed',
      subject: file,
      message: 'platform entry not found',
      fix: 'set `entry` in groundwork.yaml',
    });
  }
  let mod: { default?: unknown };
  try {
    mod = (await load()) as { default?: unknown };
  } catch (err) {
    const denied = notPermitted(err, opts.root ?? dirname(file));
    if (denied) throw denied;
    // An ArrayBuffer the renderer's data limit refused while the module ran: memory, not syntax.
    if (err instanceof RangeError && /allocation failed/i.test(err.message))
      throw new GroundworkError({
        code: 'SynthOutOfMemory',
        subject: file,
        message: `platform code went over its memory limit: ${err.message}`,
        fix: 'look for unbounded data in the platform code (large Buffers and strings count too)',
      });
    throw new GroundworkError({
      code: 'CompileFailed',
      subject: file,
      message: err instanceof Error ? firstLines(err.message, 12) : String(err),
      fix: 'fix the TypeScript error above',
      cause: err,
    });
  }
  if (!isPlatformDefinition(mod.default)) {
    throw new GroundworkError({
      code: 'CompileFailed',
      subject: file,
      message: 'the default export is not a platform definition',
      fix: 'export default definePlatform({ values, build })',
    });
  }
  return mod.default;
}

/** Node's permission model refusing something platform code tried (`ERR_ACCESS_DENIED`). */
interface AccessDenied {
  code: 'ERR_ACCESS_DENIED';
  permission?: string;
  resource?: string;
  stack?: string;
}

function isAccessDenied(err: unknown): err is AccessDenied {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'ERR_ACCESS_DENIED';
}

const ACTIONS: Record<string, string> = {
  FileSystemRead: 'read',
  FileSystemWrite: 'write',
  ChildProcess: 'start a child process',
  WorkerThreads: 'start a worker thread',
  // Not Node's own: the synth child's guard on process.kill and os.setPriority (signal-guard.ts).
  Signal: 'signal',
  Priority: 'change the priority of',
};

/**
 * A `NotPermitted` error for an `ERR_ACCESS_DENIED` (or undefined for any other error): what platform
 * code tried, where in the platform sources (the first stack frame under the checkout), and in
 * which construct when one was being built. `root` is the checkout, for relative file names.
 */
export function notPermitted(err: unknown, root: string, construct?: string): GroundworkError | undefined {
  if (!isAccessDenied(err)) return undefined;
  const action = ACTIONS[err.permission ?? ''] ?? `use ${err.permission ?? 'a restricted API'}`;
  const what = err.resource ? `${action} ${err.resource}` : action;
  const at = platformFrame(err.stack ?? '', root);
  return new GroundworkError({
    code: 'NotPermitted',
    subject: construct ? `construct ${construct}` : (at ?? root),
    message: `platform code is not permitted to ${what}${at && construct ? ` (at ${at})` : ''}: synth runs under Node's permission model and may only read the repository checkout`,
    fix: 'keep inputs in the repository (overlays, files next to the platform code) and read them relative to it; secrets belong in the cluster, not in synth',
    cause: err,
  });
}

/** `platform/main.ts:12` for the first stack frame inside `root` that is not in node_modules. */
function platformFrame(stack: string, root: string): string | undefined {
  const base = root.endsWith('/') ? root : `${root}/`;
  for (const m of stack.matchAll(/(?:file:\/\/)?(\/[^\s():]+):(\d+):\d+/g)) {
    const file = m[1]!;
    if (file.startsWith(base) && !file.includes('/node_modules/'))
      return `${file.slice(base.length)}:${m[2]}`;
  }
  return undefined;
}

function firstLines(text: string, n: number): string {
  return text.split('\n').slice(0, n).join('\n');
}
