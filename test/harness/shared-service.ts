import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { isAlive } from '../../src/core/process-alive.js';
import { withLock } from '../../src/tools/tool-lock.js';
import { recordBuild, testRunDir } from './test-run.js';

/** What a started service hands back: the state clients need, and what to end and remove. */
export interface StartedService<T> {
  readonly state: T;
  /** Its processes, started detached (they outlive the test file that started them). */
  readonly pids: readonly number[];
  /** Its temp directory, removed after the processes end. */
  readonly dir: string;
}

const recordSchema = z.object({
  pids: z.array(z.number().int().positive()),
  dir: z.string(),
  state: z.unknown(),
});

/**
 * A service shared by every test file of a run (one Gitea, one Chromium), started lazily:
 * the first file that asks starts it under a lock in the run's directory and records its PIDs and
 * state in `<run>/services/<name>.json`; later files (each e2e file runs in a process of its own)
 * read the record and connect. Nothing counts references: e2e files run one after another, so a
 * count would fall to zero between two files; the e2e global setup's teardown stops every recorded
 * service at the end of the run (`stopSharedServices`), and kills them if vitest itself exits early.
 * A record whose processes died is started again.
 *
 * Outside a run with a run directory (a file run with another runner), the service is started for
 * this process alone and killed when it exits.
 */
export async function sharedService<T>(
  name: string,
  schema: z.ZodType<T>,
  start: () => Promise<StartedService<T>>,
): Promise<T> {
  const run = testRunDir();
  if (!run) {
    const started = await start();
    process.on('exit', () => killSync(started));
    return started.state;
  }
  const dir = join(run, 'services');
  mkdirSync(dir, { recursive: true });
  return withLock(join(dir, `.lock-${name}`), async () => {
    const file = join(dir, `${name}.json`);
    const existing = readRecord(file);
    if (existing && existing.pids.every(isAlive)) return schema.parse(existing.state);
    if (existing) killSync(existing);
    const began = Date.now();
    const started = await start();
    writeFileSync(file, JSON.stringify({ pids: started.pids, dir: started.dir, state: started.state }));
    recordBuild({ what: name, how: 'started', ms: Date.now() - began });
    return started.state;
  });
}

/** Stops every shared service of the run (SIGTERM, SIGKILL after 10 s) and removes its directory. */
export async function stopSharedServices(run: string): Promise<void> {
  for (const record of records(run)) {
    for (const pid of record.pids) signal(pid, 'SIGTERM');
    const deadline = Date.now() + 10_000;
    while (record.pids.some(isAlive) && Date.now() < deadline) await sleep(100);
    killSync(record);
  }
}

/** SIGKILLs every shared service of the run at once (vitest exiting without its teardown). */
export function killSharedServicesSync(run: string): void {
  for (const record of records(run)) killSync(record);
}

function records(run: string): z.infer<typeof recordSchema>[] {
  const dir = join(run, 'services');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => {
      const record = readRecord(join(dir, f));
      return record ? [record] : [];
    });
}

function readRecord(file: string): z.infer<typeof recordSchema> | undefined {
  try {
    return recordSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return undefined;
  }
}

function killSync(record: { pids: readonly number[]; dir: string }): void {
  for (const pid of record.pids) signal(pid, 'SIGKILL');
  rmSync(record.dir, { recursive: true, force: true });
}

/** Signals the process group `pid` leads (detached services lead one), else the process alone. */
function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pid, sig);
    return;
  } catch {
    // not a group leader, or gone
  }
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}
