// The text files of a chart that synth reads itself (besides helm): its templates, values.yaml and
// Chart.yaml, and those of its subcharts, from a chart directory or a chart archive (.tgz).
import { lstat, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { extract } from 'tar-stream';

/** Bounds of one chart's reading, subcharts and nested archives included (helm's own are 5 and 100 MiB). */
export interface ChartFilesLimits {
  /** A file larger than this is left unread. */
  fileBytes: number;
  /** Bytes read in all: directory files, and an archive's decompressed stream. */
  totalBytes: number;
  /** Entries (files, directories, links) looked at. */
  entries: number;
}

export const CHART_FILES_LIMITS: ChartFilesLimits = {
  fileBytes: 5 * 1024 * 1024,
  totalBytes: 100 * 1024 * 1024,
  entries: 20_000,
};

/** Subcharts inside subcharts followed at most this deep (`charts/a/charts/b/...`). */
const MAX_DEPTH = 5;

/**
 * A chart's files, by path relative to the chart's root with `/` separators: `values.yaml`,
 * `templates/cm.yaml`, and a subchart's as helm names them, `charts/<name>/templates/x.yaml`,
 * whether `charts/` holds it as a directory or as an archive (`charts/<name>-1.0.0.tgz`, named by
 * its top directory).
 */
export interface ChartFiles {
  files: ReadonlyMap<string, string>;
  /** Whether a bound was reached or an archive could not be read: some files may be missing. */
  incomplete: boolean;
}

/** Where a rendered chart's files are: a directory of the checkout, or a locked archive in the cache. */
export type ChartSource = { dir: string } | { archive: string };

/**
 * The files of the chart helm rendered (`chartFilesOfDirectory` or `chartFilesOfArchive`); an
 * archive over `totalBytes` on disk is not read (`incomplete`).
 */
export async function chartFilesOf(
  source: ChartSource,
  limits: ChartFilesLimits = CHART_FILES_LIMITS,
): Promise<ChartFiles> {
  if ('dir' in source) return chartFilesOfDirectory(source.dir, limits);
  const bytes = await readBounded(source.archive, {
    limits: { ...limits, fileBytes: limits.totalBytes },
    bytes: 0,
    entries: 0,
    incomplete: false,
  });
  return bytes ? chartFilesOfArchive(bytes, limits) : { files: new Map(), incomplete: true };
}

/** `charts/<name>/` repeated, then Chart.yaml, values.yaml or a file under templates/. */
const KEPT = /^(charts\/[^/]+\/)*(Chart\.yaml|values\.yaml|templates\/.+)$/;
/** A subchart archive in a `charts/` directory. */
const NESTED_ARCHIVE = /^(charts\/[^/]+\/)*charts\/[^/]+\.tgz$/;

interface Budget {
  limits: ChartFilesLimits;
  bytes: number;
  entries: number;
  incomplete: boolean;
}

/**
 * Reads the chart directory `root` (a real path the caller confined to the checkout). Symbolic
 * links are not followed (the checkout's were checked to stay inside it; they are not read here),
 * nothing outside `root` is read, and `limits` bound what is. Never throws for the chart's content.
 */
export async function chartFilesOfDirectory(
  root: string,
  limits: ChartFilesLimits = CHART_FILES_LIMITS,
): Promise<ChartFiles> {
  const files = new Map<string, string>();
  const budget: Budget = { limits, bytes: 0, entries: 0, incomplete: false };
  const walk = async (dir: string, rel: string, depth: number): Promise<void> => {
    if (depth > 4 * MAX_DEPTH) return;
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (++budget.entries > limits.entries) {
        budget.incomplete = true;
        return;
      }
      const path = `${rel}${entry.name}`;
      // withFileTypes does not follow links: a link is neither a file nor a directory here.
      if (entry.isDirectory()) await walk(join(dir, entry.name), `${path}/`, depth + 1);
      else if (entry.isFile() && (KEPT.test(path) || NESTED_ARCHIVE.test(path))) {
        const bytes = await readBounded(join(dir, entry.name), budget);
        if (!bytes) continue;
        if (KEPT.test(path)) files.set(path, bytes.toString('utf8'));
        else await readArchiveInto(bytes, files, subchartPrefix(path), budget, depthOf(path) + 1);
      }
    }
  };
  await walk(root, '', 0);
  return { files, incomplete: budget.incomplete };
}

/**
 * Reads a chart archive (gzip'd tar, as `helm package` writes) in memory: nothing is extracted
 * to disk. Only regular file entries are read; links, devices and entries whose name is absolute
 * or holds a `..` segment are skipped, a file over `fileBytes` is skipped unread, and reading stops
 * at `totalBytes` of decompressed stream (a gzip bomb) or `entries` entries. The archive's top
 * directory is its chart's root. Never throws for the archive's content: bytes that are no archive
 * give what was read, `incomplete`.
 */
export async function chartFilesOfArchive(
  bytes: Buffer,
  limits: ChartFilesLimits = CHART_FILES_LIMITS,
): Promise<ChartFiles> {
  const files = new Map<string, string>();
  const budget: Budget = { limits, bytes: 0, entries: 0, incomplete: false };
  await readArchiveInto(bytes, files, '', budget, 0);
  return { files, incomplete: budget.incomplete };
}

async function readArchiveInto(
  bytes: Buffer,
  files: Map<string, string>,
  prefix: string,
  budget: Budget,
  depth: number,
): Promise<void> {
  if (depth > MAX_DEPTH) {
    budget.incomplete = true;
    return;
  }
  const nested: { path: string; bytes: Buffer }[] = [];
  const entries = extract();
  const gunzip = createGunzip();
  const count = counted(budget);
  // pipe() forwards no errors: each stage's failure ends the reading.
  for (const stage of [gunzip, count]) stage.on('error', (err) => entries.destroy(err));
  Readable.from([bytes]).pipe(gunzip).pipe(count).pipe(entries);
  try {
    for await (const entry of entries) {
      const at = chartPath(entry.header.name);
      // The top archive's directory is the chart's root; a subchart archive's is its name in charts/.
      const name = at && (depth === 0 ? at.rest : `${prefix}${at.top}/${at.rest}`);
      const keep =
        entry.header.type === 'file' &&
        at !== undefined &&
        name !== undefined &&
        entry.header.size <= budget.limits.fileBytes &&
        (KEPT.test(at.rest) || NESTED_ARCHIVE.test(at.rest));
      if (++budget.entries > budget.limits.entries) {
        budget.incomplete = true;
        entry.resume();
        break;
      }
      if (!keep) {
        // Skipped unread: drained through the bounded stream, never buffered.
        entry.resume();
        continue;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      const content = Buffer.concat(chunks);
      if (KEPT.test(at.rest)) files.set(name, content.toString('utf8'));
      else nested.push({ path: name, bytes: content });
    }
  } catch {
    budget.incomplete = true;
  } finally {
    gunzip.destroy();
    count.destroy();
    entries.destroy();
  }
  for (const n of nested) await readArchiveInto(n.bytes, files, subchartPrefix(n.path), budget, depth + 1);
}

/**
 * An archive entry's top directory and path below it (`hello/templates/a.yaml` -> `hello`,
 * `templates/a.yaml`), or undefined for a name to skip: absolute, with a `..`, `.` or empty
 * segment, a backslash or a control character, or the top directory itself. Pure.
 */
export function chartPath(entryName: string): { top: string; rest: string } | undefined {
  // eslint-disable-next-line no-control-regex
  if (entryName.startsWith('/') || /[\\\u0000-\u001f]/.test(entryName)) return undefined;
  const segments = entryName.replace(/^\.\//, '').replace(/\/$/, '').split('/');
  if (segments.length < 2 || segments.some((s) => s === '..' || s === '.' || s === '')) return undefined;
  return { top: segments[0]!, rest: segments.slice(1).join('/') };
}

/**
 * Where a subchart archive's files go: `charts/sub-0.1.0.tgz` -> `charts/`, completed by the
 * archive's own top directory (`sub/`), as helm names a subchart by its chart.
 */
function subchartPrefix(archivePath: string): string {
  return archivePath.slice(0, archivePath.lastIndexOf('/') + 1);
}

function depthOf(path: string): number {
  return path.split('/').filter((s) => s === 'charts').length;
}

/** A pass-through that fails once the budget's total bytes are spent. */
function counted(budget: Budget): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      budget.bytes += chunk.length;
      if (budget.bytes > budget.limits.totalBytes) {
        budget.incomplete = true;
        done(new Error('the chart is larger than the bound read'));
      } else done(null, chunk);
    },
  });
}

/** A regular file's bytes when it fits the budget; undefined (counted incomplete) when not. */
async function readBounded(path: string, budget: Budget): Promise<Buffer | undefined> {
  const info = await lstat(path).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  if (info.size > budget.limits.fileBytes || budget.bytes + info.size > budget.limits.totalBytes) {
    budget.incomplete = true;
    return undefined;
  }
  const file = await open(path, 'r').catch(() => undefined);
  if (!file) return undefined;
  try {
    const buffer = Buffer.alloc(info.size);
    const { bytesRead } = await file.read(buffer, 0, info.size, 0);
    budget.bytes += bytesRead;
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}
