import { type Channel, releaseInChannel, tryParseChannel } from './channel.js';
import type { UpgradeBlocker, Upgradeable } from './cluster-state.js';
import { type UpdateGraph, nodeOf } from './graph.js';
import { findRoute, missingMinor } from './route.js';
import { type SemVer, type StepKind, compareVersions, parseVersion, stepKind } from './version.js';

/** Why no path is offered: a closed vocabulary, part of the CLI's JSON output. */
export type UpdatePathRefusal =
  | 'InvalidVersion'
  | 'InvalidChannel'
  | 'NotInGraph'
  | 'NotInChannel'
  | 'Downgrade'
  | 'MajorVersionUpdate'
  | 'NotEusToEus'
  | 'SkippedMinor'
  | 'RiskNotAccepted'
  | 'BlockedByUpgradeable'
  | 'NoPath';

/** One `spec.desiredUpdate` the cluster goes through. */
export interface UpdateStep {
  readonly from: string;
  readonly to: string;
  readonly kind: StepKind;
  /** The release payload of `to`, when the graph knows it. */
  readonly image?: string;
  /** Names of the accepted risks this conditional update carries; absent for a recommended update. */
  readonly conditional?: readonly string[];
  /** A rollback to the cluster's previous version (never an edge of the graph). */
  readonly rollback?: true;
}

/** EUS-to-EUS control-plane-only update: which steps run with the non-master pools paused (indexes into `steps`). */
interface PausePools {
  readonly pools: 'non-master';
  readonly pauseBeforeStep: number;
  readonly unpauseAfterStep: number;
}

export interface UpdatePathFound {
  readonly ok: true;
  readonly from: string;
  readonly to: string;
  readonly channel?: string;
  readonly steps: readonly UpdateStep[];
  readonly pausePools?: PausePools;
}

interface UpdatePathRefused {
  readonly ok: false;
  readonly from: string;
  readonly to: string;
  readonly channel?: string;
  readonly reason: UpdatePathRefusal;
  readonly message: string;
  /** For `BlockedByUpgradeable`: who sets Upgradeable=False. */
  readonly blockers?: readonly UpgradeBlocker[];
  /** For `RiskNotAccepted`: the risk names to accept. */
  readonly risks?: readonly string[];
}

/** A path result as plain data (JSON-serialisable); `renderUpdatePath` and `updatePathMarkdown` render it. */
export type UpdatePath = UpdatePathFound | UpdatePathRefused;

interface PlanUpdatePathOptions {
  readonly from: string;
  readonly to: string;
  /** When set, the target (and every intermediate release) must be in this channel. */
  readonly channel?: string;
  /** Risk names the caller accepts; a conditional edge is usable only if all its risks are here. @default [] */
  readonly acceptedRisks?: readonly string[];
  /** The cluster's Upgradeable state; `False` refuses any path with a minor step. @default Upgradeable=True */
  readonly upgradeable?: Upgradeable;
  /** EUS-to-EUS control-plane-only update (4.even → 4.even+2): the result says when to pause pools. @default false */
  readonly eusControlPlaneOnly?: boolean;
  /** The cluster's previous version (`previousVersion(cv)`): the only allowed rollback target. */
  readonly previousVersion?: string;
}

/**
 * Plans the `spec.desiredUpdate` steps from `from` to `to` over an update graph. Pure: reads only
 * its arguments. Rules (the CVO's and the update service's):
 * - every step is an edge of the graph, moves forward, and stays in its minor or goes to the next
 *   one: minors are never skipped;
 * - a conditional edge is usable only when every one of its risks is in `acceptedRisks`;
 * - with a channel, the target and every intermediate release must be in it;
 * - no downgrade, except a rollback to `previousVersion` within the same major.minor (the CVO's
 *   Rollback precondition); a rollback is a single step and needs no edge;
 * - `Upgradeable=False` refuses a path with a minor step, never a patch-only path.
 * Among the usable paths it takes the fewest steps, then the fewest conditional steps, then at each
 * step the newest release (so within a minor it jumps to the newest patch that still leads on).
 * It does not look at the cluster: the stepper re-checks each step against the live ClusterVersion.
 *
 * @example
 * renderUpdatePath(planUpdatePath(graph, { from: '4.7.0', to: '4.8.54', channel: 'stable-4.8' }))
 * // Update 4.7.0 -> 4.8.54 in 2 steps (channel stable-4.8): ...
 */
export function planUpdatePath(graph: UpdateGraph, options: PlanUpdatePathOptions): UpdatePath {
  return plan(graph, options);
}

function plan(graph: UpdateGraph, options: PlanUpdatePathOptions): UpdatePath {
  const { from, to } = options;
  const base = { from, to, ...(options.channel !== undefined ? { channel: options.channel } : {}) };
  const refuse = (reason: UpdatePathRefusal, message: string, extra: Partial<UpdatePathRefused> = {}) =>
    ({ ok: false, ...base, reason, message, ...extra }) as const;
  const fromV = parseVersion(from);
  const toV = parseVersion(to);
  if (!fromV || !toV) return refuse('InvalidVersion', `${!fromV ? from : to} is not a SemVer version`);
  let channel: Channel | undefined;
  if (options.channel !== undefined) {
    const parsed = tryParseChannel(options.channel);
    if (!parsed.ok) return refuse('InvalidChannel', `${options.channel}: ${parsed.message}`);
    channel = parsed.channel;
  }
  if (options.eusControlPlaneOnly && !isEusToEus(fromV, toV)) {
    return refuse(
      'NotEusToEus',
      `a control-plane-only EUS update goes from 4.(even) to 4.(even+2); ${from} -> ${to} is not one`,
    );
  }
  const order = compareVersions(to, from);
  if (order === 0) return { ok: true, ...base, steps: [] };
  if (order < 0) return rollback(graph, fromV, toV, options.previousVersion, refuse, base);
  if (toV.major !== fromV.major) {
    return refuse(
      'MajorVersionUpdate',
      `${to} is in another major version than ${from}; only updates within a major are supported`,
    );
  }
  for (const v of [from, to]) {
    if (!nodeOf(graph, v)) return refuse('NotInGraph', `${v} is not a release in ${graph.source}`);
  }
  if (channel && !releaseInChannel(nodeOf(graph, to)!, toV, channel)) {
    return refuse('NotInChannel', `${to} is not in channel ${channel.name}`);
  }
  const accepted = new Set(options.acceptedRisks ?? []);
  const route = findRoute(graph, fromV, toV, { channel, accepts: (risk) => accepted.has(risk) });
  if (!route) return diagnose(graph, fromV, toV, channel, accepted, refuse);
  const steps: UpdateStep[] = route.map((edge) => ({
    from: edge.from,
    to: edge.to,
    kind: stepKind(parseVersion(edge.from)!, parseVersion(edge.to)!),
    ...(nodeOf(graph, edge.to)!.payload ? { image: nodeOf(graph, edge.to)!.payload } : {}),
    ...(edge.risks.length > 0 ? { conditional: edge.risks.map((r) => r.name) } : {}),
  }));
  const up = options.upgradeable;
  const minorStep = steps.findIndex((s) => s.kind === 'minor');
  if (up?.status === 'False' && minorStep >= 0) {
    return refuse('BlockedByUpgradeable', upgradeableMessage(steps[minorStep]!, minorStep, up), {
      blockers: up.blockers,
    });
  }
  const pausePools: PausePools | undefined = options.eusControlPlaneOnly
    ? { pools: 'non-master', pauseBeforeStep: 0, unpauseAfterStep: steps.length - 1 }
    : undefined;
  return { ok: true, ...base, steps, ...(pausePools ? { pausePools } : {}) };
}

function isEusToEus(from: SemVer, to: SemVer): boolean {
  return from.minor % 2 === 0 && to.major === from.major && to.minor === from.minor + 2;
}

type Refuse = (
  reason: UpdatePathRefusal,
  message: string,
  extra?: Partial<UpdatePathRefused>,
) => UpdatePathRefused;

function rollback(
  graph: UpdateGraph,
  from: SemVer,
  to: SemVer,
  previous: string | undefined,
  refuse: Refuse,
  base: { from: string; to: string; channel?: string },
): UpdatePathFound | UpdatePathRefused {
  const head = `${to.version} is older than ${from.version}`;
  if (to.major !== from.major || to.minor !== from.minor) {
    return refuse('Downgrade', `${head} and in another minor: the CVO rolls back only within a z-stream`);
  }
  if (previous === undefined) {
    return refuse(
      'Downgrade',
      `${head}: the CVO accepts a rollback only to the cluster's previous version, which is not known here`,
    );
  }
  if (previous !== to.version) {
    return refuse(
      'Downgrade',
      `${head}: the only supported rollback is to the cluster's previous version ${previous}`,
    );
  }
  const image = nodeOf(graph, to.version)?.payload;
  const step: UpdateStep = {
    from: from.version,
    to: to.version,
    kind: 'patch',
    ...(image ? { image } : {}),
    rollback: true,
  };
  return { ok: true, ...base, steps: [step] };
}

function diagnose(
  graph: UpdateGraph,
  from: SemVer,
  to: SemVer,
  channel: Channel | undefined,
  accepted: ReadonlySet<string>,
  refuse: Refuse,
): UpdatePathRefused {
  const within = channel ? ` within channel ${channel.name}` : '';
  const risky = findRoute(graph, from, to, { channel, accepts: () => true });
  if (risky) {
    const missing = new Map(
      risky
        .flatMap((e) => e.risks)
        .filter((r) => !accepted.has(r.name))
        .map((r) => [r.name, r]),
    );
    const risks = [...missing.values()].sort((a, b) => a.name.localeCompare(b.name));
    const detail = risks.map((r) => `${r.name} (${r.url}): ${r.message}`).join('; ');
    const message = `every route from ${from.version} to ${to.version}${within} takes a conditional update; accept ${detail}`;
    return refuse('RiskNotAccepted', message, { risks: risks.map((r) => r.name) });
  }
  const gap = missingMinor(graph, from, to, channel);
  if (gap !== undefined) {
    return refuse(
      'SkippedMinor',
      `no ${from.major}.${gap} release${within} in ${graph.source}: updates cannot skip a minor`,
    );
  }
  const skipping = findRoute(graph, from, to, { channel, accepts: () => true, allowSkippingMinors: true });
  if (skipping) {
    const edge = skipping.find((e) => parseVersion(e.to)!.minor - parseVersion(e.from)!.minor > 1)!;
    return refuse('SkippedMinor', `the only route takes ${edge.from} -> ${edge.to}, which skips a minor`);
  }
  return refuse(
    'NoPath',
    `no chain of updates leads from ${from.version} to ${to.version}${within} in ${graph.source}`,
  );
}

function upgradeableMessage(step: UpdateStep, index: number, up: Upgradeable): string {
  const who = up.blockers.map((b) => `ClusterOperator ${b.clusterOperator} (${b.reason}: ${b.message})`);
  if (who.length === 0) who.push(`ClusterVersion (${up.reason ?? 'Upgradeable=False'}: ${up.message ?? ''})`);
  return `Upgradeable=False blocks minor step ${index + 1} (${step.from} -> ${step.to}); patch updates are still allowed. Blocked by ${who.join(', ')}`;
}
