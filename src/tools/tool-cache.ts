import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { cacheRoot } from '../core/cache-root.js';
import type { ToolRecipe } from './recipes.js';

/** Where built tools live: `<cache>/tools/`. */
export function toolCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheRoot(env), 'tools');
}

const toolRecordSchema = z.object({
  name: z.string(),
  version: z.string(),
  go: z.string(),
  moduleDir: z.string().optional(),
  builtAt: z.string(),
  buildSeconds: z.number().optional(),
});

/** What a finished build wrote next to the binary, as `tool.json`. */
export type ToolRecord = z.infer<typeof toolRecordSchema>;

/**
 * The cached build of `recipe`'s pinned version with its binary path, or undefined when there is
 * none (or its record is unreadable, which counts as none: the build is redone).
 */
export async function cachedTool(
  recipe: ToolRecipe,
  env: NodeJS.ProcessEnv,
): Promise<(ToolRecord & { path: string }) | undefined> {
  const dir = join(toolCacheDir(env), `${recipe.name}-${recipe.version}`);
  try {
    const record = toolRecordSchema.parse(JSON.parse(await readFile(join(dir, 'tool.json'), 'utf8')));
    return { ...record, path: join(dir, recipe.name) };
  } catch {
    return undefined;
  }
}
