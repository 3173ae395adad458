import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Progress } from '../../../core/progress.js';
import { asToolBuild, compileIntoCache } from '../../../tools/build-tool.js';
import { localGoVersion } from '../../../tools/go.js';
import { cachedTool, toolCacheDir } from '../../../tools/tool-cache.js';
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
 * another process made it meanwhile; the entry is written by `compileIntoCache`, as `buildTool`'s.
 */
export async function buildKwok(opts: {
  version: string;
  env: NodeJS.ProcessEnv;
  progress: Progress;
}): Promise<string> {
  const { version, env, progress } = opts;
  const recipe = KWOK_RECIPE;
  return withLock(join(toolCacheDir(env), `.lock-${recipe.name}`), async () => {
    const cached = await cachedTool(recipe, env);
    if (cached && existsSync(cached.path)) return cached.path;
    const started = Date.now();
    await asToolBuild(recipe, progress, async () => {
      progress.start(`kwok ${recipe.version}: preparing the module of Kubernetes ${version}`);
      const moduleDir = await releaseModule({ version, env, progress });
      return compileIntoCache(recipe, {
        moduleDir,
        go: { env },
        goVersion: await localGoVersion(moduleDir),
        progress,
        started,
      });
    });
    return join(toolCacheDir(env), `${recipe.name}-${recipe.version}`, recipe.name);
  });
}
