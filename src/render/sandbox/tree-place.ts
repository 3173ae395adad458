// Where the renderer sees the commit's tree: one path for every checkout, unless the tree names
// where it is.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Isolation } from './isolation.js';
import { VIEW_TREE } from './render-view.js';

/** Past this many entries or bytes the tree is not read through: it is rendered where it is. */
const MAX_ENTRIES = 50_000;
const MAX_BYTES = 256 * 1024 * 1024;

/**
 * `VIEW_TREE` when the renderer can be shown the tree at a path of its own root (`namespaces` and
 * `uid` isolation): then the platform's working directory, its modules' locations and every path
 * a render gives are the same wherever the checkout is, so the result cache is keyed without the
 * checkout's path and a copy of the same content elsewhere (another clone, preview's and the
 * agent's fresh checkouts) reuses its results. Undefined (the tree seen where it is, as before),
 * when the renderer has no root of its own (`trusted`), when a link in the tree names an absolute
 * path (`absoluteLinks`: it resolves only there), or when a file of the tree (`node_modules` and
 * `.git` aside) names the tree's own real path, or the tree is too large to read through: content
 * that reads the checkout by its absolute path keeps working, and its key holds that path.
 */
export async function rendererTreePlace(opts: {
  isolation: Isolation | undefined;
  treeRoot: string;
  absoluteLinks: number;
}): Promise<string | undefined> {
  const mode = opts.isolation?.mode;
  if ((mode !== 'namespaces' && mode !== 'uid') || opts.absoluteLinks > 0) return undefined;
  const budget = { entries: MAX_ENTRIES, bytes: MAX_BYTES };
  const named = await namesPath(opts.treeRoot, Buffer.from(opts.treeRoot), budget);
  return named ? undefined : VIEW_TREE;
}

/** Whether a regular file under `dir` holds `path`; true too when the budget runs out. */
async function namesPath(
  dir: string,
  path: Buffer,
  budget: { entries: number; bytes: number },
): Promise<boolean> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  budget.entries -= entries.length;
  if (budget.entries < 0) return true;
  const found = await Promise.all(
    entries.map(async (e) => {
      if (e.name === '.git' || e.name === 'node_modules') return false;
      const at = join(dir, e.name);
      if (e.isDirectory()) return namesPath(at, path, budget);
      if (!e.isFile()) return false;
      const bytes = await readFile(at).catch(() => Buffer.alloc(0));
      budget.bytes -= bytes.length;
      return budget.bytes < 0 || bytes.includes(path);
    }),
  );
  return found.some(Boolean);
}

/**
 * `text` (a renderer's message) with the paths of the renderer's view as this side's: the tree at
 * `treeAt` as `treeRoot`, and a path beside it (an import escaping the tree by `..`) beside
 * `treeRoot`. Only whole path starts: `/groundwork/tree` inside a URL's path is left as it is.
 */
export function fromView(text: string, treeAt: string, treeRoot: string): string {
  const quote = (path: string) => path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // One pass: the tree itself, else the directory above it; each where a path starts.
  const paths = new RegExp(`(?<![\\w.-])(?:(${quote(treeAt)})(?![\\w.-])|${quote(dirname(treeAt))}/)`, 'g');
  return text.replace(paths, (_all, tree?: string) => (tree ? treeRoot : `${dirname(treeRoot)}/`));
}
