import { nodeOf, type UpdateGraph } from './graph.js';
import { channelsOf, type ReleaseSnapshot } from './release-snapshot.js';
import { compareVersions, parseVersion } from './version.js';

/**
 * Groundwork's own risk names, accepted in a ClusterVersionTarget's `acceptedRisks` beside the
 * update service's conditional-update risks (no published risk has these names):
 * - `UnknownVersion`: the target is in no channel of the shipped graph-data snapshot, no update
 *   graph of the repository, and (at apply) not offered by the cluster;
 * - `Downgrade`: the target is older than the version the cluster runs (or, in a preview, than
 *   base's target).
 */
export type TargetRisk = 'UnknownVersion' | 'Downgrade';

export const TARGET_RISKS: readonly TargetRisk[] = ['UnknownVersion', 'Downgrade'];

/** One thing wrong with a target, and whether the target's `acceptedRisks` accept it. */
export interface TargetFinding {
  readonly risk: TargetRisk;
  /** Named in `acceptedRisks` and `acceptable`: reported, does not block. */
  readonly accepted: boolean;
  /** False when no acceptance helps, because the cluster-version operator refuses it: it always blocks. */
  readonly acceptable: boolean;
  readonly message: string;
  readonly fix: string;
}

interface CheckTargetInput {
  /** The version the cluster runs (apply, plan) or base's target (preview); none: no downgrade check. */
  readonly from?: string;
  readonly to: string;
  /** The cluster's state is known (apply, plan): `previousVersion` is then the whole truth. @default false */
  readonly live?: boolean;
  /** The cluster's previous version (`previousVersion(cv)`), the only rollback target the CVO takes. */
  readonly previousVersion?: string;
  readonly acceptedRisks: readonly string[];
  /** Without it no `UnknownVersion` is reported: nothing says which releases exist. */
  readonly snapshot?: ReleaseSnapshot;
  /** Graphs whose releases exist too: the repository's files and, at apply, the cluster's own. */
  readonly graphs?: readonly UpdateGraph[];
}

/**
 * What is wrong with a version target before any path is planned. Pure.
 * - `UnknownVersion`: `to` is in no channel of `snapshot` and no node of `graphs`. A version
 *   published after the snapshot is unknown too: the fix says how to accept it.
 * - `Downgrade`: `to` is older than `from`. The CVO's Rollback precondition
 *   (openshift/cluster-version-operator `pkg/payload/precondition/clusterversion/rollback.go`) takes
 *   a lower target only when it is the cluster's previous version in the same major.minor; any other
 *   downgrade is not `acceptable`. In a preview (`live` false) the previous version is not known, so
 *   a lower patch is acceptable and the engine checks the rest at apply.
 * An invalid version gives no finding: the planner refuses it (`InvalidVersion`).
 */
export function checkTarget(input: CheckTargetInput): TargetFinding[] {
  const accepted = new Set(input.acceptedRisks);
  const findings: TargetFinding[] = [];
  const to = parseVersion(input.to);
  if (!to) return [];
  const finding = (risk: TargetRisk, acceptable: boolean, message: string, fix: string): TargetFinding => ({
    risk,
    accepted: acceptable && accepted.has(risk),
    acceptable,
    message,
    fix,
  });
  // Build metadata is kept: OpenShift releases carry none, so `4.14.38+x` is no published release.
  const named = to.build.length > 0 ? to.raw : to.version;
  const snapshot = input.snapshot;
  const graphs = input.graphs ?? [];
  if (snapshot && channelsOf(snapshot, named).length === 0 && !graphs.some((g) => nodeOf(g, named))) {
    const where = `${snapshot.label}${graphs.length > 0 ? `, nor in ${graphs.map((g) => g.source).join(', ')}` : ''}`;
    findings.push(
      finding(
        'UnknownVersion',
        true,
        `${named} is not a published OpenShift release: it is in no channel of ${where}`,
        `correct the version (\`groundwork upgrade-path\` lists real ones); if it was published after ${snapshot.date.slice(0, 10)} or comes from your own update service, accept it with acceptedRisks: ['UnknownVersion']`,
      ),
    );
  }
  const from = input.from === undefined ? undefined : parseVersion(input.from);
  if (from && compareVersions(to.version, from.version) < 0)
    findings.push(downgrade(from, to, input, finding));
  return findings;
}

function downgrade(
  from: NonNullable<ReturnType<typeof parseVersion>>,
  to: NonNullable<ReturnType<typeof parseVersion>>,
  input: CheckTargetInput,
  finding: (risk: TargetRisk, acceptable: boolean, message: string, fix: string) => TargetFinding,
): TargetFinding {
  const head = `${to.version} is older than ${from.version}`;
  const forward = `target ${from.version} or a later release`;
  if (to.major !== from.major || to.minor !== from.minor)
    return finding(
      'Downgrade',
      false,
      `${head} and in another minor: the cluster-version operator refuses rollbacks that change the major or minor version`,
      forward,
    );
  if (input.live && input.previousVersion !== to.version)
    return finding(
      'Downgrade',
      false,
      input.previousVersion === undefined
        ? `${head}, and the cluster has no previous version: the cluster-version operator rolls back only to the previous version`
        : `${head}: the cluster-version operator rolls back only to the cluster's previous version, ${input.previousVersion}`,
      input.previousVersion === undefined
        ? forward
        : `${forward}, or ${input.previousVersion} with acceptedRisks: ['Downgrade']`,
    );
  const which = input.live
    ? `a rollback to the cluster's previous version, which the cluster-version operator allows within a z-stream`
    : `a rollback, which the cluster-version operator allows only to the cluster's previous version in the same minor (checked at apply)`;
  return finding(
    'Downgrade',
    true,
    `${head}: ${which}`,
    `${forward}; or, if the rollback is intended, accept it with acceptedRisks: ['Downgrade']`,
  );
}
