import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * The variable naming this test run's directory: made by the summary reporter when the run starts
 * (or by the e2e global setup when another reporter runs), inherited by every test worker, removed
 * when vitest exits. It holds `builds/` (what was built during the run and how long it took, for
 * the summary) and `services/` (the shared services, see `shared-service.ts`).
 */
export const TEST_RUN_DIR = 'GROUNDWORK_TEST_RUN_DIR';

/**
 * Makes this run's directory in the system's temporary directory and names it in the environment
 * (`TEST_RUN_DIR`) for every process the run starts, removed when this process exits. Its `tmp/` is
 * the run's temporary directory (`TMPDIR`): every test's temporary files are removed with the run,
 * whatever a test forgets (a run used to leave hundreds of directories in /tmp). `tmp/` is
 * world-writable and sticky, as /tmp is, and the run's directory may be crossed but not listed by
 * others, so an isolated renderer (another uid) reaches what it is given there as in /tmp.
 */
export function makeRunDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-test-run-'));
  chmodSync(dir, 0o711);
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  chmodSync(tmp, 0o1777);
  process.env[TEST_RUN_DIR] = dir;
  process.env.TMPDIR = tmp;
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** This run's directory, or undefined outside a vitest run of this repository. */
export function testRunDir(): string | undefined {
  return process.env[TEST_RUN_DIR] || undefined;
}

const buildSchema = z.object({
  /** `control plane`, `helm`, `gitea`, … */
  what: z.string(),
  /**
   * `built`: compiled during this run; `cached`: found ready (`ms` to find it); `started`: a shared
   * service started for the run (`ms` to start it).
   */
  how: z.enum(['built', 'cached', 'started']),
  ms: z.number(),
  /** The test file that asked first, when a test file asked. */
  by: z.string().optional(),
});

/** One thing tests needed that may have to be built or started first (the control plane, a Go tool, Gitea). */
export type BuildRecord = z.infer<typeof buildSchema>;

/** Writes a build record into this run's directory (nothing outside a run). */
export function recordBuild(record: BuildRecord): void {
  const dir = testRunDir();
  if (!dir) return;
  const builds = join(dir, 'builds');
  mkdirSync(builds, { recursive: true });
  const file = `${Date.now()}-${process.pid}-${record.what.replace(/\W+/g, '-')}.json`;
  writeFileSync(join(builds, file), JSON.stringify(record));
}

/** The build records of a run, in the order they were written. */
export function readBuilds(dir: string): BuildRecord[] {
  let files: string[];
  try {
    files = readdirSync(join(dir, 'builds')).sort();
  } catch {
    return [];
  }
  return files.flatMap((file) => {
    const parsed = buildSchema.safeParse(safeJson(readFileSync(join(dir, 'builds', file), 'utf8')));
    return parsed.success ? [parsed.data] : [];
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const fileCpuSchema = z.object({ file: z.string(), cpuMs: z.number(), controlPlaneMs: z.number() });

/** What one test file cost in CPU: its process and children, and the shared control plane's share. */
export type FileCpu = z.infer<typeof fileCpuSchema>;

/** Writes a file's CPU record into this run's directory (nothing outside a run). */
export function recordFileCpu(record: FileCpu): void {
  const dir = testRunDir();
  if (!dir) return;
  mkdirSync(join(dir, 'cpu'), { recursive: true });
  writeFileSync(join(dir, 'cpu', `${process.pid}-${Date.now()}.json`), JSON.stringify(record));
}

/** The CPU records of a run, by test file. */
export function readFileCpu(dir: string): Map<string, FileCpu> {
  const out = new Map<string, FileCpu>();
  let files: string[];
  try {
    files = readdirSync(join(dir, 'cpu'));
  } catch {
    return out;
  }
  for (const file of files) {
    const parsed = fileCpuSchema.safeParse(safeJson(readFileSync(join(dir, 'cpu', file), 'utf8')));
    if (parsed.success) out.set(parsed.data.file, parsed.data);
  }
  return out;
}
