import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { confinedRealPath, formatBytes, readBoundedFile } from '../../core/confined-file.js';
import { GroundworkError, hasCode } from '../../core/errors.js';
import type { CatalogFile } from './blobs.js';
import { CatalogUnreadableError } from './errors.js';
import type { Catalog } from './model.js';
import { parseCatalog } from './parse-catalog.js';

const CATALOG_EXTENSIONS = ['.yaml', '.yml', '.json'];

/**
 * The most bytes read from one catalog path of a repository, its files together: 600 times the
 * largest catalog in this repository (`catalogs/community-operators`, 108 KiB), about 40,000 FBC
 * entries of a real index's shape. A repository's catalog is parsed in the agent itself, not in
 * the sandbox, and parsing takes about six times its size in memory (`npm run bench -- catalog`):
 * 64 MiB keeps that well inside the agent's 1 GiB limit. Commit the packages the platform uses
 * (`opm render` filtered), not a whole index.
 */
const CATALOG_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The bound for a catalog the user names on the command line (`catalog ... -f FILE`): their own
 * file on their own machine, so only a guard against a wrong path (a whole rendered index of 100k
 * entries is about 150 MB).
 */
export const USER_CATALOG_MAX_BYTES = 1024 * 1024 * 1024;

interface LoadCatalogOptions {
  /**
   * The checkout the catalog is in. With it, `path` is relative to it and every file and directory
   * read must have its real path inside it (`PathOutsideCheckout`, naming the path as the
   * repository does). @default none: `path` is the user's own (a command-line argument)
   */
  readonly root?: string;
  /** The most bytes read, every file together (`FileTooLarge`). @default CATALOG_MAX_BYTES */
  readonly maxBytes?: number;
}

/**
 * Reads an FBC from a file or a directory and parses it with `parseCatalog`.
 *
 * A directory is walked recursively in name order; files ending in `.yaml`,
 * `.yml` or `.json` are read, everything else is ignored, and so are names
 * starting with `.` (the `..data` links of a mounted ConfigMap, `.indexignore`).
 * Does not honour `.indexignore` patterns.
 *
 * @throws CatalogUnreadableError when the path cannot be read or holds no catalog file.
 * @throws CatalogInvalidError from `parseCatalog`.
 * @throws GroundworkError `PathOutsideCheckout`, `FileTooLarge`, `NotARegularFile` (see the options).
 * @example
 * const catalog = await loadCatalog('catalogs/v4.18/ecr-secret-operator', { root: checkout });
 */
export async function loadCatalog(path: string, opts: LoadCatalogOptions = {}): Promise<Catalog> {
  const files = await readCatalogFiles(path, opts);
  if (files.length === 0) throw new CatalogUnreadableError(path, 'no .yaml, .yml or .json files found');
  return parseCatalog(files, { subject: path });
}

/** The catalog files under `path` (or `path` itself), in a stable order. */
export async function readCatalogFiles(path: string, opts: LoadCatalogOptions = {}): Promise<CatalogFile[]> {
  const budget = {
    catalog: path,
    left: opts.maxBytes ?? CATALOG_MAX_BYTES,
    max: opts.maxBytes ?? CATALOG_MAX_BYTES,
  };
  return readTree(path, opts.root, budget);
}

interface Budget {
  readonly catalog: string;
  readonly max: number;
  left: number;
}

async function readTree(path: string, root: string | undefined, budget: Budget): Promise<CatalogFile[]> {
  let real: string;
  let info;
  try {
    real = root === undefined ? path : await confinedRealPath({ root, path });
    info = await stat(real);
  } catch (err) {
    if (err instanceof GroundworkError) throw err;
    throw new CatalogUnreadableError(path, 'cannot read the catalog path', err);
  }
  if (!info.isDirectory()) return [await readOne(path, real, budget)];
  const files: CatalogFile[] = [];
  const names = (await readdir(real)).filter((n) => !n.startsWith('.')).sort();
  for (const name of names) {
    const child = join(path, name);
    const childReal = root === undefined ? join(real, name) : await confinedRealPath({ root, path: child });
    if ((await stat(childReal)).isDirectory()) files.push(...(await readTree(child, root, budget)));
    else if (CATALOG_EXTENSIONS.some((ext) => name.endsWith(ext)))
      files.push(await readOne(child, childReal, budget));
  }
  return files;
}

/** One file, named `path` in problems, read from `real` within what is left of the budget. */
async function readOne(path: string, real: string, budget: Budget): Promise<CatalogFile> {
  try {
    const text = await readBoundedFile(real, { maxBytes: budget.left, what: 'catalog file', subject: path });
    budget.left -= Buffer.byteLength(text);
    return { path, text };
  } catch (err) {
    if (!hasCode(err, 'FileTooLarge')) throw err;
    throw new GroundworkError({
      code: 'FileTooLarge',
      subject: budget.catalog,
      message: `the catalog's files add up to more than ${formatBytes(budget.max)}, the most Groundwork reads from one catalog`,
      fix: 'list only the packages the platform pins (one directory per package, as `opm render` writes them)',
    });
  }
}
