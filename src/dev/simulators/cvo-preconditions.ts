import semver from 'semver';
import type { ConditionalUpdate, StatusCondition, StatusRelease } from './cvo-updates.js';

/** A release version as the CVO parses it (blang/semver); undefined when it is not one. */
function parseVersion(version: string): semver.SemVer | undefined {
  return semver.parse(version) ?? undefined;
}

/**
 * The CVO's update preconditions (cluster-version-operator `pkg/payload/precondition/clusterversion`),
 * run in its order: Rollback, GiantHop, Upgradeable, RecommendedUpdate. Pure: they read the
 * ClusterVersion status the simulator is about to write.
 */

/** A failed precondition; `nonBlocking` ones are warnings that do not stop the update. */
interface PreconditionFailure {
  readonly name: string;
  readonly reason: string;
  readonly message: string;
  readonly nonBlocking: boolean;
}

export interface PreconditionInput {
  readonly channel: string | undefined;
  readonly desired: { version: string; image: string };
  readonly history: readonly { version: string; image: string; state: string }[];
  readonly conditions: readonly StatusCondition[];
  readonly availableUpdates: readonly StatusRelease[] | null;
  readonly conditionalUpdates: readonly ConditionalUpdate[];
}

export function runPreconditions(cv: PreconditionInput, target: string): PreconditionFailure[] {
  return [
    rollback(cv, target),
    giantHop(cv, target),
    upgradeable(cv, target),
    recommendedUpdate(cv, target),
  ].filter((f): f is PreconditionFailure => f !== undefined);
}

/**
 * `precondition.Summarize`: one failure is quoted, several are listed; with `force`, blocking
 * failures become warnings ("Forced through blocking failures: ..."). Undefined when all passed.
 */
export function summarize(
  failures: readonly PreconditionFailure[],
  force: boolean,
): { block: boolean; message: string } | undefined {
  if (failures.length === 0) return undefined;
  const msgs = failures.map((f) => `Precondition "${f.name}" failed because of "${f.reason}": ${f.message}`);
  let message =
    msgs.length === 1 ? (msgs[0] as string) : `Multiple precondition checks failed:\n* ${msgs.join('\n* ')}`;
  let block = failures.some((f) => !f.nonBlocking);
  if (force && block) {
    message = `Forced through blocking failures: ${message}`;
    block = false;
  }
  return { block, message };
}

function rollback(cv: PreconditionInput, target: string): PreconditionFailure | undefined {
  const current = parseVersion(cv.desired.version);
  const wanted = parseVersion(target);
  if (!current || !wanted || wanted.compare(current) >= 0) return undefined;
  const fail = (message: string): PreconditionFailure => ({
    name: 'ClusterVersionRollback',
    reason: 'LowDesiredVersion',
    message,
    nonBlocking: false,
  });
  const previous = cv.history.find((h) => h.version !== current.version || h.image !== cv.desired.image);
  const prev = previous ? parseVersion(previous.version) : undefined;
  if (!previous || !prev)
    return fail(
      `${target} is less than the current target ${current.version}, and the cluster has no previous Semantic Version`,
    );
  if (prev.compare(wanted) !== 0) {
    return fail(
      `${target} is less than the current target ${current.version}, and the only supported rollback is to the cluster's previous version ${prev.version} (${previous.image})`,
    );
  }
  if (prev.major === current.major && prev.minor === current.minor) return undefined;
  return fail(
    `${target} is less than the current target ${current.version} and matches the cluster's previous version, but rollbacks that change major or minor versions are not recommended`,
  );
}

function giantHop(cv: PreconditionInput, target: string): PreconditionFailure | undefined {
  const current = parseVersion(cv.desired.version);
  const wanted = parseVersion(target);
  if (!current || !wanted) return undefined;
  const fail = (reason: string, message: string): PreconditionFailure => ({
    name: 'ClusterVersionGiantHop',
    reason,
    message,
    nonBlocking: false,
  });
  if (wanted.major > current.major) {
    return fail(
      'MajorVersionUpdate',
      `${target} has a larger major version than the current target ${current.version} (${wanted.major} > ${current.major}), and only updates within the current major version are supported.`,
    );
  }
  if (wanted.minor > current.minor + 1) {
    return fail(
      'MultipleMinorVersionsUpdate',
      `${target} is more than one minor version beyond the current target ${current.version} (${wanted.major}.${wanted.minor} > ${current.major}.(${current.minor}+1)), and only updates within the current minor version or to the next minor version are supported.`,
    );
  }
  return undefined;
}

/**
 * `ClusterVersionUpgradeable`: with `Upgradeable=False` on the ClusterVersion, a minor (or major)
 * update fails with that condition's reason and message; patch updates and rollbacks pass. A patch
 * retarget during a minor update only warns.
 */
function upgradeable(cv: PreconditionInput, target: string): PreconditionFailure | undefined {
  const up = cv.conditions.find((c) => c.type === 'Upgradeable');
  if (!up || up.status !== 'False') return undefined;
  const current = parseVersion(cv.desired.version);
  const wanted = parseVersion(target);
  if (!current || !wanted) return undefined;
  const patchOnly = wanted.major === current.major && wanted.minor === current.minor;
  if (wanted.compare(current) <= 0 || patchOnly) {
    const completed = cv.history.find((h) => h.state === 'Completed')?.version ?? cv.history.at(-1)?.version;
    const from = completed ? parseVersion(completed) : undefined;
    const progressing = cv.conditions.find((c) => c.type === 'Progressing')?.status === 'True';
    if (patchOnly && from && progressing && (from.major !== current.major || from.minor !== current.minor)) {
      const kind = from.major !== current.major ? 'Major' : 'Minor';
      return {
        name: 'ClusterVersionUpgradeable',
        reason: `${kind}VersionClusterUpdateInProgress`,
        message: `Retarget to ${target} while a ${kind.toLowerCase()} version update from ${completed} to ${current.version} is in progress`,
        nonBlocking: true,
      };
    }
    return undefined;
  }
  return {
    name: 'ClusterVersionUpgradeable',
    reason: up.reason ?? '',
    message: up.message ?? '',
    nonBlocking: false,
  };
}

/** `ClusterVersionRecommendedUpdate`: warns (never blocks) about a target the update service did not recommend. */
function recommendedUpdate(cv: PreconditionInput, target: string): PreconditionFailure | undefined {
  const warn = (reason: string, message: string): PreconditionFailure => ({
    name: 'ClusterVersionRecommendedUpdate',
    reason,
    message,
    nonBlocking: true,
  });
  if (cv.availableUpdates?.some((u) => u.version === target)) return undefined;
  const from = cv.desired.version;
  const conditional = cv.conditionalUpdates.find((u) => u.release.version === target);
  if (conditional) {
    const rec = conditional.conditions.find((c) => c.type === 'Recommended');
    if (!rec)
      return warn(
        'UnknownConditionType',
        `Update from ${from} to ${target} has a status.conditionalUpdates entry, but no Recommended condition.`,
      );
    if (rec.status === 'True') return undefined;
    if (rec.status === 'False')
      return warn(
        rec.reason ?? '',
        `Update from ${from} to ${target} is not recommended:\n\n${rec.message ?? ''}`,
      );
    return warn(
      rec.reason ?? '',
      `Update from ${from} to ${target} is ${rec.type}=${rec.status}: ${rec.reason ?? ''}: ${rec.message ?? ''}`,
    );
  }
  if (!cv.channel) {
    return warn(
      'NoChannel',
      `Configured channel is unset, so the recommended status of updating from ${from} to ${target} is unknown.`,
    );
  }
  const retrieved = cv.conditions.find((c) => c.type === 'RetrievedUpdates');
  if (!retrieved)
    return warn(
      'UnknownUpdate',
      `No RetrievedUpdates, so the recommended status of updating from ${from} to ${target} is unknown.`,
    );
  return retrieved.status === 'True'
    ? warn(
        'UnknownUpdate',
        `RetrievedUpdates=True (${retrieved.reason ?? ''}), so the update from ${from} to ${target} is probably neither recommended nor supported.`,
      )
    : warn(
        'UnknownUpdate',
        `RetrievedUpdates=${retrieved.status} (${retrieved.reason ?? ''}), so the recommended status of updating from ${from} to ${target} is unknown.`,
      );
}

/**
 * The ClusterVersion's own `Upgradeable=False` from its ClusterOperators, as 4.14's CVO writes it
 * (see the `4.14.1-degraded` dump): one operator lends its reason, several give
 * `ClusterOperatorsNotUpgradeable`. Undefined when every operator is upgradeable.
 */
export function upgradeableFromOperators(
  operators: readonly {
    name: string;
    conditions: readonly { type: string; status: string; reason?: string; message?: string }[];
  }[],
): { status: 'False'; reason: string; message: string } | undefined {
  const blocked = [...operators]
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((o) => {
      const up = o.conditions.find((c) => c.type === 'Upgradeable');
      return up?.status === 'False'
        ? [{ name: o.name, reason: up.reason ?? '', message: up.message ?? '' }]
        : [];
    });
  const [first] = blocked;
  if (!first) return undefined;
  if (blocked.length === 1) {
    return {
      status: 'False',
      reason: first.reason,
      message: `Cluster operator ${first.name} should not be upgraded between minor versions: ${first.message}`,
    };
  }
  const lines = blocked.map(
    (b) =>
      `Cluster operator ${b.name} should not be upgraded between minor versions: ${b.reason}: ${b.message}`,
  );
  return {
    status: 'False',
    reason: 'ClusterOperatorsNotUpgradeable',
    message: `Multiple cluster operators should not be upgraded between minor versions:\n* ${lines.join('\n* ')}`,
  };
}
