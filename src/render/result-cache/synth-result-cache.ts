// Synth results kept by everything their render read, per trust domain, so an unchanged checkout
// is not rendered again.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeFrame, type FrameExpectations, type SynthChildOutput } from '../sandbox/protocol.js';
import type { SynthResult } from '../synth/synthesize.js';

/** How many results each domain's cache keeps (the newest used). */
export const RESULT_CACHE_ENTRIES = 32;

/** A temporary file older than this was left by a run that ended before its rename. */
const STALE_TMP_MS = 10 * 60_000;

/** An entry's first line: what it is and the key it was written under. */
const header = (key: string) => `groundwork-synth-results/1 ${key}`;

/** Where `domain`'s results live: `<cacheRoot>/results/<domain>`, apart from what any renderer may write. */
export function resultCacheDir(cacheRoot: string, domain: string): string {
  return join(cacheRoot, 'results', domain);
}

/**
 * The results cached under `key` in `dir`, or undefined. An entry is data: no larger than
 * `expect.capBytes` (checked before it is read), headed by its own key, and its body read by
 * `decodeFrame` exactly as a renderer's answer is (bounds, the strict schema, each object's identity,
 * the overlays and platform expected). An entry that fails any of these is removed and undefined is
 * returned: the caller renders afresh.
 */
export async function readCachedResults(
  dir: string,
  key: string,
  expect: FrameExpectations & { capBytes: number },
): Promise<SynthResult[] | undefined> {
  const file = join(dir, `${key}.json`);
  const head = `${header(key)}\n`;
  const handle = await open(file, 'r').catch(() => undefined);
  if (!handle) return undefined;
  let bytes: Buffer;
  try {
    const size = (await handle.stat()).size;
    if (size > expect.capBytes + head.length) return await refuse(file);
    bytes = await handle.readFile();
  } finally {
    await handle.close();
  }
  if (
    bytes.length > expect.capBytes + head.length ||
    bytes.subarray(0, head.length).toString('latin1') !== head
  )
    return refuse(file);
  const nonce = randomBytes(16).toString('hex');
  const frame = Buffer.concat([Buffer.from(`${nonce}\n`), bytes.subarray(head.length)]);
  const decoded = decodeFrame(frame, nonce, expect);
  if (!decoded.ok || !decoded.output.ok) return refuse(file);
  const now = new Date();
  await utimes(file, now, now).catch(() => undefined); // in use: the last to be evicted
  return decoded.output.results;
}

async function refuse(file: string): Promise<undefined> {
  await rm(file, { force: true });
  return undefined;
}

/**
 * Keeps `results` under `key` in `dir`: written to a temporary file of this process and renamed
 * into place, so a concurrent reader sees a whole entry or none; then only the newest
 * `RESULT_CACHE_ENTRIES` entries stay. A failure to write loses nothing but the entry.
 */
export async function storeResults(dir: string, key: string, results: readonly SynthResult[]): Promise<void> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const tmp = join(dir, `${key}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    const output: SynthChildOutput = { ok: true, results: [...results] };
    await writeFile(tmp, `${header(key)}\n${JSON.stringify(output)}`, { mode: 0o600 });
    await rename(tmp, join(dir, `${key}.json`));
    await evict(dir);
  } catch {
    // A cache that cannot be written is no cache: the next run renders.
  }
}

/** Keeps the newest `RESULT_CACHE_ENTRIES` entries and removes stale temporary files. */
async function evict(dir: string): Promise<void> {
  const files = await Promise.all(
    (await readdir(dir)).map(async (f) => ({
      f,
      at: (await stat(join(dir, f)).catch(() => undefined))?.mtimeMs,
    })),
  );
  const entries = files.filter((x) => x.f.endsWith('.json') && x.at !== undefined);
  for (const { f } of entries.sort((a, b) => b.at! - a.at!).slice(RESULT_CACHE_ENTRIES))
    await rm(join(dir, f), { force: true });
  for (const { f, at } of files)
    if (f.endsWith('.tmp') && at !== undefined && Date.now() - at > STALE_TMP_MS)
      await rm(join(dir, f), { force: true });
}
