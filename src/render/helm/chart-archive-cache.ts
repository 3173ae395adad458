// Chart archives by digest under `<cache>/charts/`: what HTTP and OCI charts share.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cacheRoot } from '../../core/cache-root.js';

/** `sha256:<hex>` of `bytes`. Pure. */
export function digestOf(bytes: Buffer): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** The directory of the archive cache, `<cache>/charts`: where a locked chart archive may be. */
export function archiveCacheDir(): string {
  return join(cacheRoot(), 'charts');
}

/** Where the archive with `digest` is kept: `<cache>/charts/sha256-<hex>.tgz`. */
export function archivePath(digest: string): string {
  return join(archiveCacheDir(), `${digest.replace(':', '-')}.tgz`);
}

/**
 * The cached archive's path when the cache holds bytes with exactly `digest` (checked on every
 * read: a damaged or swapped file is a miss), else undefined.
 */
export async function cachedArchive(digest: string): Promise<string | undefined> {
  const path = archivePath(digest);
  const cached = await readFile(path).catch(() => undefined);
  return cached && digestOf(cached) === digest ? path : undefined;
}

/**
 * Stores `bytes` (already checked against `digest`) atomically; returns the path. Two stores of
 * one archive at once (a preview renders base and head together) each write a file of their own.
 */
export async function storeArchive(digest: string, bytes: Buffer): Promise<string> {
  const path = archivePath(digest);
  await mkdir(join(path, '..'), { recursive: true });
  const tmp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(tmp, bytes);
  await rename(tmp, path);
  return path;
}
