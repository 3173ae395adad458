// Everything a render can read, as one digest: the key of the synth result cache.
import { createHash, type Hash } from 'node:crypto';
import { lstatSync, readdirSync, readlinkSync, statSync, type Dirent } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot, packageVersion } from '../../core/package-root.js';

/** Changes when what a render reads changes in a way the inputs below do not show. */
const KEY_REVISION = 2;

/** A tree larger than this is not cached (its render is fresh every time). */
const MAX_ENTRIES = 50_000;
const MAX_HASHED_BYTES = 256 * 1024 * 1024;

/** Groundwork's own compiled code (or its sources, under tsx): the folder above `render/`. */
const CODE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What a render is given besides its files: each one a part of the key. */
export interface SynthInputs {
  /** The checkout and the commit's tree it is in (real paths). */
  dir: string;
  treeRoot: string;
  /**
   * Where the renderer sees `treeRoot` (`VIEW_TREE`, the same for every checkout): then where the
   * checkout is on this machine is no part of the key, only where `dir` is in its tree. Undefined:
   * the renderer sees the real paths, and they are part of the key.
   */
  treeAt: string | undefined;
  /** Directories whose `node_modules` platform imports resolve from (real paths). */
  libraryRoots: readonly string[];
  overlay: string | { all: true };
  /** The trust domain: a key of one domain never equals another's. */
  domain: string;
  render: boolean;
  /** The locked chart archives by digest, and the ones that could not be fetched. */
  archives: readonly { digest: string; path: string }[];
  unavailable: readonly { digest: string; problem: string; fix?: string }[];
  /** helm and kustomize binaries (real paths). */
  tools: Readonly<Record<string, string | undefined>>;
  /** How the renderer is isolated (`Isolation.mode`). */
  isolation: string;
  limits: { timeoutMs: number; heapMb: number; rssMb: number; capBytes: number };
  /** What else the renderer's environment holds (its cache root, the URL policy). */
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * The digest of everything a render of `inputs` can read, or undefined when a tree is too large to
 * digest (more than 50,000 entries or 256 MiB of content): then nothing is cached. The commit's tree
 * by content: every path (its `.git` aside, hidden from the renderer), each regular file's bytes and
 * each link's target; where the checkout is in it, and where the renderer sees it (`treeAt`, or
 * the tree's and the checkout's real paths when it sees them there); any `node_modules` in it and each
 * library root's `node_modules` by every file's path, size and modification time. Groundwork's own
 * version, its code (each file's path, size and modification time; declaration files aside), its lockfile and installed
 * packages (`node_modules/.package-lock.json`, rewritten by every npm install), Node's version;
 * helm's and kustomize's binaries by size, modification time and inode; the chart archives by
 * digest; the overlay, domain, limits and renderer environment as given.
 */
export async function synthInputsDigest(inputs: SynthInputs): Promise<string | undefined> {
  const hash = createHash('sha256');
  const budget = { entries: MAX_ENTRIES, bytes: MAX_HASHED_BYTES };
  const { dir, treeRoot, treeAt, ...rest } = inputs;
  hash.update(
    JSON.stringify({
      KEY_REVISION,
      version: packageVersion(),
      packageRoot,
      node: process.version,
      checkout: relative(treeRoot, dir),
      seenAt: treeAt ?? { dir, treeRoot },
      ...rest,
    }),
  );
  hash.update('\0tree\0');
  const hidden = new Set([join(inputs.treeRoot, '.git'), join(inputs.dir, '.git')]);
  if (!(await digestTree(hash, inputs.treeRoot, '', { hidden, budget, byContent: true }))) return undefined;
  for (const root of inputs.libraryRoots) {
    hash.update(`\0library ${root}\0`);
    const modules = join(root, 'node_modules');
    if (!(await digestTree(hash, modules, '', { hidden, budget, byContent: false }))) return undefined;
  }
  hash.update('\0groundwork\0');
  const code = { hidden, budget, byContent: false, skip: DECLARATIONS };
  if (!(await digestTree(hash, CODE_ROOT, '', code))) return undefined;
  for (const file of ['package.json', 'package-lock.json', 'node_modules/.package-lock.json'])
    hash.update(`${file} ${statOf(join(packageRoot, file))}\n`);
  for (const [name, path] of Object.entries(inputs.tools).sort())
    hash.update(`tool ${name} ${path ?? '-'} ${path ? statOf(path) : '-'}\n`);
  return hash.digest('hex').slice(0, 40);
}

interface WalkOptions {
  hidden: ReadonlySet<string>;
  budget: { entries: number; bytes: number };
  /** Regular files by content (`true`), or by path, size and modification time. */
  byContent: boolean;
  /** Regular files left out by name (no render reads them). */
  skip?: RegExp;
}

/** TypeScript's declaration files beside Groundwork's compiled code: types only, never run. */
const DECLARATIONS = /\.d\.ts$/;

/**
 * Adds the tree under `dir` to `hash`, in path order; false when it is over budget. A missing
 * `dir` adds a line saying so. Each directory is listed and its entries stat-ed synchronously (a
 * promise per stat cost 0.13 s of CPU for Groundwork's ~1,500 compiled files, against ~10 ms), and
 * the walk yields to the event loop between directories; file contents are read asynchronously.
 */
async function digestTree(hash: Hash, dir: string, rel: string, opts: WalkOptions): Promise<boolean> {
  const lines = await linesOf(dir, rel, opts);
  if (!lines) return false;
  for (const line of lines) hash.update(line);
  return true;
}

async function linesOf(dir: string, rel: string, opts: WalkOptions): Promise<string[] | undefined> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [`missing ${rel}\n`];
  }
  const sorted = entries
    .filter((e) => !opts.hidden.has(join(dir, e.name)) && !(opts.skip?.test(e.name) && e.isFile()))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  opts.budget.entries -= sorted.length;
  if (opts.budget.entries < 0) return undefined;
  const each = await Promise.all(
    sorted.map(async (e): Promise<string[] | undefined> => {
      const path = join(dir, e.name);
      const relPath = rel ? `${rel}/${e.name}` : e.name;
      if (e.isSymbolicLink()) return [`l ${relPath} ${readlinkSync(path)}\n`];
      if (e.isDirectory()) {
        const byContent = opts.byContent && e.name !== 'node_modules';
        const below = await linesOf(path, relPath, { ...opts, byContent });
        return below && [`d ${relPath}\n`, ...below];
      }
      if (e.isFile() && opts.byContent) {
        const bytes = await readFile(path);
        opts.budget.bytes -= bytes.length;
        if (opts.budget.bytes < 0) return undefined;
        return [`f ${relPath} ${bytes.length} ${createHash('sha256').update(bytes).digest('hex')}\n`];
      }
      // A regular file, not a link (the entry's type is its lstat's): its stat is its lstat.
      if (e.isFile()) return [`s ${relPath} ${fileStatOf(path)}\n`];
      return [`o ${relPath}\n`];
    }),
  );
  return each.some((x) => x === undefined) ? undefined : (each.flat() as string[]);
}

/** A file's size, modification time (ns) and inode; `-` when it is missing. */
function statOf(path: string): string {
  const s = statSync(path, { bigint: true, throwIfNoEntry: false });
  if (!s) return '-';
  // lstat too: a link swapped for another with the same target's stat still changes the key.
  const l = lstatSync(path, { bigint: true });
  return `${s.size} ${s.mtimeNs} ${s.ino} ${l.ino}`;
}

/** `statOf` of a path found to be a regular file, in one lstat: the same line, its inode twice. */
function fileStatOf(path: string): string {
  const l = lstatSync(path, { bigint: true, throwIfNoEntry: false });
  if (!l) return '-';
  return l.isSymbolicLink() ? statOf(path) : `${l.size} ${l.mtimeNs} ${l.ino} ${l.ino}`;
}
