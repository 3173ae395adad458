import { build, type Loader, type Message, type Plugin } from 'esbuild';
import { createHash, randomBytes } from 'node:crypto';
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  stat,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, extname, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { GroundworkError } from '../../core/errors.js';
import { packageRoot, packageVersion } from '../../core/package-root.js';

// From the sources (tsx) this module is bundle.ts and Groundwork resolves to its sources (the
// `groundwork-source` export condition); from a build (dist/) to the compiled JavaScript.
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const RUN_CHILD = fileURLToPath(new URL(FROM_SOURCE ? './run-child.ts' : './run-child.js', import.meta.url));

/** The synth child as one JavaScript file: Groundwork's synth, the platform code and every library. */
export interface ChildBundle {
  file: string;
  /** True when an earlier bundle of the same unchanged inputs was reused. */
  cached: boolean;
  /**
   * The checkout the bundle was built in: a bundle reused from another checkout of the same files
   * names that one in stack traces (`run-in-child` maps it back).
   */
  builtIn: string;
  /** Removes the bundle unless it is kept in the cache. */
  dispose(): Promise<void>;
}

/** The generated entry point's name (esbuild reads it from stdin, so it is no file to watch). */
const STDIN_NAME = 'groundwork-synth-child.mjs';

/** Changes when the plugins below change what a bundle holds, so that no older cached bundle is reused. */
const BUNDLER_REVISION = 4;

/** How many bundles the cache keeps (newest first); each is a few MB. */
const CACHE_ENTRIES = 16;

/** An input inside the checkout is known by its content; one outside it (Groundwork's install) by its stat. */
type CachedInput = { rel: string; sha256: string } | { path: string; mtimeMs: number; size: number };

interface CacheManifest {
  root: string;
  /** The bundle's file name in the cache directory (`<key>-<content hash>.mjs`). */
  file: string;
  /** A platform file embeds its own absolute location (import.meta, __dirname): reusable in `root` only. */
  rootBound: boolean;
  inputs: CachedInput[];
}

/**
 * Bundles the synth child for the sandbox: Groundwork's synth entry point with the platform
 * module (`entry`, in the checkout `root`) built in, so the child needs no module hooks, no
 * compiler and no file outside the checkout at run time. Bare imports resolve from the importing
 * file first (a platform's own `node_modules` wins: cdk8s-plus, generated classes), then from
 * Groundwork's install, as the unsandboxed hooks do. A syntax or import error is `CompileFailed`
 * with esbuild's file, line and column, relative to the checkout.
 *
 * With `cacheDir`, a bundle is reused while its inputs are unchanged, also from another checkout
 * of the same files (the agent checks out each commit to a new directory, and most commits change
 * values, not code): the key is the checkout's layout (every path, and the package.json and
 * tsconfig files that steer resolution), and a hit needs every bundled file inside the checkout
 * to have the same content and every one outside it the same size and mtime.
 */
export async function bundleChild(
  root: string,
  entry: string,
  opts: { cacheDir?: string } = {},
): Promise<ChildBundle> {
  const entryPath = isAbsolute(entry) ? entry : join(root, entry);
  if (opts.cacheDir) {
    const key = createHash('sha256')
      .update(JSON.stringify([packageVersion(), BUNDLER_REVISION, RUN_CHILD, relative(root, entryPath)]))
      .update(await layoutOf(root))
      .digest('hex')
      .slice(0, 32);
    const manifestFile = join(opts.cacheDir, `${key}.json`);
    const hit = await reusable(manifestFile, opts.cacheDir, root);
    if (hit) return { file: hit.path, cached: true, builtIn: hit.root, dispose: async () => {} };
    await mkdir(opts.cacheDir, { recursive: true });
    // Unique even for two synths of one process in the same millisecond (a preview's base and head).
    const tmp = join(opts.cacheDir, `${key}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    const inputs = await bundleTo(tmp, root, entry, entryPath).catch(async (err: unknown) => {
      await rm(tmp, { force: true });
      throw err;
    });
    // Named by its content: another synth sharing the key (the same layout, other code) never
    // overwrites a bundle someone is about to run.
    const name = `${key}-${(await sha256Of(tmp)).slice(0, 16)}.mjs`;
    const manifest: CacheManifest = {
      root,
      file: name,
      rootBound: inputs.some((i) => i.ownLocation && isInside(root, i.path)),
      inputs: await Promise.all(inputs.map((i) => cachedInput(root, i.path))),
    };
    const file = join(opts.cacheDir, name);
    await rename(tmp, file);
    const manifestTmp = `${tmp}.manifest`;
    await writeFile(manifestTmp, JSON.stringify(manifest));
    await rename(manifestTmp, manifestFile);
    await evict(opts.cacheDir);
    return { file, cached: false, builtIn: root, dispose: async () => {} };
  }
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'groundwork-synth-')));
  const file = join(dir, 'synth-child.mjs');
  await bundleTo(file, root, entry, entryPath);
  return { file, cached: false, builtIn: root, dispose: () => rm(dir, { recursive: true, force: true }) };
}

/** The cached bundle (and its manifest) when it exists and none of its inputs changed for `root`. */
async function reusable(
  manifestFile: string,
  cacheDir: string,
  root: string,
): Promise<(CacheManifest & { path: string }) | undefined> {
  try {
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as CacheManifest;
    if (manifest.rootBound && manifest.root !== root) return undefined;
    const path = join(cacheDir, manifest.file);
    await stat(path);
    for (const input of manifest.inputs) {
      if ('rel' in input) {
        if ((await sha256Of(join(root, input.rel))) !== input.sha256) return undefined;
        continue;
      }
      const now = await stat(input.path);
      if (now.mtimeMs !== input.mtimeMs || now.size !== input.size) return undefined;
    }
    if (manifest.inputs.length === 0) return undefined;
    const now = new Date();
    await utimes(path, now, now); // in use: the newest, last to be evicted
    return { ...manifest, path };
  } catch {
    return undefined;
  }
}

async function cachedInput(root: string, path: string): Promise<CachedInput> {
  if (isInside(root, path)) return { rel: relative(root, path), sha256: await sha256Of(path) };
  const s = await stat(path);
  return { path, mtimeMs: s.mtimeMs, size: s.size };
}

async function sha256Of(path: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** Files whose content steers how imports resolve (besides which files exist). */
const RESOLUTION_FILES = /^(package\.json|tsconfig.*\.json|jsconfig\.json)$/;

/**
 * What decides how the checkout's imports resolve: every path in it (`.git` aside), and the
 * content of its package.json and tsconfig files. A `node_modules` directory counts by the
 * packages in it (its top level, and one level under `@scope`), not by every file.
 */
async function layoutOf(root: string): Promise<string> {
  const out: string[] = [];
  const walk = async (dir: string, rel: string): Promise<void> => {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
      a.name.localeCompare(b.name),
    );
    for (const e of entries) {
      const path = join(dir, e.name);
      const relPath = rel ? `${rel}/${e.name}` : e.name;
      if (e.name === '.git') continue;
      if (e.isDirectory() && e.name === 'node_modules') {
        out.push(`${relPath}/ ${(await packagesIn(path)).join(' ')}`);
      } else if (e.isDirectory()) {
        out.push(`${relPath}/`);
        await walk(path, relPath);
      } else {
        out.push(RESOLUTION_FILES.test(e.name) ? `${relPath} ${await sha256Of(path)}` : relPath);
      }
    }
  };
  await walk(root, '');
  return out.join('\n');
}

async function packagesIn(nodeModules: string): Promise<string[]> {
  const names: string[] = [];
  for (const e of (await readdir(nodeModules, { withFileTypes: true })).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    if (!e.name.startsWith('@')) names.push(e.name);
    else
      for (const sub of (await readdir(join(nodeModules, e.name)).catch(() => [])).sort())
        names.push(`${e.name}/${sub}`);
  }
  return names;
}

/** Keeps the newest `CACHE_ENTRIES` bundles. */
async function evict(cacheDir: string): Promise<void> {
  const bundles = await Promise.all(
    (await readdir(cacheDir))
      .filter((f) => f.endsWith('.mjs'))
      .map(async (f) => ({ f, at: (await stat(join(cacheDir, f)).catch(() => undefined))?.mtimeMs ?? 0 })),
  );
  for (const { f } of bundles.sort((a, b) => b.at - a.at).slice(CACHE_ENTRIES))
    await rm(join(cacheDir, f), { force: true });
  // Manifests whose bundle is gone.
  for (const f of (await readdir(cacheDir)).filter((x) => x.endsWith('.json'))) {
    const manifest = await readFile(join(cacheDir, f), 'utf8')
      .then((t) => JSON.parse(t) as Partial<CacheManifest>)
      .catch(() => undefined);
    if (!manifest?.file || !(await stat(join(cacheDir, manifest.file)).catch(() => undefined)))
      await rm(join(cacheDir, f), { force: true });
  }
}

/**
 * Writes the bundle to `file`; returns every file it was built from (absolute), and whether the
 * bundle embeds that file's own location (`ownLocations`).
 */
async function bundleTo(
  file: string,
  root: string,
  entry: string,
  entryPath: string,
): Promise<{ path: string; ownLocation: boolean }[]> {
  const located = new Set<string>();
  const contents = [
    `import { runChildToStdout } from ${JSON.stringify(RUN_CHILD)};`,
    `await runChildToStdout(() => import(${JSON.stringify(entryPath)}));`,
  ].join('\n');
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
      // Bundled CommonJS libraries still call require() for Node built-ins.
      banner: {
        js: "import { createRequire as __gwCreateRequire } from 'node:module'; const require = __gwCreateRequire(import.meta.url);",
      },
      sourcemap: 'inline',
      sourcesContent: false,
      metafile: true,
      logLevel: 'silent',
      plugins: [fallbackToGroundwork(), includeReadsFiles(), ownLocations(located)],
    });
    return Object.keys(result.metafile.inputs)
      .filter((p) => !p.startsWith('<') && p !== STDIN_NAME)
      .map((p) => (isAbsolute(p) ? p : join(root, p)))
      .map((path) => ({ path, ownLocation: located.has(path) }));
  } catch (err) {
    const errors = (err as { errors?: Message[] }).errors ?? [];
    const first = errors[0];
    const where = first?.location
      ? `${relative(root, join(root, first.location.file)) || first.location.file}:${first.location.line}:${first.location.column}`
      : entry;
    throw new GroundworkError({
      code: 'CompileFailed',
      subject: where,
      message: first ? first.text : err instanceof Error ? err.message : String(err),
      fix: 'fix the error above; the previous revision stays applied',
      cause: err,
    });
  }
}

const LOADERS: Record<string, Loader> = {
  '.ts': 'ts',
  '.mts': 'ts',
  '.cts': 'ts',
  '.tsx': 'tsx',
  '.js': 'js',
  '.mjs': 'js',
  '.cjs': 'js',
  '.jsx': 'jsx',
};

/**
 * Keeps each module's own location inside the bundle: `import.meta.url`, `import.meta.dirname`,
 * `import.meta.filename`, and CommonJS `__dirname`/`__filename` name the original file, not the
 * bundle, so platform code that reads a file next to itself (`new URL('../files/motd',
 * import.meta.url)`) reads the same file as without the sandbox.
 */
function ownLocations(located: Set<string>): Plugin {
  return {
    name: 'groundwork-own-locations',
    setup(b) {
      b.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        const usesMeta = text.includes('import.meta');
        const usesDirname =
          /\b__(dirname|filename)\b/.test(text) && !/\b(const|let|var)\s+__(dirname|filename)\b/.test(text);
        if (!usesMeta && !usesDirname) return undefined;
        located.add(args.path);
        let contents = text;
        if (usesMeta)
          contents = contents
            .replace(/\bimport\.meta\.url\b/g, JSON.stringify(pathToFileURL(args.path).href))
            .replace(/\bimport\.meta\.dirname\b/g, JSON.stringify(dirname(args.path)))
            .replace(/\bimport\.meta\.filename\b/g, JSON.stringify(args.path));
        if (usesDirname)
          contents = `var __dirname = ${JSON.stringify(dirname(args.path))}, __filename = ${JSON.stringify(args.path)};\n${contents}`;
        return { contents, loader: LOADERS[extname(args.path)] ?? 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

/**
 * cdk8s's `Include` (and `Yaml.load`) read their file by starting a Node child process, which the
 * sandbox forbids. In the bundle they read the file directly instead: a path relative to the
 * checkout (the child's working directory), or a `file:` URL. An http(s) URL is refused: synth
 * must give the same manifests for the same commit, so a remote file belongs in the repository.
 */
function includeReadsFiles(): Plugin {
  const loader = `function loadurl(url) {
  if (/^[a-z][a-z0-9+.-]*:\\/\\//i.test(url) && !/^file:/i.test(url))
    throw new Error('Include of ' + url + ': synth reads no URLs, so that a commit always gives the same manifests; download the file into the repository and include it by path');
  return require('node:fs').readFileSync(/^file:/i.test(url) ? new URL(url) : url, 'utf-8');
}
function cdk8sLoadurlWithChildProcess(url) {`;
  return {
    name: 'groundwork-include-reads-files',
    setup(b) {
      b.onLoad({ filter: /[\\/]cdk8s[\\/]lib[\\/]yaml\.js$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        if (!text.includes('function loadurl(url) {')) return undefined;
        return {
          contents: text.replace('function loadurl(url) {', loader),
          loader: 'js',
          resolveDir: dirname(args.path),
        };
      });
    },
  };
}

/** Resolves what the platform cannot (no node_modules, or a library it does not have) from Groundwork. */
function fallbackToGroundwork(): Plugin {
  return {
    name: 'groundwork-fallback',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === 'fallback' || args.path.startsWith('node:')) return undefined;
        const own = await b.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: 'fallback',
        });
        if (own.errors.length === 0) return own;
        const fromGroundwork = await b.resolve(args.path, {
          kind: args.kind,
          resolveDir: packageRoot,
          pluginData: 'fallback',
        });
        return fromGroundwork.errors.length === 0 ? fromGroundwork : own;
      });
    },
  };
}
