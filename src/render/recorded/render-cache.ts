// Render results kept by what they were rendered from, so an unchanged chart is not rendered again.
import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, realpath, rename, stat, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';

/** The most a chart directory may hold for its digest to be taken (larger ones are not cached). */
const DIGEST_MAX_BYTES = 64 * 1024 * 1024;

/**
 * `sha256:` over every regular file under `dir` (relative path and content, in path order), or
 * undefined when it holds more than 64 MiB. Symbolic links are hashed by their name (the tree walk
 * before synth has confined them); with `links.within`, a link to a regular file whose real path
 * is inside `links.within` is hashed by that file's content instead (a change to its target
 * changes the digest), and any other link (to a directory, dangling, or leading out) makes the
 * digest undefined: not cached, never read.
 */
export async function directoryDigest(
  dir: string,
  opts: { links?: { within: string } } = {},
): Promise<string | undefined> {
  const hash = createHash('sha256');
  let total = 0;
  const walk = async (at: string): Promise<boolean> => {
    const names = (await readdir(at)).sort();
    for (const name of names) {
      const path = join(at, name);
      const info = await lstat(path);
      const rel = relative(dir, path);
      if (info.isDirectory()) {
        if (!(await walk(path))) return false;
      } else if (info.isFile()) {
        total += info.size;
        if (total > DIGEST_MAX_BYTES) return false;
        const bytes = await readFile(path);
        hash.update(`f ${rel} ${bytes.length}\n`).update(bytes);
      } else if (info.isSymbolicLink()) {
        if (!opts.links) {
          hash.update(`l ${rel}\n`);
          continue;
        }
        const target = await linkedFile(path, opts.links.within);
        if (!target) return false;
        total += target.length;
        if (total > DIGEST_MAX_BYTES) return false;
        hash.update(`f ${rel} ${target.length}\n`).update(target);
      }
    }
    return true;
  };
  return (await walk(dir)) ? `sha256:${hash.digest('hex')}` : undefined;
}

/** The bytes of the regular file `link` resolves to inside `within`; undefined for anything else. */
async function linkedFile(link: string, within: string): Promise<Buffer | undefined> {
  const real = await realpath(link).catch(() => undefined);
  const root = await realpath(within).catch(() => undefined);
  if (!real || !root) return undefined;
  const rel = relative(root, real);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  if (!(await stat(real)).isFile()) return undefined;
  return readFile(real);
}

/** The identity of a binary for a cache key: its path, size and modification time. */
export async function binaryIdentity(path: string): Promise<string> {
  const info = await stat(path);
  return `${path} ${info.size} ${info.mtimeMs}`;
}

/** A cache key over JSON-able parts. Pure. */
export function renderKey(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** The stored render of `key` in `cacheDir`, if any. */
export async function cachedRender(cacheDir: string, key: string): Promise<string | undefined> {
  return readFile(join(cacheDir, `${key}.yaml`), 'utf8').catch(() => undefined);
}

/** Stores a render (written aside and renamed, so a reader never sees half of it). */
export async function storeRender(cacheDir: string, key: string, text: string): Promise<void> {
  await mkdir(cacheDir, { recursive: true });
  const tmp = join(cacheDir, `${key}.${process.pid}.tmp`);
  await writeFile(tmp, text);
  await rename(tmp, join(cacheDir, `${key}.yaml`));
}
