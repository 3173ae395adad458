import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GroundworkError } from '../core/errors.js';
import { formatElapsed, type Progress } from '../core/progress.js';
import { compile } from './compile.js';
import { downloadGoMod, localGoVersion, runGo } from './go.js';
import { goDirective, toolBuildGoMod, toolsGo } from './gomod.js';
import type { ToolRecipe } from './recipes.js';
import { toolCacheDir, type ToolRecord } from './tool-cache.js';

/**
 * Builds one tool from the Go module proxy into `<cache>/tools/<name>-<version>/` and returns its
 * record. A throwaway module requires the pinned release and copies the release's own `replace`
 * lines; the build goes into the cache with `compileIntoCache`. Does not look in the cache and takes
 * no lock: `resolveTool` does both.
 */
export async function buildTool(
  recipe: ToolRecipe,
  opts: { env: NodeJS.ProcessEnv; progress: Progress },
): Promise<ToolRecord> {
  const { env, progress } = opts;
  const root = join(toolCacheDir(env), '.work');
  const work = join(root, `${recipe.name}-${recipe.version}`);
  const started = Date.now();
  const go = recipe.toolchain ? { env, toolchain: recipe.toolchain } : { env };
  return asToolBuild(recipe, progress, async () => {
    await mkdir(join(root, 'scratch'), { recursive: true });
    await writeFile(join(root, 'scratch', 'go.mod'), 'module groundwork.local/scratch\n');
    progress.start(
      `${recipe.name} ${recipe.version}: reading its go.mod (a cold build takes ${recipe.coldBuild})`,
    );
    const localGo = await localGoVersion(join(root, 'scratch'));
    const upstreamGoMod = await readFile(
      await downloadGoMod(`${recipe.module}@${recipe.version}`, join(root, 'scratch')),
      'utf8',
    );
    await rm(work, { recursive: true, force: true });
    await mkdir(work, { recursive: true });
    await writeFile(
      join(work, 'go.mod'),
      toolBuildGoMod({
        name: recipe.name,
        module: recipe.module,
        version: recipe.version,
        goVersion: goDirective(upstreamGoMod) ?? localGo,
        upstreamGoMod,
      }),
    );
    await writeFile(join(work, 'tools.go'), toolsGo([recipe.pkg]));
    let downloads = 0;
    progress.start(`${recipe.name} ${recipe.version}: downloading modules`);
    await runGo(['mod', 'tidy'], {
      cwd: work,
      ...go,
      onLine: (line) => {
        if (line.startsWith('go: downloading '))
          progress.update(
            `${recipe.name}: downloading modules: ${++downloads}, ${formatElapsed(Date.now() - started)}`,
          );
      },
    });
    const sourceDir = recipe.needsModuleDir ? await moduleSource(recipe, work, go) : undefined;
    return compileIntoCache(recipe, {
      moduleDir: work,
      go,
      goVersion: recipe.toolchain?.replace(/^go/, '') ?? localGo,
      ...(sourceDir ? { sourceDir } : {}),
      progress,
      started,
    });
  });
}

/**
 * Compiles `recipe.pkg` in the Go module at `moduleDir` (tidied, requiring the recipe's release)
 * into the tool cache's entry `<cache>/tools/<name>-<version>/` with its `tool.json` record
 * (`goVersion`, `sourceDir` as its `moduleDir`, the time since `started`), and returns the record.
 * The entry is built beside and moved into place only when complete, so an interrupted build leaves
 * no half-filled entry. Takes no lock.
 */
export async function compileIntoCache(
  recipe: ToolRecipe,
  opts: {
    moduleDir: string;
    go: { env: NodeJS.ProcessEnv; toolchain?: string };
    goVersion: string;
    sourceDir?: string;
    progress: Progress;
    started: number;
  },
): Promise<ToolRecord> {
  const { progress, started } = opts;
  const finalDir = join(toolCacheDir(opts.go.env), `${recipe.name}-${recipe.version}`);
  const tmpDir = `${finalDir}.tmp-${process.pid}`;
  try {
    await rm(tmpDir, { recursive: true, force: true });
    await mkdir(tmpDir, { recursive: true });
    await compile({
      moduleDir: opts.moduleDir,
      pkg: recipe.pkg,
      out: join(tmpDir, recipe.name),
      ldflags: ['-s', '-w', ...recipe.ldflags].join(' '),
      progress,
      name: recipe.name,
      ...(recipe.tags ? { tags: recipe.tags } : {}),
      ...(recipe.cgo ? { cgo: true } : {}),
      ...opts.go,
    });
    const record: ToolRecord = {
      name: recipe.name,
      version: recipe.version,
      go: opts.goVersion,
      ...(opts.sourceDir ? { moduleDir: opts.sourceDir } : {}),
      builtAt: new Date().toISOString(),
      buildSeconds: Math.round((Date.now() - started) / 1000),
    };
    await writeFile(join(tmpDir, 'tool.json'), `${JSON.stringify(record, null, 2)}\n`);
    await rm(finalDir, { recursive: true, force: true });
    await rename(tmpDir, finalDir);
    progress.succeed(`${recipe.name} ${recipe.version} built in ${formatElapsed(Date.now() - started)}`);
    return record;
  } catch (err) {
    await rm(tmpDir, { recursive: true, force: true });
    throw err;
  }
}

/** Runs a build of `recipe`; a failure is said on `progress` and thrown as `ToolBuildFailed`. */
export async function asToolBuild<T>(
  recipe: ToolRecipe,
  progress: Progress,
  build: () => Promise<T>,
): Promise<T> {
  try {
    return await build();
  } catch (err) {
    progress.fail(`${recipe.name} build failed`);
    throw new GroundworkError({
      code: 'ToolBuildFailed',
      subject: `${recipe.name} ${recipe.version}`,
      message: err instanceof Error ? err.message : String(err),
      fix:
        `check access to the Go module proxy (GOPROXY), or install ${recipe.name} yourself and set ` +
        `${recipe.envVar} to its path`,
      cause: err,
    });
  }
}

/** The module's source directory in the Go module cache (`go list -m -json`'s `Dir`). */
async function moduleSource(
  recipe: ToolRecipe,
  work: string,
  go: { env: NodeJS.ProcessEnv; toolchain?: string },
): Promise<string> {
  const out = await runGo(['list', '-m', '-json', recipe.module], { cwd: work, ...go });
  const dir = /"Dir":\s*"([^"]+)"/.exec(out)?.[1];
  if (!dir) throw new Error(`go list did not name the source directory of ${recipe.module}`);
  return dir;
}
