// The trusted side's part of rendering charts from repositories: every archive the lock pins, in
// the archive cache before the renderer (which has no network) starts.
import { GroundworkError } from '../../core/errors.js';
import { readChartLock } from './chart-lock.js';
import { lockedArchive } from './chart-repository.js';

/** What `prefetchLockedCharts` found: the archives by digest, and the ones it could not fetch. */
export interface PrefetchedCharts {
  readonly archives: readonly { digest: string; path: string }[];
  readonly unavailable: readonly { digest: string; problem: string; fix?: string }[];
}

/**
 * Fetches every archive `groundwork-charts.lock.yaml` of the checkout `dir` pins into the archive
 * cache (`lockedArchive`: from the cache when there, checked by digest, else downloaded and
 * checked), one at a time. An archive that cannot be fetched is not an error here: a render that
 * uses it fails at its construct, saying why (the renderer gets `unavailable`), and one that does
 * not is not held up. A lock file that is not a lock is `InvalidConfig`.
 */
export async function prefetchLockedCharts(dir: string): Promise<PrefetchedCharts> {
  const lock = await readChartLock(dir);
  const archives: { digest: string; path: string }[] = [];
  const unavailable: { digest: string; problem: string; fix?: string }[] = [];
  for (const entry of lock.charts) {
    try {
      archives.push({ digest: entry.digest, path: await lockedArchive(entry) });
    } catch (err) {
      unavailable.push({
        digest: entry.digest,
        problem: err instanceof Error ? err.message : String(err),
        ...(err instanceof GroundworkError && err.fix ? { fix: err.fix } : {}),
      });
    }
  }
  return { archives, unavailable };
}
