// What of the trusted side's files the renderer sees: found here (stat, realpath), handed to the
// pure builder (`rootPlan`) as data.
import {
  chmod,
  chown,
  copyFile,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readlink,
  realpath,
  rm,
  symlink,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import type { RenderIdentity } from './isolation.js';
import type { RenderView, SystemEntry, ViewEntry } from './launch-plan.js';

/** The system's directories a Linux program needs: programs, libraries (merged-usr links recreated). */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/**
 * The few `/etc` entries rendering needs: user and host names for the C library, the dynamic
 * linker's cache, the time zone, CA certificates. No `resolv.conf`: there is no network.
 */
const ETC = [
  '/etc/passwd',
  '/etc/group',
  '/etc/hosts',
  '/etc/nsswitch.conf',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/localtime',
  '/etc/ssl',
  '/etc/ca-certificates',
];

let system: Promise<SystemEntry[]> | undefined;

/** The system entries of this machine (`SYSTEM_DIRS`, `ETC`) as they are, looked up once per process. */
export function systemEntries(): Promise<SystemEntry[]> {
  system ??= Promise.all([...SYSTEM_DIRS, ...ETC].map(entryOf)).then((all) =>
    all.filter((e): e is SystemEntry => e !== undefined),
  );
  return system;
}

async function entryOf(path: string): Promise<SystemEntry | undefined> {
  const info = await lstat(path).catch(() => undefined);
  if (!info) return undefined;
  if (info.isSymbolicLink()) return { path, kind: 'link', target: await readlink(path) };
  if (info.isDirectory()) return { path, kind: 'dir' };
  return info.isFile() ? { path, kind: 'file' } : undefined;
}

/** The trusted side's paths a render reads and writes, before they are looked up. */
export interface ViewPaths {
  /** Directories and files read (Node, Groundwork, libraries, tools, archives, bundle); bound at their real paths. */
  readonly reads: readonly string[];
  /** The commit's tree: its `.git` is hidden, and in `uid` mode a copy is bound in its place. */
  readonly treeRoot: string;
  /** The checkout (at or under `treeRoot`). */
  readonly dir: string;
  /** The trust domain's cache directory (created here). */
  readonly cacheDir?: string | undefined;
  /**
   * Where the renderer sees `treeRoot` (`VIEW_TREE`: the same path for every checkout, so nothing
   * a render gives can depend on where the checkout is). @default `treeRoot`, its own path
   */
  readonly treeAt?: string | undefined;
}

/**
 * Where an isolated renderer sees the commit's tree (`renderPlatform`'s choice unless the tree holds
 * a link to an absolute path): a directory of the renderer's own root, the same for every render.
 */
export const VIEW_TREE = '/groundwork/tree';

/** A view, and what to remove once the render has ended. */
export interface PreparedView {
  readonly view: RenderView;
  dispose(): Promise<void>;
}

/**
 * The renderer's view of `paths`: each read as a directory or a file (missing ones left out), the
 * tree at `paths.treeAt`, `.git` hidden, the cache directory writable. With `identity` (`uid` mode)
 * the cache directory is made the renderer user's, and the tree is copied (without `.git`; its
 * `node_modules` bound as they are) into a directory that user can read, bound at `paths.treeAt`.
 */
export async function prepareView(paths: ViewPaths, identity?: RenderIdentity): Promise<PreparedView> {
  const readOnly: ViewEntry[] = [];
  // By real path: a bind follows links, so a read named through a link is bound where it leads.
  for (const path of new Set(await Promise.all(paths.reads.map((p) => realpath(p).catch(() => p))))) {
    const info = await lstat(path).catch(() => undefined);
    if (info?.isDirectory()) readOnly.push({ path, kind: 'dir' });
    else if (info?.isFile()) readOnly.push({ path, kind: 'file' });
  }
  const writable: string[] = [];
  if (paths.cacheDir) {
    await mkdir(paths.cacheDir, { recursive: true });
    if (identity) await ownTree(paths.cacheDir, identity);
    writable.push(paths.cacheDir);
  }
  const at = paths.treeAt ?? paths.treeRoot;
  // A path under the tree, where the renderer sees it.
  const seen = (path: string) => join(at, relative(paths.treeRoot, path));
  const moved = at !== paths.treeRoot;
  if (!identity) {
    const hidden = await existingDirs([join(paths.treeRoot, '.git'), join(paths.dir, '.git')]);
    return {
      view: {
        readOnly: moved ? readOnly : [...readOnly, { path: paths.treeRoot, kind: 'dir' }],
        writable,
        hidden: hidden.map(seen),
        substitutes: moved ? [{ copy: paths.treeRoot, at }] : [],
      },
      dispose: async () => {},
    };
  }
  const copies = await mkdtemp(join(tmpdir(), 'groundwork-view-'));
  await chmod(copies, 0o755);
  const copy = join(copies, 'tree');
  await copyReadable(paths.treeRoot, copy, new Set(['.git', 'node_modules']));
  const modules = await existingDirs([join(paths.treeRoot, 'node_modules'), join(paths.dir, 'node_modules')]);
  // Where each is bound must exist in the copy: the renderer's root is read-only there.
  for (const path of modules) await mkdir(join(copy, relative(paths.treeRoot, path)), { recursive: true });
  return {
    view: {
      readOnly: moved ? readOnly : [...readOnly, ...modules.map((path) => ({ path, kind: 'dir' as const }))],
      writable,
      hidden: [],
      substitutes: [{ copy, at }, ...(moved ? modules.map((path) => ({ copy: path, at: seen(path) })) : [])],
    },
    dispose: () => rm(copies, { recursive: true, force: true }),
  };
}

async function existingDirs(paths: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const path of new Set(paths))
    if ((await lstat(path).catch(() => undefined))?.isDirectory()) found.push(await realpath(path));
  return found;
}

/**
 * Makes `dir` and everything under it owned by `identity` (the renderer's cache in `uid` mode),
 * unless `dir` is already its: only the renderer writes there once it is.
 */
async function ownTree(dir: string, identity: RenderIdentity): Promise<void> {
  const top = await lstat(dir);
  if (top.uid === identity.uid && top.gid === identity.gid) return;
  const walk = async (path: string): Promise<void> => {
    const info = await lstat(path);
    if (info.isSymbolicLink()) return;
    await chown(path, identity.uid, identity.gid);
    if (info.isDirectory()) for (const name of await readdir(path)) await walk(join(path, name));
  };
  await walk(dir);
}

/**
 * Copies the tree `from` to `to`: directories `0755`, files readable by all (`| 0444`), symbolic
 * links as they are (checked before: they stay inside the tree, which is bound where it was),
 * the top-level names in `skip` left out.
 */
async function copyReadable(from: string, to: string, skip: ReadonlySet<string>): Promise<void> {
  await mkdir(to, { recursive: true, mode: 0o755 });
  await chmod(to, 0o755);
  for (const name of await readdir(from)) {
    if (skip.has(name)) continue;
    const source = join(from, name);
    const target = join(to, name);
    const info = await lstat(source);
    if (info.isSymbolicLink()) await symlink(await readlink(source), target);
    else if (info.isDirectory()) await copyReadable(source, target, new Set());
    else if (info.isFile()) {
      await mkdir(dirname(target), { recursive: true });
      await copyFile(source, target);
      await chmod(target, (info.mode & 0o7777 & ~0o6000) | 0o444);
    }
  }
}
