import { resolve } from 'node:path';
import {
  CHART_LOCK_FILE,
  lockedChart,
  readChartLock,
  writeChartLock,
  type ChartLockEntry,
} from '../../render/helm/chart-lock.js';
import { resolveChart } from '../../render/helm/chart-repository.js';
import { renderPlatform } from '../../render/render-platform.js';
import { SynthValidationError, formatIssue } from '../../render/synth/validation.js';
import type { SetExitCode } from '../commands/command-module.js';
import { ExitCode } from '../exit-code.js';

export interface ChartFlags {
  dir: string;
  trustRepository?: boolean;
}

/**
 * `groundwork chart lock` (only charts the lock lacks) and `groundwork chart update` (every chart
 * again): synthesizes every overlay without rendering (`renderPlatform`, trust domain `local`),
 * resolves each remote chart the platform
 * records (`HelmChart` with `repo`) in its repository's index (an OCI chart: its version's tag to
 * the manifest digest), fetches the archive into the cache and writes `groundwork-charts.lock.yaml`
 * with its URL and digest. Entries no overlay uses are dropped.
 */
export async function runChartLock(
  flags: ChartFlags,
  opts: { update: boolean },
  setExitCode: SetExitCode,
): Promise<void> {
  const dir = resolve(flags.dir);
  let results;
  try {
    results = await renderPlatform(dir, {
      overlay: { all: true },
      domain: 'local',
      render: false,
      ...(flags.trustRepository ? { trustRepository: true } : {}),
    });
  } catch (err) {
    if (!(err instanceof SynthValidationError)) throw err;
    process.stderr.write(`${err.issues.map(formatIssue).join('\n')}\n`);
    setExitCode(ExitCode.Error);
    return;
  }
  const wanted = new Map<string, { repo: string; name: string; version: string }>();
  for (const r of results)
    for (const req of r.renders ?? [])
      if (req.engine === 'helm' && req.repo && req.version)
        wanted.set(`${req.repo}\n${req.chart}\n${req.version}`, {
          repo: req.repo,
          name: req.chart,
          version: req.version,
        });
  const lock = await readChartLock(dir);
  const entries: ChartLockEntry[] = [];
  for (const key of wanted.values()) {
    const kept = opts.update ? undefined : lockedChart(lock, key);
    const entry = kept ?? (await resolveChart(key));
    entries.push(entry);
    process.stdout.write(
      `${kept ? 'locked' : 'resolved'} ${key.name} ${key.version} (${key.repo}) ${entry.manifestDigest ? `manifest ${entry.manifestDigest} chart ` : ''}${entry.digest}\n`,
    );
  }
  await writeChartLock(dir, entries);
  process.stdout.write(`${CHART_LOCK_FILE}: ${entries.length} chart(s)\n`);
  setExitCode(ExitCode.Ok);
}
