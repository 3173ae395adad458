import { realpath } from 'node:fs/promises';
import { resolveTool } from '../../tools/resolve-tool.js';
import type { RenderJob } from './render-job.js';

let tools: Promise<RenderJob['tools']> | undefined;

/**
 * helm and kustomize where they are found on this machine without building (`resolveTool`), by
 * real path, once per process; one not found is left out (a render that needs it fails with
 * `ToolNotUsable`).
 */
export function foundTools(): Promise<RenderJob['tools']> {
  tools ??= Promise.all(
    (['helm', 'kustomize'] as const).map((name) =>
      resolveTool(name, { build: false }).then(
        async (t) => [name, await realpath(t.path)] as const,
        () => undefined,
      ),
    ),
  ).then((found) => Object.fromEntries(found.filter((f) => f !== undefined)));
  return tools;
}
