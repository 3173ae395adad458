// The renderer as one JavaScript file: Groundwork's own code only (no repository content), built
// by the trusted side once per version and kept in its cache, so that the renderer starts in
// plain Node, without module hooks and without a compiler.
import { build, transform, type Plugin } from 'esbuild';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { packageRoot, packageVersion } from '../../core/package-root.js';
import { REQUIRE_BANNER } from './bundle.js';

// From the sources (tsx) this module is renderer-bundle.ts; from a build, the compiled JavaScript.
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const ENTRY = fileURLToPath(
  new URL(FROM_SOURCE ? './renderer-main.ts' : './renderer-main.js', import.meta.url),
);

/** Changes when what goes into the renderer's bundle changes in a way its inputs' stats do not show. */
const RENDERER_BUNDLE_REVISION = 1;

interface BundleManifest {
  file: string;
  inputs: { path: string; mtimeMs: number; size: number }[];
}

let built: Promise<string> | undefined;

/**
 * The path of the renderer's bundle in `<cacheDir>/renderer/`, built with esbuild from
 * `renderer-main` when no bundle of the same inputs (every bundled file's path, size and mtime) is
 * there; once per process. `import.meta.url` of each bundled module keeps naming its own file
 * (`ownMetaUrl`), so the renderer finds the platform child's code and Groundwork's data where they
 * are; esbuild itself stays a package of Groundwork's install (it finds its binary beside it).
 */
export function rendererBundle(cacheDir: string): Promise<string> {
  built ??= buildOrReuse(join(cacheDir, 'renderer')).catch((err: unknown) => {
    built = undefined;
    throw err;
  });
  return built;
}

async function buildOrReuse(dir: string): Promise<string> {
  const key = createHash('sha256')
    .update(JSON.stringify([packageVersion(), RENDERER_BUNDLE_REVISION, ENTRY, process.version]))
    .digest('hex')
    .slice(0, 24);
  const manifestFile = join(dir, `${key}.json`);
  const reused = await reusable(dir, manifestFile);
  if (reused) return reused;
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, `${key}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const esbuildMain = createRequire(join(packageRoot, 'package.json')).resolve('esbuild');
  const result = await build({
    entryPoints: [ENTRY],
    absWorkingDir: packageRoot,
    bundle: true,
    outfile: tmp,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: FROM_SOURCE ? ['groundwork-source'] : [],
    banner: { js: REQUIRE_BANNER },
    metafile: true,
    logLevel: 'silent',
    plugins: [
      {
        name: 'groundwork-renderer-externals',
        setup(b) {
          // esbuild finds its native binary from its own package: imported from there, by path.
          b.onResolve({ filter: /^esbuild$/ }, () => ({
            path: pathToFileURL(esbuildMain).href,
            external: true,
          }));
        },
      },
      ownMetaUrl(),
    ],
  });
  const inputs = await Promise.all(
    Object.keys(result.metafile.inputs)
      .filter((p) => !p.startsWith('<'))
      .map(async (p) => {
        const path = isAbsolute(p) ? p : join(packageRoot, p);
        const s = await stat(path);
        return { path, mtimeMs: s.mtimeMs, size: s.size };
      }),
  );
  const file = join(dir, `renderer-${key}-${randomBytes(4).toString('hex')}.mjs`);
  await rename(tmp, file);
  const manifestTmp = `${tmp}.json`;
  await writeFile(manifestTmp, JSON.stringify({ file, inputs } satisfies BundleManifest));
  await rename(manifestTmp, manifestFile);
  return file;
}

/** The bundle a manifest names, when every input it was built from is as it was. */
async function reusable(dir: string, manifestFile: string): Promise<string | undefined> {
  try {
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as BundleManifest;
    if (!manifest.file.startsWith(`${dir}/`)) return undefined;
    await stat(manifest.file);
    for (const input of manifest.inputs) {
      const now = await stat(input.path);
      if (now.mtimeMs !== input.mtimeMs || now.size !== input.size) return undefined;
    }
    return manifest.inputs.length > 0 ? manifest.file : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `import.meta.url` of each bundled module as its own file's URL: a syntactic rewrite (esbuild's
 * `define`), so a string that mentions import.meta.url is left alone.
 */
function ownMetaUrl(): Plugin {
  return {
    name: 'groundwork-own-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.[cm]?[jt]s$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        if (!text.includes('import.meta')) return undefined;
        const { code } = await transform(text, {
          loader: /\.[cm]?ts$/.test(args.path) ? 'ts' : 'js',
          format: 'esm',
          define: { 'import.meta.url': JSON.stringify(pathToFileURL(args.path).href) },
        });
        return { contents: code, loader: 'js' };
      });
    },
  };
}
