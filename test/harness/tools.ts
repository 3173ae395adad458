import type { Progress } from '../../src/core/progress.js';
import type { ToolName } from '../../src/tools/recipes.js';
import { resolveTool, type ResolvedTool } from '../../src/tools/resolve-tool.js';

let lastUpdate = 0;
/** Build progress on stderr, at most one update line every 20 s (a cold build takes minutes). */
export const toolProgress: Progress = {
  start: (t) => process.stderr.write(`[tools] ${t}\n`),
  update: (t) => {
    if (Date.now() - lastUpdate < 20_000) return;
    lastUpdate = Date.now();
    process.stderr.write(`[tools] ${t}\n`);
  },
  succeed: (t) => process.stderr.write(`[tools] ${t}\n`),
  fail: (t) => process.stderr.write(`[tools] FAILED: ${t}\n`),
  info: (t) => process.stderr.write(`[tools] ${t}\n`),
};

/**
 * A real tool binary for a test: from `GROUNDWORK_<TOOL>`, PATH or the cache. The e2e global setup
 * has built every tool before the run, so this only builds when a file runs outside it.
 */
export async function tool(name: ToolName): Promise<ResolvedTool> {
  return resolveTool(name, { progress: toolProgress });
}

/** The path of a real tool binary (see `tool`). */
export async function toolPath(name: ToolName): Promise<string> {
  return (await tool(name)).path;
}
