import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GroundworkError } from '../../../core/errors.js';
import { formatElapsed, type Progress } from '../../../core/progress.js';
import { compile } from '../../../tools/compile.js';
import { localGoVersion } from '../../../tools/go.js';
import { cachedTool, toolCacheDir, type ToolRecord } from '../../../tools/tool-cache.js';
import { withLock } from '../../../tools/tool-lock.js';
import { KWOK_RECIPE } from '../../tools/kwok-recipe.js';
import { releaseModule } from './kubernetes-module.js';

/**
 * Builds KWOK's pinned release in the throwaway module of Kubernetes `version` (`kubernetesModule`,
 * the control plane's own), into the tool cache's entry `<cache>/tools/kwok-<release>/` with its
 * `tool.json`, where `resolveTool(KWOK_RECIPE)` finds it; returns the binary's path. KWOK's k8s.io
 * modules resolve to the release's there, so after the control plane's build most of KWOK comes from
 * Go's build cache (a build in a module of its own compiled k8s.io/api, client-go and apiserver a
 * second time). Takes the tool's lock, as `resolveTool` does, and returns the cached build when
 * another process made it meanwhile; the entry is moved into place only when complete.
 */
export async function buildKwok(opts: {
  version: string;
  env: NodeJS.ProcessEnv;
  progress: Progress;
}): Promise<string> {
  const { version, env, progress } = opts;
  const recipe = KWOK_RECIPE;
  const finalDir = join(toolCacheDir(env), `${recipe.name}-${recipe.version}`);
  return withLock(join(toolCacheDir(env), `.lock-${recipe.name}`), async () => {
    const cached = await cachedTool(recipe, env);
    if (cached && existsSync(cached.path)) return cached.path;
    const started = Date.now();
    const tmpDir = `${finalDir}.tmp-${process.pid}`;
    try {
      progress.start(`kwok ${recipe.version}: preparing the module of Kubernetes ${version}`);
      const moduleDir = await releaseModule({ version, env, progress });
      await rm(tmpDir, { recursive: true, force: true });
      await mkdir(tmpDir, { recursive: true });
      await compile({
        moduleDir,
        pkg: recipe.pkg,
        out: join(tmpDir, recipe.name),
        ldflags: ['-s', '-w', ...recipe.ldflags].join(' '),
        progress,
        name: recipe.name,
        env,
      });
      const record: ToolRecord = {
        name: recipe.name,
        version: recipe.version,
        go: await localGoVersion(moduleDir),
        builtAt: new Date().toISOString(),
        buildSeconds: Math.round((Date.now() - started) / 1000),
      };
      await writeFile(join(tmpDir, 'tool.json'), `${JSON.stringify(record, null, 2)}\n`);
      await rm(finalDir, { recursive: true, force: true });
      await rename(tmpDir, finalDir);
      progress.succeed(`kwok ${recipe.version} built in ${formatElapsed(Date.now() - started)}`);
      return join(finalDir, recipe.name);
    } catch (err) {
      await rm(tmpDir, { recursive: true, force: true });
      progress.fail('kwok build failed');
      throw new GroundworkError({
        code: 'ToolBuildFailed',
        subject: `${recipe.name} ${recipe.version}`,
        message: err instanceof Error ? err.message : String(err),
        fix: `check access to the Go module proxy (GOPROXY), or install kwok ${recipe.version} yourself and set ${recipe.envVar} to its path`,
        cause: err,
      });
    }
  });
}
