// Reading an HTTP chart repository (index.yaml and .tgz archives); `oci://` repositories are
// handed to oci-chart.ts. Archives are cached by digest (chart-archive-cache.ts).
import jsyaml from 'js-yaml';
import { z } from 'zod';
import { checkedFetch } from '../../core/checked-fetch.js';
import type { OutboundPolicy } from '../../core/outbound-url.js';
import { GroundworkError } from '../../core/errors.js';
import { cachedArchive, digestOf, storeArchive } from './chart-archive-cache.js';
import type { ChartLockEntry } from './chart-lock.js';
import { lockedOciArchive, resolveOciChart } from './oci-chart.js';
import { isOci } from './oci-reference.js';

/** The largest index.yaml and chart archive read. */
const INDEX_MAX = 32 * 1024 * 1024;
const ARCHIVE_MAX = 32 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 60_000;

const indexSchema = z.object({
  entries: z.record(
    z.string(),
    z.array(
      z.object({
        version: z.coerce.string(),
        urls: z.array(z.string()).min(1),
        digest: z.string().optional(),
      }),
    ),
  ),
});

/**
 * Resolves `name` at exactly `version` in the chart repository `repo` (its `index.yaml`), downloads
 * the archive and returns the lock entry (URL and `sha256:` digest of the bytes) with the archive
 * stored in the cache. No credentials are sent; only http(s) URLs are followed. An `oci://` repo
 * is resolved by `resolveOciChart` (the tag's manifest digest).
 */
export async function resolveChart(
  key: { repo: string; name: string; version: string },
  opts: { policy?: OutboundPolicy } = {},
): Promise<ChartLockEntry> {
  if (isOci(key.repo)) return resolveOciChart(key, opts);
  const indexUrl = new URL('index.yaml', key.repo.endsWith('/') ? key.repo : `${key.repo}/`);
  let index: z.infer<typeof indexSchema>;
  try {
    const parsed = indexSchema.safeParse(
      jsyaml.load((await download(indexUrl, INDEX_MAX, opts.policy)).toString('utf8')),
    );
    if (!parsed.success) throw new Error('not a chart repository index');
    index = parsed.data;
  } catch (err) {
    throw chartError(
      key,
      `its repository index ${indexUrl.href} cannot be read: ${message(err)}`,
      'check the repository URL',
    );
  }
  const entry = index.entries[key.name]?.find((e) => e.version === key.version);
  if (!entry)
    throw chartError(
      key,
      `version ${key.version} is not in the repository (it has ${
        (index.entries[key.name] ?? [])
          .map((e) => e.version)
          .slice(0, 5)
          .join(', ') || 'no such chart'
      })`,
      'name a version the repository has',
    );
  const url = new URL(entry.urls[0]!, indexUrl);
  const bytes = await download(url, ARCHIVE_MAX, opts.policy).catch((err: unknown) => {
    throw chartError(
      key,
      `the archive ${url.href} cannot be fetched: ${message(err)}`,
      'check the repository',
    );
  });
  const digest = digestOf(bytes);
  await storeArchive(digest, bytes);
  return { repo: key.repo, name: key.name, version: key.version, url: url.href, digest };
}

/**
 * The path of the archive a lock entry names: from the cache (by digest), else downloaded from its
 * URL and checked against the digest before it is stored. Bytes with another digest are refused.
 * An `oci://` entry is fetched by its manifest digest (`lockedOciArchive`).
 */
export async function lockedArchive(
  entry: ChartLockEntry,
  opts: { policy?: OutboundPolicy } = {},
): Promise<string> {
  const cached = await cachedArchive(entry.digest);
  if (cached) return cached;
  if (isOci(entry.repo)) return lockedOciArchive(entry, opts);
  const bytes = await download(new URL(entry.url), ARCHIVE_MAX, opts.policy).catch((err: unknown) => {
    throw chartError(
      entry,
      `the locked archive ${entry.url} cannot be fetched and is not cached: ${message(err)}`,
      'fetch it once online (groundwork chart lock), or check the URL in the lock file',
    );
  });
  const digest = digestOf(bytes);
  if (digest !== entry.digest)
    throw chartError(
      entry,
      `the archive at ${entry.url} has digest ${digest}, not the locked ${entry.digest}`,
      'the repository changed a published chart: check it, then groundwork chart update to lock the new archive',
    );
  return storeArchive(digest, bytes);
}

/**
 * GET `url` through `checkedFetch` (http or https only, no credentials; the host resolved and
 * every address checked, the connection pinned to it; at most 5 redirects, each hop checked the
 * same way; `policy` as given, else this process's), at most `max` bytes. The index, the archive and a lock entry's `url:` all come from
 * repository content or a repository's answer: none may lead to loopback, link-local or metadata.
 */
async function download(url: URL, max: number, policy?: OutboundPolicy): Promise<Buffer> {
  const response = await checkedFetch(url, {
    signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    redirect: 'follow',
    maxRedirects: 5,
    ...(policy ? { policy } : {}),
  });
  if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > max) throw new Error(`larger than ${max / 1024 / 1024} MiB`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

function chartError(
  key: { repo: string; name: string; version: string },
  msg: string,
  fix: string,
): GroundworkError {
  return new GroundworkError({
    code: 'ChartFetchFailed',
    subject: `chart ${key.name} ${key.version} of ${key.repo}`,
    message: msg,
    fix,
  });
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
