import { resolve } from 'node:path';
import { KubeClient } from '../../cluster/client.js';
import { GroundworkError } from '../../core/errors.js';
import type { LabelSelector } from '../../core/label-selector.js';
import { parseFleetSelector } from '../../ui/fleet-selector.js';
import { listFleetMembers } from '../../hub/fleet-list.js';
import { memberObservations } from '../../hub/member-observations.js';
import { fleetRows, fleetText } from '../../fleet/gates.js';
import { promote, promotionText } from '../../fleet/promotion.js';
import { credentialsFromEnv } from '../../source/credentials.js';
import { trustedKeysFromFiles } from '../../source/trust/trusted-keys-files.js';
import { loadProjectConfig } from '../../project/config.js';
import { ExitCode } from '../exit-code.js';
import { runHubFleetStatus } from './hub-fleet-status.js';
import { outputOf } from '../output.js';
import { render } from '../render.js';
import { parseDuration } from '../../core/duration.js';
import type { FleetFlags, PromoteFlags } from '../fleet-flags.js';
import {
  countBehind,
  fleetMembers,
  observeMembers,
  promotionDeps,
  type FleetReadContext,
} from '../fleet-read.js';
import type { SetExitCode } from '../commands/command-module.js';

export { riskyChanges } from '../fleet-read.js';

/** `fleet status`: one row per cluster, from the PlatformSyncs its agents write, and commits behind each ref. */
export async function runFleetStatus(flags: FleetFlags, setExitCode: SetExitCode): Promise<void> {
  if (flags.hub) return runHubFleetStatus({ ...flags, hub: flags.hub }, setExitCode);
  if (flags.selector) throw selectorNeedsHub('--selector');
  const dir = resolve(flags.dir);
  const config = await loadProjectConfig(dir);
  const environments = config.environments ?? [];
  const ctx = await readContext(flags, dir);
  const observations = await observeMembers(ctx);
  const behind = await countBehind(ctx, config.name, environments, observations, {
    warn: (m) => process.stderr.write(`warning: ${m}\n`),
  });
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
  if (flags.hub && flags.fleet)
    throw new GroundworkError({
      code: 'InvalidFlag',
      subject: 'promote --hub',
      message: '--hub and --fleet both say where the source clusters are',
      fix: 'pass one: --hub <the hub kubeconfig>, or --fleet <fleet.yaml>',
    });
  const selector = promoteSelector(flags);
  const dir = resolve(flags.dir);
  const config = await loadProjectConfig(dir);
  const environments = config.environments ?? [];
  const ctx = flags.hub ? hubReadContext(flags) : await readContext(flags, dir);
  const hub = flags.hub
    ? await KubeClient.load({ kubeconfig: flags.hub, userAgent: 'groundwork-promote' })
    : undefined;
  const observe = hub
    ? async () => {
        // promote() asks only once the target and its source are known.
        const from = environments.find((e) => e.name === environment)?.promotedFrom;
        const source = environments.find((e) => e.name === from)!;
        const members = await listFleetMembers(hub, undefined, 'promote --hub');
        return memberObservations({
          members,
          source,
          platform: config.name,
          ...(selector ? { selector } : {}),
        });
      }
    : () => observeMembers(ctx);
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
    promotionDeps(ctx, { platform: config.name, observe }),
  ).finally(() => hub?.close());
  process.stdout.write(render(result, outputOf(flags), { text: () => promotionText(result) }));
  setExitCode(result.outcome === 'refused' ? ExitCode.Changes : ExitCode.Ok);
}

/** `promote --selector`: the source members that gate, from the hub only; parsed strictly. */
function promoteSelector(flags: PromoteFlags): LabelSelector | undefined {
  if (flags.selector === undefined) return undefined;
  if (!flags.hub) throw selectorNeedsHub('promote --selector');
  const parsed = parseFleetSelector(flags.selector);
  if (!parsed.ok || parsed.text === '')
    throw new GroundworkError({
      code: 'InvalidFlag',
      subject: 'promote --selector',
      message: parsed.ok ? 'the selector is empty' : `not a label selector: ${parsed.problem}`,
      fix: 'pass comma-separated key=value, key!=value, key or !key terms, e.g. --selector region=eu,!canary',
    });
  return parsed.selector;
}

/** The fleet's members and how to reach them and git, from the flags and the environment. */
export async function readContext(
  flags: Pick<FleetFlags, 'fleet' | 'kubeconfig' | 'repo' | 'clusterTimeout'>,
  dir: string,
): Promise<FleetReadContext> {
  const auth = credentialsFromEnv(process.env);
  return {
    members: await fleetMembers(flags, dir),
    timeoutMs: parseDuration(flags.clusterTimeout),
    ...(flags.kubeconfig ? { kubeconfig: flags.kubeconfig } : {}),
    ...(flags.repo ? { repoUrl: flags.repo } : {}),
    ...(auth ? { auth } : {}),
  };
}

/** With `--hub`: no fleet members to contact, only git (`--repo`, credentials from the environment). */
function hubReadContext(flags: Pick<FleetFlags, 'repo' | 'clusterTimeout'>): FleetReadContext {
  const auth = credentialsFromEnv(process.env);
  return {
    members: [],
    timeoutMs: parseDuration(flags.clusterTimeout),
    ...(flags.repo ? { repoUrl: flags.repo } : {}),
    ...(auth ? { auth } : {}),
  };
}

/** `--selector` without `--hub`: the labels it selects by are the hub's. */
function selectorNeedsHub(subject: string): GroundworkError {
  return new GroundworkError({
    code: 'InvalidFlag',
    subject,
    message: 'selects hub members: it needs --hub',
    fix: 'add --hub <the hub kubeconfig>, or leave --selector out',
  });
}
