import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { membersFromKubeconfig, observeFleet } from '../../cluster/fleet-reader.js';
import { GroundworkError } from '../../core/errors.js';
import { environmentOf } from '../../synth/environments.js';
import { parseFleetFile, type FleetMember } from '../../fleet/fleet-file.js';
import { commitOf, fleetRows, fleetText, type ClusterObservation } from '../../fleet/gates.js';
import { promote, promotionText, type RiskyChange } from '../../fleet/promotion.js';
import { credentialsFromEnv } from '../../source/credentials.js';
import { commitsBehind, PromotionRepo } from '../../source/promote.js';
import { trustedKeysFromFiles } from '../../source/trust/trusted-keys-files.js';
import { loadProjectConfig } from '../../synth/config.js';
import { ExitCode } from '../exit-code.js';
import { outputOf } from '../output.js';
import { render } from '../render.js';
import { parseDuration } from '../duration.js';
import { previewRevisions } from './preview.js';
import { FLEET_FILE, type FleetFlags, type PromoteFlags } from '../fleet-flags.js';
import type { SetExitCode } from '../commands/command-module.js';

/** `fleet status`: one row per cluster, from the PlatformSyncs its agents write, and commits behind each ref. */
export async function runFleetStatus(flags: FleetFlags, setExitCode: SetExitCode): Promise<void> {
  const dir = resolve(flags.dir);
  const config = await loadProjectConfig(dir);
  const environments = config.environments ?? [];
  const observations = await observe(flags, dir);
  const wanted = observations.flatMap((o) =>
    o.syncs.flatMap((s) => {
      const env = environmentOf(environments, s.overlay);
      const commit = commitOf(s.status?.lastAppliedRevision);
      return env && commit ? [{ branch: env.ref, commit, url: s.repository.url }] : [];
    }),
  );
  const url = flags.repo ?? wanted[0]?.url;
  const behind = url
    ? await commitsBehind({ url, auth: credentialsFromEnv(process.env), wanted }).catch((err: unknown) => {
        process.stderr.write(
          `warning: cannot count commits behind: ${String((err as Error).message ?? err)}\n`,
        );
        return new Map<string, number>();
      })
    : new Map<string, number>();
  const rows = fleetRows({ platform: config.name, environments, observations, behind });
  const data = {
    apiVersion: 'groundwork.io/v1',
    kind: 'FleetStatus',
    platform: config.name,
    clusters: rows,
  };
  process.stdout.write(render(data, outputOf(flags), { text: () => fleetText(rows) }));
  setExitCode(ExitCode.Ok);
}

/** `promote <environment>`: the gates, then a fast-forward of the environment's ref (exit 1 when refused). */
export async function runPromote(
  environment: string,
  flags: PromoteFlags,
  setExitCode: SetExitCode,
): Promise<void> {
  if (flags.force && !flags.reason?.trim()) {
    throw new GroundworkError({
      code: 'MissingFlag',
      subject: 'promote --force',
      message: '--force needs --reason',
      fix: 'say why, e.g. --reason "hotfix for CVE-2026-1234, staging soak waived by the on-call"',
    });
  }
  const dir = resolve(flags.dir);
  const config = await loadProjectConfig(dir);
  const auth = credentialsFromEnv(process.env);
  let platformPath = '.';
  const result = await promote(
    {
      platform: config.name,
      environments: config.environments ?? [],
      target: environment,
      ...(flags.repo ? { repoUrl: flags.repo } : {}),
      dryRun: flags.dryRun === true,
      ...(flags.force ? { force: { reason: flags.reason!.trim() } } : {}),
      ...(flags.trustedKeys?.length ? { trustedKeys: await trustedKeysFromFiles(flags.trustedKeys) } : {}),
    },
    {
      observe: async () => {
        const observations = await observe(flags, dir);
        platformPath =
          observations.flatMap((o) => o.syncs).find((s) => s.repository.path)?.repository.path ?? '.';
        return observations;
      },
      openGit: (url) => PromotionRepo.open({ url, ...(auth ? { auth } : {}) }),
      riskyChanges: (repoDir, base, head, overlays) =>
        riskyChanges(join(repoDir, platformPath), base, head, overlays),
      now: () => new Date(),
    },
  );
  process.stdout.write(render(result, outputOf(flags), { text: () => promotionText(result) }));
  setExitCode(result.outcome === 'refused' ? ExitCode.Changes : ExitCode.Ok);
}

async function observe(flags: FleetFlags, dir: string): Promise<ClusterObservation[]> {
  const members = await membersOf(flags, dir);
  return observeFleet(members, {
    timeoutMs: parseDuration(flags.clusterTimeout),
    ...(flags.kubeconfig ? { kubeconfig: flags.kubeconfig } : {}),
  });
}

async function membersOf(flags: FleetFlags, dir: string): Promise<FleetMember[]> {
  const file = flags.fleet ?? (existsSync(join(dir, FLEET_FILE)) ? join(dir, FLEET_FILE) : undefined);
  if (file) {
    if (!existsSync(file))
      throw new GroundworkError({ code: 'InvalidFleetFile', subject: file, message: 'not found' });
    return parseFleetFile(await readFile(file, 'utf8'), flags.fleet ?? FLEET_FILE);
  }
  return membersFromKubeconfig(flags.kubeconfig);
}

/** ClusterVersion and MachineConfig changes between two commits, per overlay, from the PR preview's risk notes. */
export async function riskyChanges(
  repoDir: string,
  base: string,
  head: string,
  overlays: readonly string[],
): Promise<RiskyChange[]> {
  const out: RiskyChange[] = [];
  for (const overlay of overlays) {
    const preview = await previewRevisions({ repoDir, base, head, overlay });
    if (preview.status === 'head-failed') {
      out.push({
        code: 'ClusterVersionUnknown',
        subject: `overlay ${overlay}`,
        message: 'head does not synthesize',
      });
      continue;
    }
    for (const o of preview.overlays)
      for (const r of o.risks)
        out.push({ code: r.code, subject: `${r.subject} [${overlay}]`, message: r.message });
  }
  return out;
}
