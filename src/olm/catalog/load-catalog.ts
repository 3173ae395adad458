import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { CatalogFile } from './blobs.js';
import { CatalogUnreadableError } from './errors.js';
import type { Catalog } from './model.js';
import { parseCatalog } from './parse-catalog.js';

const CATALOG_EXTENSIONS = ['.yaml', '.yml', '.json'];

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
 * @example
 * const catalog = await loadCatalog('catalogs/v4.18/ecr-secret-operator');
 */
export async function loadCatalog(path: string): Promise<Catalog> {
  const files = await readCatalogFiles(path);
  if (files.length === 0) throw new CatalogUnreadableError(path, 'no .yaml, .yml or .json files found');
  return parseCatalog(files, { subject: path });
}

/** The catalog files under `path` (or `path` itself), in a stable order. */
export async function readCatalogFiles(path: string): Promise<CatalogFile[]> {
  let info;
  try {
    info = await stat(path);
  } catch (err) {
    throw new CatalogUnreadableError(path, 'cannot read the catalog path', err);
  }
  if (!info.isDirectory()) return [{ path, text: await readFile(path, 'utf8') }];
  const files: CatalogFile[] = [];
  const names = (await readdir(path)).filter((n) => !n.startsWith('.')).sort();
  for (const name of names) {
    const child = join(path, name);
    const childInfo = await stat(child);
    if (childInfo.isDirectory()) files.push(...(await readCatalogFiles(child)));
    else if (CATALOG_EXTENSIONS.some((ext) => name.endsWith(ext))) {
      files.push({ path: child, text: await readFile(child, 'utf8') });
    }
  }
  return files;
}
