import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { promisify } from 'node:util';
import { GroundworkError } from '../core/errors.js';
import { silentProgress, type Progress } from '../core/progress.js';
import { buildTool } from './build-tool.js';
import { TOOL_RECIPES, type ToolName, type ToolRecipe } from './recipes.js';
import { cachedTool, toolCacheDir } from './tool-cache.js';
import { withLock } from './tool-lock.js';

/** A tool binary ready to run, and where it came from. */
export interface ResolvedTool {
  readonly name: string;
  /** Absolute path of the binary. */
  readonly path: string;
  /** The version it reports (`v3.22.0`, `sops 3.13.3`), or the pinned release for a cached build. */
  readonly version: string;
  readonly source: 'env' | 'path' | 'cache' | 'built';
  /** The tool's module source (Gitea's templates and locales); set for cached and built tools. */
  readonly moduleDir?: string;
}

/** Options of `resolveTool`. */
export interface ResolveToolOptions {
  /** @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Progress of a build. @default silent */
  progress?: Progress;
  /** Build from the Go module proxy when nothing fits. @default true */
  build?: boolean;
}

/**
 * Finds a tool, in this order:
 * 1. the binary named by its variable (`GROUNDWORK_HELM`, …), which must exist and fit (same major
 *    version as the pinned release), else `ToolNotUsable`: the user asked for it, so no fallback;
 * 2. the first one on `PATH` that fits (not for tools that need their module source, Gitea);
 * 3. the cached build of the pinned release under `<cache>/tools/`;
 * 4. a build of the pinned release from the Go module proxy (minutes, once; other processes wait
 *    on a lock and then take the cached result).
 * The version probe runs the binary with only `PATH` in its environment and a 10 s timeout.
 * `tool` is a product tool's name, or the recipe of another (Gitea's, in `src/dev/tools`).
 */
export async function resolveTool(
  tool: ToolName | ToolRecipe,
  opts: ResolveToolOptions = {},
): Promise<ResolvedTool> {
  const env = opts.env ?? process.env;
  const recipe = typeof tool === 'string' ? TOOL_RECIPES[tool] : tool;
  const name = recipe.name;
  const named = env[recipe.envVar];
  if (named) {
    const version =
      isAbsolute(named) && existsSync(named) ? await fittingVersion(recipe, named, env) : undefined;
    if (!version)
      throw new GroundworkError({
        code: 'ToolNotUsable',
        subject: `${recipe.envVar}=${named}`,
        message: `is not an executable ${name} with a version matching ${recipe.fits.source}`,
        fix: `point ${recipe.envVar} at an absolute path of ${name} ${recipe.version.replace(/\..*/, '')}.x, or unset it to use the cached build`,
      });
    return { name, path: named, version, source: 'env' };
  }
  if (!recipe.needsModuleDir) {
    for (const dir of (env.PATH ?? '').split(delimiter).filter(isAbsolute)) {
      const candidate = join(dir, name);
      if (!existsSync(candidate)) continue;
      const version = await fittingVersion(recipe, candidate, env);
      if (version) return { name, path: candidate, version, source: 'path' };
    }
  }
  const fromCache = async () => {
    const cached = await cachedTool(recipe, env);
    return cached && existsSync(cached.path) ? cached : undefined;
  };
  const cached = await fromCache();
  if (cached)
    return withModule(
      { name, path: cached.path, version: cached.version, source: 'cache' },
      cached.moduleDir,
    );
  if (opts.build === false)
    throw new GroundworkError({
      code: 'ToolNotUsable',
      subject: name,
      message: `no ${name} in ${recipe.envVar}, on PATH or in the cache`,
      fix: `${recipe.buildAhead ?? `run \`groundwork tools build ${name}\` once`}, or set ${recipe.envVar}`,
    });
  return withLock(join(toolCacheDir(env), `.lock-${name}`), async () => {
    const again = await fromCache();
    if (again)
      return withModule({ name, path: again.path, version: again.version, source: 'cache' }, again.moduleDir);
    const built = await buildTool(recipe, { env, progress: opts.progress ?? silentProgress });
    const path = join(toolCacheDir(env), `${name}-${recipe.version}`, name);
    return withModule({ name, path, version: built.version, source: 'built' }, built.moduleDir);
  });
}

function withModule(tool: ResolvedTool, moduleDir: string | undefined): ResolvedTool {
  return moduleDir ? { ...tool, moduleDir } : tool;
}

const run = promisify(execFile);

/** Probes already made, by binary path, its size and mtime and the PATH it ran with. */
const probes = new Map<string, Promise<string | undefined>>();

/**
 * The version `path` reports, when it matches the recipe; undefined when it does not run or differs.
 * Runs the binary once per (path, size, mtime, PATH) in this process: a synth per cycle must not
 * spawn an unfitting helm on PATH again each time, and a binary replaced in place is probed again.
 */
function fittingVersion(
  recipe: ToolRecipe,
  path: string,
  env: NodeJS.ProcessEnv,
): Promise<string | undefined> {
  let stamp: string;
  try {
    const { size, mtimeMs } = statSync(path);
    stamp = `${size}:${mtimeMs}`;
  } catch {
    return Promise.resolve(undefined);
  }
  const key = JSON.stringify([recipe.name, path, stamp, env.PATH ?? '']);
  let probe = probes.get(key);
  if (!probe) {
    probe = probeVersion(recipe, path, env.PATH ?? '');
    probes.set(key, probe);
  }
  return probe;
}

async function probeVersion(recipe: ToolRecipe, path: string, pathVar: string): Promise<string | undefined> {
  try {
    const { stdout, stderr } = await run(path, [...recipe.versionArgs], {
      env: { PATH: pathVar },
      timeout: 10_000,
      maxBuffer: 64 * 1024,
    });
    const match = recipe.fits.exec(`${stdout}\n${stderr}`);
    return match ? match[0] : undefined;
  } catch {
    return undefined;
  }
}
