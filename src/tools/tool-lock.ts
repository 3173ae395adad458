import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isAlive } from '../core/process-alive.js';

/** How long a waiter polls a lock held by another live process before giving up. */
const WAIT_LIMIT_MS = 40 * 60_000;

/** A lock directory without a pid file this old was left by a holder that died before writing it. */
const PIDLESS_STALE_MS = 10_000;

/**
 * Runs `work` while holding the directory lock `dir` (made with `mkdir`, which is atomic), so that
 * two processes (two test files, the CLI and a test run) never build the same tool at once. A lock
 * whose owner pid is no longer alive is taken over, and so is one without a pid file that is older
 * than 10 s (its holder died between `mkdir` and writing the pid). Waiters poll every second; `work` should
 * re-check the cache first, since the previous holder has usually just filled it.
 */
export async function withLock<T>(dir: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  await mkdir(dirname(dir), { recursive: true });
  for (;;) {
    try {
      await mkdir(dir);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(await readFile(join(dir, 'pid'), 'utf8').catch(() => ''));
      if (owner > 0 ? !isAlive(owner) : await olderThan(dir, PIDLESS_STALE_MS)) {
        await rm(dir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() - started > WAIT_LIMIT_MS) throw new Error(`${dir} is still held by process ${owner}`);
      await sleep(1000);
    }
  }
  try {
    await writeFile(join(dir, 'pid'), String(process.pid));
    return await work();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function olderThan(dir: string, ms: number): Promise<boolean> {
  const info = await stat(dir).catch(() => undefined);
  return info !== undefined && Date.now() - info.mtimeMs > ms;
}
