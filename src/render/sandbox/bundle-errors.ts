// esbuild's failures as Groundwork errors that name files of the checkout and quote none outside it.
import type { Location, Message } from 'esbuild';
import { realpath } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { GroundworkError } from '../../core/errors.js';
import { CONFIG_FILE } from '../../project/config.js';
import { isRefusal, mayBundle, within, type Refusal } from './bundle-confine.js';

const FIX_OUTSIDE =
  'copy the file into the repository and import it from there; platform code is bundled only from the repository and the packages Groundwork ships';

/**
 * The error of a failed bundle. An import the guard refused (`confineImports`) is
 * `ImportOutsideCheckout`, naming the importing file and line (relative to the checkout) and the
 * import specifier; any other is `CompileFailed` with esbuild's first message, file, line and
 * column. esbuild quotes the file it failed on ("Unexpected "<token>" in JSON"): for a file the
 * bundle may not read (`mayBundle`: outside the checkout and not code or JSON of Groundwork's
 * install, e.g. a package.json or tsconfig reached through a symlink or `extends`) its message is
 * replaced; a file it may read could be bundled whole, so its message hides nothing. esbuild's own
 * error (which quotes every message) is never the `cause`.
 * `stdinName` is the generated entry module's name (its import of the platform is `entry`).
 */
export async function bundleError(
  err: unknown,
  opts: { root: string; realRoot: string; installRoots: readonly string[]; entry: string; stdinName: string },
): Promise<GroundworkError> {
  const errors = (err as { errors?: Message[] }).errors ?? [];
  const refused = errors.find((e) => isRefusal(e.detail));
  if (refused) return refusalError(refused.detail as Refusal, importSite(refused), opts);
  const first = errors[0];
  if (!first)
    return new GroundworkError({
      code: 'CompileFailed',
      subject: opts.entry,
      message: err instanceof Error ? err.message : String(err),
      fix: 'fix the error above',
      cause: err,
    });
  const loc = first.location;
  const path = loc ? absolute(loc.file, opts.root) : undefined;
  const hidden =
    loc && path && loc.file !== opts.stdinName
      ? !mayBundle((await realpath(path).catch(() => undefined)) ?? path, opts)
      : false;
  return new GroundworkError({
    code: 'CompileFailed',
    // esbuild counts columns from 0; editors from 1.
    subject: loc && path ? `${display(path, opts.root)}:${loc.line}:${loc.column + 1}` : opts.entry,
    message: hidden
      ? 'esbuild could not use this file, which is outside the repository (its message, which may quote the file, is not shown)'
      : first.text,
    fix: hidden
      ? 'keep every file the platform imports, and the package.json and tsconfig files that steer its imports, inside the repository as regular files'
      : /^Could not resolve "[^./]/.test(first.text)
        ? "install the repository's dependencies (npm ci, or npm install <package>); the agent installs them from package-lock.json"
        : 'fix the error above',
  });
}

function refusalError(
  refusal: Refusal,
  site: { file: string; line: number; specifier: string } | undefined,
  opts: { root: string; stdinName: string },
): GroundworkError {
  const fromEntry = site?.file === opts.stdinName;
  const subject = !site
    ? refusal.path
    : fromEntry
      ? `${CONFIG_FILE} entry`
      : `${display(absolute(site.file, opts.root), opts.root)}:${site.line}`;
  const what = site && !fromEntry ? `import ${site.specifier}` : 'the platform module';
  const attribute = refusal.type === undefined ? '' : ` with { type: '${refusal.type}' }`;
  return new GroundworkError({
    code: 'ImportOutsideCheckout',
    subject,
    message:
      refusal.refused === 'outside'
        ? `${what}${attribute} resolves to ${refusal.path}, outside the repository (symbolic links resolved): synth bundles no file from outside it`
        : `${what}${attribute} loads ${refusal.path}, outside the repository, as data: files outside it are bundled only as code or JSON`,
    fix: FIX_OUTSIDE,
  });
}

/** The import that led to a refused module: the message's location (or a note "triggered by this import"). */
function importSite(message: Message): { file: string; line: number; specifier: string } | undefined {
  const notes = message.notes.filter((n) => n.location);
  const loc: Location | null | undefined =
    message.location ?? (notes.find((n) => /triggered by/.test(n.text)) ?? notes[0])?.location;
  if (!loc) return undefined;
  // Column and length count bytes of the line.
  const specifier = Buffer.from(loc.lineText)
    .subarray(loc.column, loc.column + loc.length)
    .toString('utf8');
  return { file: loc.file, line: loc.line, specifier };
}

function absolute(file: string, root: string): string {
  return isAbsolute(file) ? file : join(root, file);
}

/** A path inside the checkout relative to it, any other absolute. */
function display(path: string, root: string): string {
  return within(root, path) ? relative(root, path) : path;
}
