// Node module hooks for platform code (a repository checkout anywhere: the user's directory, a
// temp dir of the agent or the preview, with or without node_modules or package.json).
//
// Resolution: a bare specifier is resolved from the importing file first, so a platform
// repository's own node_modules wins (cdk8s-plus-*, generated classes, its own libraries); what it
// cannot resolve ('groundwork-gitops', 'cdk8s', 'constructs', 'zod', ... when it has no
// node_modules) is resolved from Groundwork's own package instead.
//
// Format: a `.ts` file with no package.json "type" above it loads as an ES module, the way a
// platform is written (`import`/`export`), instead of as CommonJS.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let fallbackParent;
let extraConditions = [];

export function initialize(data) {
  fallbackParent = data.parentURL;
  extraConditions = data.conditions ?? [];
}

export async function resolve(specifier, context, nextResolve) {
  const ctx = extraConditions.length
    ? { ...context, conditions: [...new Set([...context.conditions, ...extraConditions])] }
    : context;
  let result;
  try {
    result = await nextResolve(specifier, ctx);
  } catch (err) {
    const bare = !specifier.startsWith('.') && !specifier.startsWith('/') && !specifier.includes(':');
    if (!bare || !fallbackParent || (err && err.code !== 'ERR_MODULE_NOT_FOUND')) throw err;
    result = await nextResolve(specifier, { ...ctx, parentURL: fallbackParent });
  }
  if (result.format === 'commonjs' && /\.[cm]?tsx?$/.test(result.url) && result.url.startsWith('file:')) {
    if (packageType(dirname(fileURLToPath(result.url))) === undefined) return { ...result, format: 'module' };
  }
  return result;
}

const types = new Map();

/** The "type" of the nearest package.json above `dir`, or undefined when none says (or none exists). */
function packageType(dir) {
  if (types.has(dir)) return types.get(dir);
  let type;
  const file = join(dir, 'package.json');
  if (existsSync(file)) {
    try {
      type = JSON.parse(readFileSync(file, 'utf8')).type ?? null;
    } catch {
      type = null;
    }
  } else {
    const parent = dirname(dir);
    type = parent === dir ? undefined : packageType(parent);
  }
  types.set(dir, type);
  return type;
}
