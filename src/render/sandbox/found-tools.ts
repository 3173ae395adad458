import { realpath } from 'node:fs/promises';
import { cacheRoot } from '../../core/cache-root.js';
import { resolveTool } from '../../tools/resolve-tool.js';
import type { RenderJob } from './render-job.js';

let found: { key: string; tools: Promise<RenderJob['tools']> } | undefined;

/**
 * helm and kustomize where they are found on this machine without building (`resolveTool`), by
 * real path, once per process while what finds them stays the same (their variables, `PATH` and
 * the cache's root: a process that changes one looks again); one not found is left out (a render
 * that needs it fails with `ToolNotUsable`).
 */
export function foundTools(env: NodeJS.ProcessEnv = process.env): Promise<RenderJob['tools']> {
  const key = JSON.stringify([env.GROUNDWORK_HELM, env.GROUNDWORK_KUSTOMIZE, env.PATH, cacheRoot(env)]);
  if (found?.key !== key)
    found = {
      key,
      tools: Promise.all(
        (['helm', 'kustomize'] as const).map((name) =>
          resolveTool(name, { build: false, env }).then(
            async (t) => [name, await realpath(t.path)] as const,
            () => undefined,
          ),
        ),
      ).then((all) => Object.fromEntries(all.filter((f) => f !== undefined))),
    };
  return found.tools;
}
