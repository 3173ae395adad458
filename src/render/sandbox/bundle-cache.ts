// The synth bundle cache: bundles named by their content, with a manifest per checkout layout.
import { createHash } from 'node:crypto';
import { readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';

/** How many bundles the cache keeps (newest first); each is a few MB. */
const CACHE_ENTRIES = 16;

/** An input inside the checkout is known by its content; one outside it (Groundwork's install) by its stat. */
type CachedInput = { rel: string; sha256: string } | { path: string; mtimeMs: number; size: number };

interface CacheManifest {
  /**
   * The bundler revision that wrote it. A manifest without one was written before bundling was
   * confined to the checkout: its bundle may embed any file of the machine, so eviction removes it.
   */
  revision?: number;
  root: string;
  /** The bundle's file name in the cache directory (`<key>-<content hash>.mjs`). */
  file: string;
  /** A platform file embeds its own absolute location (import.meta, __dirname): reusable in `root` only. */
  rootBound: boolean;
  inputs: CachedInput[];
}

/** One file a bundle was built from, and whether the bundle embeds that file's own location. */
export interface BundleInput {
  path: string;
  ownLocation: boolean;
}

/**
 * The cache key of a bundle: what it is built with (`parts`: Groundwork's version, the bundler
 * revision, the entry) and the checkout's layout (every path, and the package.json and tsconfig
 * files that steer resolution).
 */
export async function cacheKey(root: string, parts: readonly unknown[]): Promise<string> {
  return createHash('sha256')
    .update(JSON.stringify(parts))
    .update(await layoutOf(root))
    .digest('hex')
    .slice(0, 32);
}

/** The cached bundle (and the checkout it was built in) when none of its inputs changed for `root`. */
export async function reusable(
  cacheDir: string,
  key: string,
  root: string,
): Promise<{ path: string; root: string } | undefined> {
  try {
    const manifest = JSON.parse(await readFile(join(cacheDir, `${key}.json`), 'utf8')) as CacheManifest;
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
    return { path, root: manifest.root };
  } catch {
    return undefined;
  }
}

/**
 * Moves a finished bundle (`tmp`, in `cacheDir`) to its content-named file, writes its manifest
 * and evicts old bundles; returns the bundle's path. Named by its content, so another synth sharing
 * the key (the same layout, other code) never overwrites a bundle someone is about to run.
 * Called only for a bundle that built: a failed bundle leaves nothing in the cache.
 */
export async function storeBundle(opts: {
  cacheDir: string;
  key: string;
  tmp: string;
  root: string;
  revision: number;
  inputs: readonly BundleInput[];
}): Promise<string> {
  const { cacheDir, key, tmp, root } = opts;
  const name = `${key}-${(await sha256Of(tmp)).slice(0, 16)}.mjs`;
  const manifest: CacheManifest = {
    revision: opts.revision,
    root,
    file: name,
    rootBound: opts.inputs.some((i) => i.ownLocation && isInside(root, i.path)),
    inputs: await Promise.all(opts.inputs.map((i) => cachedInput(root, i.path))),
  };
  const file = join(cacheDir, name);
  await rename(tmp, file);
  const manifestTmp = `${tmp}.manifest`;
  await writeFile(manifestTmp, JSON.stringify(manifest));
  await rename(manifestTmp, join(cacheDir, `${key}.json`));
  await evict(cacheDir);
  return file;
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

/**
 * Keeps the newest `CACHE_ENTRIES` bundles; removes manifests whose bundle is gone, and manifests
 * written before bundling was confined (no `revision`) with their bundle.
 */
async function evict(cacheDir: string): Promise<void> {
  for (const f of (await readdir(cacheDir)).filter((x) => x.endsWith('.json'))) {
    const manifest = await readManifest(join(cacheDir, f));
    if (manifest?.file && manifest.revision === undefined) {
      await rm(join(cacheDir, manifest.file), { force: true });
      await rm(join(cacheDir, f), { force: true });
    }
  }
  const bundles = await Promise.all(
    (await readdir(cacheDir))
      .filter((f) => f.endsWith('.mjs'))
      .map(async (f) => ({ f, at: (await stat(join(cacheDir, f)).catch(() => undefined))?.mtimeMs ?? 0 })),
  );
  for (const { f } of bundles.sort((a, b) => b.at - a.at).slice(CACHE_ENTRIES))
    await rm(join(cacheDir, f), { force: true });
  // Manifests whose bundle is gone.
  for (const f of (await readdir(cacheDir)).filter((x) => x.endsWith('.json'))) {
    const manifest = await readManifest(join(cacheDir, f));
    if (!manifest?.file || !(await stat(join(cacheDir, manifest.file)).catch(() => undefined)))
      await rm(join(cacheDir, f), { force: true });
  }
}

function readManifest(file: string): Promise<Partial<CacheManifest> | undefined> {
  return readFile(file, 'utf8')
    .then((t) => JSON.parse(t) as Partial<CacheManifest>)
    .catch(() => undefined);
}
