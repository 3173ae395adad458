import { beforeAll, expect } from 'vitest';
import type { Progress } from '../../src/core/progress.js';
import { GITEA_RECIPE } from '../../src/dev/tools/gitea-recipe.js';
import type { ToolName } from '../../src/tools/recipes.js';
import { resolveTool, type ResolvedTool } from '../../src/tools/resolve-tool.js';
import { recordBuild } from './test-run.js';

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

/** The product's tools and the test-only ones (`src/dev/tools`). */
export type TestToolName = ToolName | 'gitea';

/** Long enough for a cold build of the slowest tool (Gitea: 9 minutes at load 15) and its wait on a lock. */
export const TOOL_BUILD_TIMEOUT_MS = 40 * 60_000;

const resolved = new Map<TestToolName, Promise<ResolvedTool>>();

/**
 * The run's tool cache, as it was when this module loaded: before a test file's own code, which may
 * point `GROUNDWORK_CACHE_DIR` at an empty directory to test the product with a cold cache. The
 * tools a test asks for come from the run's cache all the same: a cold tool cache made every run
 * link sops again (5–38 s) and kustomize (1–30 s) into a temporary directory.
 */
const runCacheDir = process.env.GROUNDWORK_CACHE_DIR;

function runEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  if (runCacheDir === undefined) delete env.GROUNDWORK_CACHE_DIR;
  else env.GROUNDWORK_CACHE_DIR = runCacheDir;
  return env;
}

/**
 * A real tool binary for a test: from `GROUNDWORK_<TOOL>`, PATH or the cache, else built on this
 * first request (the test run builds nothing before a test asks). Builds take the tool's lock in the
 * cache, so two processes never build the same tool, and each build is one at a time per tool; the
 * build (or the cache hit) is recorded for the run's summary with the file that asked.
 *
 * Ask in a `beforeAll` (see `useTools`), not inside a test: a cold build takes minutes.
 */
export function tool(name: TestToolName): Promise<ResolvedTool> {
  let found = resolved.get(name);
  if (!found) {
    found = resolveRecorded(name);
    resolved.set(name, found);
    found.catch(() => resolved.delete(name));
  }
  return found;
}

async function resolveRecorded(name: TestToolName): Promise<ResolvedTool> {
  const started = Date.now();
  const found = await resolveTool(name === 'gitea' ? GITEA_RECIPE : name, {
    env: runEnv(),
    progress: toolProgress,
  });
  const by = testFile();
  recordBuild({
    what: name,
    how: found.source === 'built' ? 'built' : 'cached',
    ms: Date.now() - started,
    ...(by ? { by } : {}),
  });
  return found;
}

/** The path of a real tool binary (see `tool`). */
export async function toolPath(name: TestToolName): Promise<string> {
  return (await tool(name)).path;
}

/**
 * Registers a `beforeAll` that resolves (and on a cold cache builds) the named tools before the
 * file's tests run, with a timeout long enough for a cold build. Every test file that runs a tool,
 * itself or through the product (a synth that renders a chart needs helm, a Kustomization needs
 * kustomize), declares it here, so a cold run builds inside this hook and never inside a test's
 * time limit.
 */
export function useTools(...names: TestToolName[]): void {
  beforeAll(async () => {
    for (const name of names) await tool(name);
  }, TOOL_BUILD_TIMEOUT_MS);
}

/** The test file running now (for a build record), when asked from inside a test file. */
export function testFile(): string | undefined {
  try {
    return expect.getState().testPath ?? undefined;
  } catch {
    return undefined;
  }
}
