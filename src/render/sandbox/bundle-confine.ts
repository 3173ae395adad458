// What a platform bundle may be built from: the checkout, and Groundwork's own code as code.
import type { Plugin } from 'esbuild';
import { realpath } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { GroundworkError } from '../../core/errors.js';
import { packageRoot } from '../../core/package-root.js';
import { CONFIG_FILE } from '../../project/config.js';

/** Extensions that load as code or JSON: the only files bundled from outside the checkout. */
const CODE_EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx', '.json']);

/** Why the import guard refused a module (carried in the esbuild error's `detail`). */
export interface Refusal {
  readonly refused: 'outside' | 'not-code';
  /** The module's real path (symlinks resolved). */
  readonly path: string;
  /** The import attribute `type`, when one was given. */
  readonly type?: string;
}

/** Whether `path` lies strictly under `dir` (both real, absolute paths). */
export function within(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

let installRoots: Promise<readonly string[]> | undefined;

/**
 * Where Groundwork's own code lives, as real paths: its package root and the `node_modules` that
 * holds its dependencies (nested in a global install, hoisted beside it in a local one; found as
 * `register-hooks.mjs` finds it, from where `cdk8s` resolves).
 */
export function groundworkRoots(): Promise<readonly string[]> {
  installRoots ??= (async () => {
    const pkg = join(packageRoot, 'package.json');
    const ownModules = dirname(dirname(createRequire(pkg).resolve('cdk8s/package.json')));
    return Promise.all([realpath(packageRoot), realpath(ownModules)]);
  })();
  return installRoots;
}

/**
 * Refuses, before esbuild reads it, every module whose real path is outside the checkout
 * (`realRoot`) and outside Groundwork's install (`installRoots`); from the install, only code and
 * JSON (by extension, and no import attribute other than `type: 'json'`): no `text`, `bytes`,
 * `file` or other loader. Placed first, so no other plugin reads a refused file. A refusal is an
 * esbuild error whose `detail` is a `Refusal` and whose text holds no content of the file.
 * Modules in other namespaces than `file` (data: URLs) carry their content in the importer.
 */
export function confineImports(opts: { realRoot: string; installRoots: readonly string[] }): Plugin {
  return {
    name: 'groundwork-confine-imports',
    setup(b) {
      const realPaths = new Map<string, Promise<string | undefined>>();
      // A path specifier that leads out of the checkout as written is refused before esbuild
      // looks for it: the renderer's view holds no such file, and the answer must not depend on
      // whether one exists (an existence oracle).
      b.onResolve({ filter: /^(\/|\.\.?(\/|$))/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        const path = isAbsolute(args.path) ? resolve(args.path) : resolve(args.resolveDir, args.path);
        if (path === opts.realRoot || within(opts.realRoot, path)) return undefined;
        if (opts.installRoots.some((r) => path === r || within(r, path))) return undefined;
        const type = args.with.type;
        const refusal: Refusal = { refused: 'outside', path, ...(type === undefined ? {} : { type }) };
        return { errors: [{ text: 'import refused', detail: refusal }] };
      });
      b.onLoad({ filter: /.*/ }, async (args) => {
        if (args.namespace !== 'file') return undefined;
        let real = realPaths.get(args.path);
        if (!real) {
          real = realpath(args.path).catch(() => undefined);
          realPaths.set(args.path, real);
        }
        const refusal = refusalOf((await real) ?? args.path, args.with.type, opts);
        return refusal ? { errors: [{ text: 'import refused', detail: refusal }] } : undefined;
      });
    },
  };
}

function refusalOf(
  path: string,
  type: string | undefined,
  opts: { realRoot: string; installRoots: readonly string[] },
): Refusal | undefined {
  if (within(opts.realRoot, path)) return undefined;
  const withType = type === undefined ? {} : { type };
  if (!opts.installRoots.some((r) => within(r, path))) return { refused: 'outside', path, ...withType };
  if ((type !== undefined && type !== 'json') || !CODE_EXTENSIONS.has(extname(path)))
    return { refused: 'not-code', path, ...withType };
  return undefined;
}

/**
 * Whether the bundle may read the file at real path `path` (as code or JSON): a file in the
 * checkout, or code and JSON of Groundwork's install.
 */
export function mayBundle(
  path: string,
  opts: { realRoot: string; installRoots: readonly string[] },
): boolean {
  return refusalOf(path, undefined, opts) === undefined;
}

/** Whether an esbuild error's `detail` is the import guard's `Refusal`. */
export function isRefusal(detail: unknown): detail is Refusal {
  return typeof detail === 'object' && detail !== null && 'refused' in detail && 'path' in detail;
}

/**
 * The platform module's path from groundwork.yaml's `entry`: a relative path whose real path is
 * inside the checkout. Throws `InvalidConfig` naming groundwork.yaml and the key (never the
 * content of the file it names). A missing file is left to the bundler's "could not resolve".
 */
export async function confineEntry(opts: { root: string; realRoot: string; entry: string }): Promise<string> {
  const refuse = (why: string) =>
    new GroundworkError({
      code: 'InvalidConfig',
      subject: CONFIG_FILE,
      message: `entry: ${why}`,
      fix: 'set entry to the platform module, relative to the repository root (e.g. platform/main.ts), and keep the module in the repository',
    });
  if (isAbsolute(opts.entry)) throw refuse('must be a path relative to the repository, not an absolute path');
  const path = resolve(opts.root, opts.entry);
  if (!within(resolve(opts.root), path)) throw refuse('must name a file inside the repository');
  const real = await realpath(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw refuse('cannot be read');
  });
  if (real !== undefined && !within(opts.realRoot, real))
    throw refuse('resolves (through a symbolic link) to a file outside the repository');
  return path;
}
