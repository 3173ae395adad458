import { build, type Loader, type Message, type Plugin } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
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
  /** Removes the bundle unless it is kept in the cache. */
  dispose(): Promise<void>;
}

/** The generated entry point's name (esbuild reads it from stdin, so it is no file to watch). */
const STDIN_NAME = 'groundwork-synth-child.mjs';

/** Changes when the plugins below change what a bundle holds, so that no older cached bundle is reused. */
const BUNDLER_REVISION = 2;

/** How many bundles the cache keeps (newest first); each is a few MB. */
const CACHE_ENTRIES = 16;

interface CacheManifest {
  inputs: { path: string; mtimeMs: number; size: number }[];
}

/**
 * Bundles the synth child for the sandbox: Groundwork's synth entry point with the platform
 * module (`entry`, in the checkout `root`) built in, so the child needs no module hooks, no
 * compiler and no file outside the checkout at run time. Bare imports resolve from the importing
 * file first (a platform's own `node_modules` wins: cdk8s-plus, generated classes), then from
 * Groundwork's install, as the unsandboxed hooks do. A syntax or import error is `CompileFailed`
 * with esbuild's file, line and column, relative to the checkout.
 */
export async function bundleChild(
  root: string,
  entry: string,
  opts: { cacheDir?: string } = {},
): Promise<ChildBundle> {
  const entryPath = isAbsolute(entry) ? entry : join(root, entry);
  if (opts.cacheDir) {
    const key = createHash('sha256')
      .update(JSON.stringify([packageVersion(), BUNDLER_REVISION, RUN_CHILD, root, entryPath]))
      .digest('hex')
      .slice(0, 32);
    const file = join(opts.cacheDir, `${key}.mjs`);
    const manifestFile = join(opts.cacheDir, `${key}.json`);
    if (await unchanged(manifestFile, file)) return { file, cached: true, dispose: async () => {} };
    await mkdir(opts.cacheDir, { recursive: true });
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    const inputs = await bundleTo(tmp, root, entry, entryPath).catch(async (err: unknown) => {
      await rm(tmp, { force: true });
      throw err;
    });
    const manifest: CacheManifest = { inputs: await Promise.all(inputs.map(statOf)) };
    await rename(tmp, file);
    await writeFile(`${manifestFile}.${process.pid}.tmp`, JSON.stringify(manifest));
    await rename(`${manifestFile}.${process.pid}.tmp`, manifestFile);
    await evict(opts.cacheDir);
    return { file, cached: false, dispose: async () => {} };
  }
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'groundwork-synth-')));
  const file = join(dir, 'synth-child.mjs');
  await bundleTo(file, root, entry, entryPath);
  return { file, cached: false, dispose: () => rm(dir, { recursive: true, force: true }) };
}

/** True when the cached bundle exists and none of the files it was built from changed. */
async function unchanged(manifestFile: string, file: string): Promise<boolean> {
  try {
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as CacheManifest;
    await stat(file);
    for (const input of manifest.inputs) {
      const now = await statOf(input.path);
      if (now.mtimeMs !== input.mtimeMs || now.size !== input.size) return false;
    }
    return manifest.inputs.length > 0;
  } catch {
    return false;
  }
}

async function statOf(path: string): Promise<{ path: string; mtimeMs: number; size: number }> {
  const s = await stat(path);
  return { path, mtimeMs: s.mtimeMs, size: s.size };
}

/** Keeps the newest `CACHE_ENTRIES` bundles. */
async function evict(cacheDir: string): Promise<void> {
  const bundles = await Promise.all(
    (await readdir(cacheDir))
      .filter((f) => f.endsWith('.mjs'))
      .map(async (f) => ({ f, at: (await stat(join(cacheDir, f)).catch(() => undefined))?.mtimeMs ?? 0 })),
  );
  for (const { f } of bundles.sort((a, b) => b.at - a.at).slice(CACHE_ENTRIES)) {
    await rm(join(cacheDir, f), { force: true });
    await rm(join(cacheDir, f.replace(/\.mjs$/, '.json')), { force: true });
  }
}

/** Writes the bundle to `file`; returns the absolute paths of every file it was built from. */
async function bundleTo(file: string, root: string, entry: string, entryPath: string): Promise<string[]> {
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
      plugins: [fallbackToGroundwork(), includeReadsFiles(), ownLocations()],
    });
    return Object.keys(result.metafile.inputs)
      .filter((p) => !p.startsWith('<') && p !== STDIN_NAME)
      .map((p) => (isAbsolute(p) ? p : join(root, p)));
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
function ownLocations(): Plugin {
  return {
    name: 'groundwork-own-locations',
    setup(b) {
      b.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        const usesMeta = text.includes('import.meta');
        const usesDirname =
          /\b__(dirname|filename)\b/.test(text) && !/\b(const|let|var)\s+__(dirname|filename)\b/.test(text);
        if (!usesMeta && !usesDirname) return undefined;
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
