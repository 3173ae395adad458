// A directory as the entries of a render request, and back: read on the agent's side, written on
// the renderer's, confined there.
import { lstat, mkdir, readdir, readFile, readlink, realpath, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { GroundworkError } from '../../core/errors.js';
import type { TreeEntry } from './remote-request.js';

/**
 * Every file and symbolic link under `root` as tree entries (paths relative, `/`-separated), the
 * top-level names in `skip` left out; other kinds (sockets, devices) are skipped. Adds each
 * file's size to `budget.used` and throws `RendererUnreachable` past `budget.maxBytes`, before
 * reading more. The caller has already checked the links (`assertSymlinksStayInside`).
 */
export async function readTree(
  root: string,
  budget: { used: number; maxBytes: number },
  skip: ReadonlySet<string> = new Set(),
): Promise<TreeEntry[]> {
  const entries: TreeEntry[] = [];
  const walk = async (dir: string, top: boolean): Promise<void> => {
    for (const name of (await readdir(dir)).sort()) {
      if (top && skip.has(name)) continue;
      const path = join(dir, name);
      const rel = relative(root, path).split(sep).join('/');
      const info = await lstat(path);
      if (info.isSymbolicLink()) entries.push({ kind: 'link', path: rel, target: await readlink(path) });
      else if (info.isDirectory()) await walk(path, false);
      else if (info.isFile()) {
        budget.used += info.size;
        if (budget.used > budget.maxBytes) throw tooLarge(budget.maxBytes);
        entries.push({
          kind: 'file',
          path: rel,
          exec: (info.mode & 0o111) !== 0,
          data: (await readFile(path)).toString('base64'),
        });
      }
    }
  };
  await walk(root, true);
  return entries;
}

/** `RendererUnreachable`: a render request would pass `maxBytes` of file content. */
export function tooLarge(maxBytes: number): GroundworkError {
  return new GroundworkError({
    code: 'RendererUnreachable',
    subject: 'renderer',
    message: `the render request would be larger than ${Math.round(maxBytes / 1024 / 1024)} MiB (the checkout, its dependencies and chart archives); nothing was rendered`,
    fix: "keep large files out of the platform repository, or raise the renderer's --max-request-mb and the agent's GROUNDWORK_RENDERER_REQUEST_MB together",
  });
}

/**
 * Writes `entries` under `root` (a real path of an empty directory): files first, then links, and
 * never through a link (each entry's parent directory must be where its path says). Each path must
 * stay under `root` lexically, and each link's target, resolved from the link's directory, must
 * too (a link out of the tree is refused, as `assertSymlinksStayInside` refuses it on the agent's
 * side). Files are written 0644 (0755 when `exec`). Throws `SymlinkOutsideCheckout` for a link
 * leading out or a path through a link, `RendererUnreachable` for a path outside (the schema
 * refuses those before).
 */
export async function writeTree(root: string, entries: readonly TreeEntry[]): Promise<void> {
  const inside = (path: string) => path === root || path.startsWith(root + sep);
  const ordered = [...entries.filter((e) => e.kind === 'file'), ...entries.filter((e) => e.kind === 'link')];
  for (const entry of ordered) {
    const target = resolve(root, entry.path);
    if (!inside(target) || target === root)
      throw new GroundworkError({
        code: 'RendererUnreachable',
        subject: 'renderer',
        message: 'a render request names a path outside its tree',
      });
    const parent = dirname(target);
    await mkdir(parent, { recursive: true });
    const escapes =
      (await realpath(parent)) !== parent ||
      (entry.kind === 'link' && (entry.target.includes('\0') || !inside(resolve(parent, entry.target))));
    if (escapes)
      throw new GroundworkError({
        code: 'SymlinkOutsideCheckout',
        subject: entry.path,
        message: 'a symbolic link of the render request leads outside its tree, or a path goes through one',
        fix: 'replace the link with a copy of what it points to',
      });
    if (entry.kind === 'file')
      await writeFile(target, Buffer.from(entry.data, 'base64'), {
        mode: entry.exec ? 0o755 : 0o644,
        flag: 'wx',
      });
    else await symlink(entry.target, target);
  }
}
