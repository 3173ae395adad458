import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { readConfinedFile } from '../core/confined-file.js';
import { GroundworkError } from '../core/errors.js';
import type { ProjectConfig } from '../project/config.js';
import { CHART_LOCK_FILE } from '../render/helm/chart-lock.js';
import type { PlatformFiles } from './platform-files.js';

/** Bounds: a repository is written by whoever can push. */
const MAX_SOURCES = 500;
const MAX_FILE_BYTES = 1024 * 1024;

/**
 * The files `propose` may edit, read from the checkout `dir` (confined: a link out of it is
 * refused, each file at most 1 MiB): the overlay files of `overlays` (`<overlays>/<name>.yaml` or
 * `.yml`), the platform's TypeScript sources (`.ts`, `.mts`, `.cts` below the entry's folder,
 * without `node_modules` and `.d.ts`, at most 500), and the chart lock. Paths are
 * repository-relative with `/`.
 */
export async function readPlatformFiles(
  dir: string,
  config: Pick<ProjectConfig, 'overlays' | 'entry'>,
  overlays: readonly string[],
): Promise<PlatformFiles> {
  const read = (path: string) => readConfinedFile({ root: dir, path, maxBytes: MAX_FILE_BYTES, what: path });
  const overlayFiles = new Map<string, string>();
  for (const name of overlays) {
    if (!isRepositoryName(name))
      throw new GroundworkError({
        code: 'InvalidConfig',
        subject: `overlay ${JSON.stringify(name.slice(0, 64))}`,
        message: 'is not an overlay name (a path below the overlays folder, without . or .. segments)',
        fix: 'name overlays as the overlays folder holds them: dev, clusters/prod-eu-1',
      });
    for (const ext of ['.yaml', '.yml']) {
      const path = posix.join(config.overlays.replace(/\\/g, '/'), `${name}${ext}`);
      if (existsSync(join(dir, path))) overlayFiles.set(path, await read(path));
    }
  }
  const sources = new Map<string, string>();
  const root = posix.dirname(config.entry.replace(/\\/g, '/'));
  for (const path of await sourceFiles(dir, root === '.' ? '' : root)) sources.set(path, await read(path));
  const chartLock = existsSync(join(dir, CHART_LOCK_FILE))
    ? { path: CHART_LOCK_FILE, text: await read(CHART_LOCK_FILE) }
    : undefined;
  return { overlays: overlayFiles, sources, ...(chartLock ? { chartLock } : {}) };
}

async function sourceFiles(dir: string, root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    for (const e of await readdir(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.')) await walk(path);
      else if (e.isFile() && /\.[mc]?ts$/.test(e.name) && !/\.d\.[mc]?ts$/.test(e.name)) {
        if (out.length >= MAX_SOURCES)
          throw new GroundworkError({
            code: 'InvalidConfig',
            subject: root || '.',
            message: `more than ${MAX_SOURCES} TypeScript files below the platform's entry folder`,
            fix: 'keep the platform code in its own folder (entry: platform/main.ts)',
          });
        out.push(path);
      }
    }
  };
  if (existsSync(join(dir, root))) await walk(root);
  return out.sort();
}

/** `dev`, `clusters/prod-eu-1`: `/`-separated, no empty, `.` or `..` segment, no backslash or control character. */
function isRepositoryName(name: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (name.length > 253 || /[\\\u0000-\u001f]/.test(name) || name.startsWith('/')) return false;
  return name.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}
