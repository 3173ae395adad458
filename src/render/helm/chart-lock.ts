// The lock file of remote charts: which version and digest each (repository, chart) resolves to.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import jsyaml from 'js-yaml';
import { z } from 'zod';
import { readConfinedFile } from '../../core/confined-file.js';
import { GroundworkError } from '../../core/errors.js';
import { urlProblem } from '../../core/outbound-url.js';

/** The lock file's name, beside groundwork.yaml. Frozen: users commit it. */
export const CHART_LOCK_FILE = 'groundwork-charts.lock.yaml';

const SHA256 = /^sha256:[0-9a-f]{64}$/;

const entrySchema = z
  .strictObject({
    /** The chart repository, as the construct names it (`https://...` or `oci://host/path`). */
    repo: z.string().url(),
    name: z.string().min(1),
    version: z.string().min(1),
    /**
     * Where the archive was fetched from (the repository's index may name another host); for OCI,
     * `oci://host/path/name@<manifestDigest>`, what `helm pull` takes.
     */
    url: z
      .string()
      .url()
      .superRefine((url, ctx) => {
        // Fetched by the trusted side when the archive is not cached: checked as any outbound URL.
        const problem = urlProblem(url.startsWith('oci://') ? `https://${url.slice('oci://'.length)}` : url);
        if (problem) ctx.addIssue({ code: 'custom', message: `the URL ${problem}` });
      }),
    /** `sha256:` of the archive (for OCI: the chart layer's digest): synth refuses any other bytes. */
    digest: z.string().regex(SHA256),
    /** OCI only: the digest of the manifest the version's tag pointed to when locked. */
    manifestDigest: z.string().regex(SHA256).optional(),
  })
  .refine((e) => e.repo.startsWith('oci://') === (e.manifestDigest !== undefined), {
    message: 'an oci:// chart has a manifestDigest, and only an oci:// chart has one',
    path: ['manifestDigest'],
  });

const lockSchema = z.strictObject({
  apiVersion: z.literal('groundwork.io/v1'),
  kind: z.literal('ChartLock'),
  charts: z.array(entrySchema),
});

export type ChartLockEntry = z.infer<typeof entrySchema>;
export type ChartLock = z.infer<typeof lockSchema>;

/** The lock of the checkout `dir` (confined, parsed), or an empty one when there is no lock file. */
export async function readChartLock(dir: string): Promise<ChartLock> {
  let text: string;
  try {
    text = await readConfinedFile({
      root: dir,
      path: CHART_LOCK_FILE,
      maxBytes: 1024 * 1024,
      what: 'chart lock',
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      return { apiVersion: 'groundwork.io/v1', kind: 'ChartLock', charts: [] };
    throw err;
  }
  let doc: unknown;
  try {
    doc = jsyaml.load(text);
  } catch {
    doc = undefined;
  }
  const parsed = lockSchema.safeParse(doc);
  if (!parsed.success)
    throw new GroundworkError({
      code: 'InvalidConfig',
      subject: CHART_LOCK_FILE,
      message: `is not a chart lock: ${parsed.error.issues
        .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
        .slice(0, 3)
        .join('; ')}`,
      fix: 'write it again with groundwork chart update',
    });
  return parsed.data;
}

/** The entry for `repo`, `name` and `version`, if locked. Pure. */
export function lockedChart(
  lock: ChartLock,
  key: { repo: string; name: string; version: string },
): ChartLockEntry | undefined {
  return lock.charts.find((c) => c.repo === key.repo && c.name === key.name && c.version === key.version);
}

/** Writes the lock (entries sorted by repository, name, version) into `dir`. */
export async function writeChartLock(dir: string, charts: readonly ChartLockEntry[]): Promise<void> {
  const sorted = [...charts].sort((a, b) =>
    `${a.repo}\n${a.name}\n${a.version}`.localeCompare(`${b.repo}\n${b.name}\n${b.version}`),
  );
  const lock: ChartLock = { apiVersion: 'groundwork.io/v1', kind: 'ChartLock', charts: sorted };
  await writeFile(
    join(dir, CHART_LOCK_FILE),
    `# Written by groundwork chart lock|update: the exact chart archives synth renders.\n${jsyaml.dump(lock, { lineWidth: -1 })}`,
  );
}
