import { build } from 'esbuild';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageVersion } from '../../core/package-root.js';
import { cacheKey, reusable, storeBundle, type BundleInput } from './bundle-cache.js';
import { confineEntry, confineImports, groundworkRoots } from './bundle-confine.js';
import { bundleError } from './bundle-errors.js';
import { oneCopyOfShared } from './bundle-one-copy.js';
import { fallbackToGroundwork, helmRecords, includeReadsFiles, ownLocations } from './bundle-plugins.js';

// From the sources (tsx) this module is bundle.ts and Groundwork resolves to its sources (the
// `groundwork-source` export condition); from a build (dist/) to the compiled JavaScript.
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const RUN_CHILD = fileURLToPath(new URL(FROM_SOURCE ? './run-child.ts' : './run-child.js', import.meta.url));

/** The synth child as one JavaScript file: Groundwork's synth, the platform code and every library. */
interface ChildBundle {
  file: string;
  /** True when an earlier bundle of the same unchanged inputs was reused. */
  cached: boolean;
  /**
   * The checkout the bundle was built in: a bundle reused from another checkout of the same files
   * names that one in stack traces (`runBundle` maps it back).
   */
  builtIn: string;
  /** Removes the bundle unless it is kept in the cache. */
  dispose(): Promise<void>;
}

/** A bundle's first line: bundled CommonJS libraries still call require() for Node built-ins. */
export const REQUIRE_BANNER =
  "import { createRequire as __gwCreateRequire } from 'node:module'; const require = __gwCreateRequire(import.meta.url);";

/** The generated entry point's name (esbuild reads it from stdin, so it is no file to watch). */
const STDIN_NAME = 'groundwork-synth-child.mjs';

/**
 * Changes when the plugins change what a bundle holds, so that no older cached bundle is reused.
 * 5: bundling is confined to the checkout (a bundle of 4 or before may embed any file).
 * 6: one copy of cdk8s and constructs; library roots.
 * 7: cdk8s's Helm records the chart (helmRecords).
 * 8: cdk8s's Yaml.load (Include) reads as kubectl does (includeReadsFiles, core/manifest-yaml).
 */
const BUNDLER_REVISION = 8;

/**
 * Bundles the synth child for the sandbox: Groundwork's synth entry point with the platform
 * module (`entry`, in the checkout `root`) built in, so the child needs no module hooks, no
 * compiler and no file outside the checkout at run time. Bare imports resolve from the importing
 * file first (a platform's own `node_modules` wins: cdk8s-plus, generated classes), then from
 * the directories of `libraryRoots` (their `node_modules`), then from Groundwork's install. One copy of
 * `cdk8s` and `constructs` wins for every importer (`oneCopyOfShared`): the checkout's own when its
 * node_modules has it, else the first library root's, else Groundwork's. A syntax or import error is `CompileFailed`
 * with esbuild's file, line and column, relative to the checkout.
 *
 * Bundling runs in this (unsandboxed) process, so it is confined here: `entry` must be a relative
 * path whose real path is in the checkout (else `InvalidConfig`), and every bundled module's real
 * path must be in the checkout, in a library root's `node_modules` or in Groundwork's install, and
 * from outside the checkout only code or JSON
 * (else `ImportOutsideCheckout`, see `confineImports`). No error quotes a file outside the checkout.
 *
 * With `cacheDir`, a bundle is reused while its inputs are unchanged, also from another checkout
 * of the same files (the agent checks out each commit to a new directory, and most commits change
 * values, not code): the key is the checkout's layout (every path, and the package.json and
 * tsconfig files that steer resolution), and a hit needs every bundled file inside the checkout
 * to have the same content and every one outside it the same size and mtime. A bundle that fails
 * leaves no file in the cache.
 */
export async function bundleChild(
  root: string,
  entry: string,
  opts: { cacheDir?: string; libraryRoots?: readonly string[] } = {},
): Promise<ChildBundle> {
  const realRoot = await realpath(root);
  const entryPath = await confineEntry({ root, realRoot, entry });
  // A library root that is not there (the renderer is shown only usable ones) is none.
  const libraryRoots = (
    await Promise.all((opts.libraryRoots ?? []).map((dir) => realpath(dir).catch(() => undefined)))
  ).filter((dir): dir is string => dir !== undefined);
  const bundle = (file: string) => bundleTo(file, { root, realRoot, entry, entryPath, libraryRoots });
  if (opts.cacheDir) {
    const parts = [packageVersion(), BUNDLER_REVISION, RUN_CHILD, relative(root, entryPath), libraryRoots];
    const key = await cacheKey(root, parts);
    const hit = await reusable(opts.cacheDir, key, root);
    if (hit) return { file: hit.path, cached: true, builtIn: hit.root, dispose: async () => {} };
    await mkdir(opts.cacheDir, { recursive: true });
    // Unique even for two synths of one process in the same millisecond (a preview's base and head).
    const tmp = join(opts.cacheDir, `${key}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    const inputs = await bundle(tmp).catch(async (err: unknown) => {
      await rm(tmp, { force: true });
      throw err;
    });
    const file = await storeBundle({
      cacheDir: opts.cacheDir,
      key,
      tmp,
      root,
      revision: BUNDLER_REVISION,
      inputs,
    });
    return { file, cached: false, builtIn: root, dispose: async () => {} };
  }
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'groundwork-synth-')));
  const dispose = () => rm(dir, { recursive: true, force: true });
  await bundle(join(dir, 'synth-child.mjs')).catch(async (err: unknown) => {
    await dispose();
    throw err;
  });
  return { file: join(dir, 'synth-child.mjs'), cached: false, builtIn: root, dispose };
}

/** Writes the bundle to `file`; returns every file it was built from (absolute). */
async function bundleTo(
  file: string,
  ctx: { root: string; realRoot: string; entry: string; entryPath: string; libraryRoots: readonly string[] },
): Promise<BundleInput[]> {
  const { root, entryPath } = ctx;
  const libraryRoots = await usableLibraryRoots(ctx.libraryRoots);
  const located = new Set<string>();
  const contents = [
    `import { runSynthChild } from ${JSON.stringify(RUN_CHILD)};`,
    `await runSynthChild(() => import(${JSON.stringify(entryPath)}));`,
  ].join('\n');
  // Code may come from a library root's node_modules (real paths), as from Groundwork's install.
  const installRoots = [
    ...(await groundworkRoots()),
    ...libraryRoots.map((dir) => join(dir, 'node_modules')),
  ];
  const confine = confineImports({ realRoot: ctx.realRoot, installRoots });
  try {
    const result = await build({
      stdin: { contents, resolveDir: root, sourcefile: STDIN_NAME, loader: 'js' },
      absWorkingDir: root,
      bundle: true,
      outfile: file,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      conditions: FROM_SOURCE ? ['groundwork-source'] : [],
      banner: { js: REQUIRE_BANNER },
      sourcemap: 'inline',
      sourcesContent: false,
      metafile: true,
      logLevel: 'silent',
      // The guard first: no other plugin (nor esbuild) reads a module it refuses.
      plugins: [
        confine,
        oneCopyOfShared({ root: ctx.realRoot, libraryRoots }),
        fallbackToGroundwork(libraryRoots),
        includeReadsFiles(),
        helmRecords(),
        ownLocations(located),
      ],
    });
    return Object.keys(result.metafile.inputs)
      .filter((p) => !p.startsWith('<') && p !== STDIN_NAME)
      .map((p) => (isAbsolute(p) ? p : join(root, p)))
      .map((path) => ({ path, ownLocation: located.has(path) }));
  } catch (err) {
    throw await bundleError(err, { ...ctx, installRoots, stdinName: STDIN_NAME });
  }
}

/**
 * The library roots (real paths) whose `node_modules` is a directory inside them: one whose
 * `node_modules` is missing or a symbolic link elsewhere is left out, so nothing is resolved or
 * bundled through it.
 */
async function usableLibraryRoots(libraryRoots: readonly string[]): Promise<string[]> {
  const usable = await Promise.all(
    libraryRoots.map(async (dir) => {
      const real = await realpath(join(dir, 'node_modules')).catch(() => undefined);
      return real === join(dir, 'node_modules') ? dir : undefined;
    }),
  );
  return usable.filter((dir): dir is string => dir !== undefined);
}
