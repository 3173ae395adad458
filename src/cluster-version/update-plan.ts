import { ANNOTATIONS, acceptedRisksOf } from '../core/annotations.js';
import { isPlainObject, type K8sObject } from '../core/object.js';
import {
  type ClusterOperatorState,
  type ClusterVersionState,
  conditionOf,
  currentVersion,
  previousVersion,
  upgradeableOf,
} from './cluster-state.js';
import { graphFromClusterVersion, mergeGraphs, nodeOf, type UpdateGraph } from './graph.js';
import { planUpdatePath, type UpdatePath, type UpdatePathRefusal } from './path.js';
import { channelsOf, type ReleaseSnapshot } from './release-snapshot.js';
import type { UpdateTarget } from './stepper.js';
import { checkTarget, type TargetFinding, type TargetRisk } from './target-check.js';
import type { ClusterUpdateRisk } from './update-status.js';
import { compareVersions, parseVersion } from './version.js';

/** A ClusterVersion target as the engine reads it from a desired ClusterVersion's annotations. */
export interface ClusterUpdateIntent {
  readonly name: string;
  readonly target: UpdateTarget;
  readonly controlPlaneOnly: boolean;
}

/** The ClusterVersion targets among desired objects (`groundwork.io/target-version` set). */
export function intentsOf(objects: readonly K8sObject[]): ClusterUpdateIntent[] {
  return objects
    .filter((o) => o.kind === 'ClusterVersion' && o.metadata.annotations?.[ANNOTATIONS.targetVersion])
    .map((o) => {
      const a = o.metadata.annotations!;
      const image = a[ANNOTATIONS.targetImage];
      const spec = isPlainObject(o.spec) ? o.spec : {};
      const grace = Number(a[ANNOTATIONS.failingGrace]);
      return {
        name: o.metadata.name,
        controlPlaneOnly: a[ANNOTATIONS.controlPlaneOnly] === 'true',
        target: {
          version: a[ANNOTATIONS.targetVersion]!,
          channel: typeof spec.channel === 'string' ? spec.channel : undefined,
          acceptedRisks: acceptedRisksOf(o),
          ...(a[ANNOTATIONS.failingGrace] !== undefined && Number.isFinite(grace)
            ? { failingGraceSeconds: grace }
            : {}),
          ...(image ? { image } : {}),
        },
      };
    });
}

/** Path refusals no later cluster state can cure: the target itself is invalid, so the apply is refused. */
export const DEFINITIVE_REFUSALS: ReadonlySet<UpdatePathRefusal> = new Set<UpdatePathRefusal>([
  'InvalidVersion',
  'InvalidChannel',
  'NotInChannel',
  'Downgrade',
  'MajorVersionUpdate',
  'NotEusToEus',
  'SkippedMinor',
  'RiskNotAccepted',
]);

/** What stands between the cluster and its target. */
export interface ClusterUpdateBlocker {
  readonly code: UpdatePathRefusal | TargetRisk | 'UpgradeableFalse';
  /** Refuses the apply before anything is written; otherwise the walk waits, bounded by the stage timeout. */
  readonly definitive: boolean;
  readonly message: string;
  readonly fix?: string;
}

/**
 * The update the engine will walk, as data (`groundwork plan` prints it; the agent's version stage
 * walks it). `path` runs from the version the cluster runs; it stops short of the target
 * (`complete` false) when only the cluster's own `availableUpdates` were known.
 */
export interface ClusterUpdatePlan {
  readonly clusterVersion: string;
  readonly current: string;
  readonly target: string;
  readonly channel?: string;
  readonly path: UpdatePath;
  readonly complete: boolean;
  /** The graphs planned over: the repository's files and `ClusterVersion/<name>`. */
  readonly graphs: readonly string[];
  /** Conditional-update risks on the remaining steps, each with whether the target accepts it. */
  readonly risks: readonly ClusterUpdateRisk[];
  /** `UnknownVersion`, `Downgrade`: reported whether or not accepted. */
  readonly findings: readonly TargetFinding[];
  /** Empty when nothing blocks. */
  readonly blockers: readonly ClusterUpdateBlocker[];
}

interface PlanClusterUpdateInput {
  readonly intent: ClusterUpdateIntent;
  /** The live ClusterVersion (`readClusterVersion`). */
  readonly clusterVersion: ClusterVersionState;
  /** For `Upgradeable`; absent: not judged (the stepper judges it step by step). */
  readonly clusterOperators?: readonly ClusterOperatorState[];
  /** The repository's update graphs (groundwork.yaml `graphs:`). */
  readonly graphs: readonly UpdateGraph[];
  /** The shipped graph-data snapshot: which releases exist. */
  readonly snapshot?: ReleaseSnapshot;
}

/**
 * Plans a cluster's update to its target, as `groundwork plan` shows it and the version stage walks
 * it. Pure. The path is `planUpdatePath` over the repository's graphs merged with the cluster's
 * `availableUpdates`/`conditionalUpdates`, from the version the cluster runs; with no graph file
 * only the next hops are known, so it goes to the best hop towards the target (the target itself,
 * else the newest release of the next minor not past it, else the newest patch of the current
 * minor) and is planned again after every step. `checkTarget` adds `UnknownVersion` (a release in no
 * channel of `snapshot`, no repository graph and not offered by the cluster) and `Downgrade`; each
 * blocks unless the target accepts it (`acceptedRisks`), and is definitive when it blocks.
 */
export function planClusterUpdate(input: PlanClusterUpdateInput): ClusterUpdatePlan {
  const { intent, clusterVersion: cv } = input;
  const current = currentVersion(cv)?.version ?? cv.status?.desired?.version ?? '';
  const liveGraph = graphFromClusterVersion(cv);
  const path = plannedPath(intent, cv, input.graphs, liveGraph);
  const previous = previousVersion(cv)?.version;
  const findings = checkTarget({
    from: current || undefined,
    to: intent.target.version,
    live: true,
    ...(previous ? { previousVersion: previous } : {}),
    acceptedRisks: intent.target.acceptedRisks ?? [],
    ...(input.snapshot ? { snapshot: input.snapshot } : {}),
    graphs: [...input.graphs, liveGraph],
  });
  const blockers: ClusterUpdateBlocker[] = findings
    .filter((f) => !f.accepted)
    .map((f) => ({ code: f.risk, definitive: true, message: f.message, fix: f.fix }));
  if (!path.ok && !(path.reason === 'Downgrade' && findings.some((f) => f.risk === 'Downgrade')))
    blockers.push(refusalBlocker(path, input));
  const held = input.clusterOperators && upgradeableHold(path, cv, input.clusterOperators);
  if (held) blockers.push(held);
  return {
    clusterVersion: intent.name,
    current,
    target: intent.target.version,
    ...(intent.target.channel !== undefined ? { channel: intent.target.channel } : {}),
    path,
    complete: path.ok && path.to === intent.target.version,
    graphs: [...input.graphs.map((g) => g.source), liveGraph.source],
    risks: risksOf(cv, path, intent.target.acceptedRisks ?? []),
    findings,
    blockers,
  };
}

function refusalBlocker(
  path: Extract<UpdatePath, { ok: false }>,
  input: PlanClusterUpdateInput,
): ClusterUpdateBlocker {
  const liveOnly = input.graphs.length === 0 && (path.reason === 'NotInGraph' || path.reason === 'NoPath');
  const message = liveOnly
    ? `the update service has not offered a step from ${path.from} towards ${path.to} yet; the walk waits for it`
    : path.message;
  const fix = fixFor(path, input.snapshot);
  return {
    code: path.reason,
    definitive: DEFINITIVE_REFUSALS.has(path.reason),
    message,
    ...(fix ? { fix } : {}),
  };
}

function fixFor(path: Extract<UpdatePath, { ok: false }>, snapshot: ReleaseSnapshot | undefined) {
  switch (path.reason) {
    case 'RiskNotAccepted':
      return `read each risk; if none concerns this cluster, accept them: acceptedRisks: [${(path.risks ?? []).map((r) => `'${r}'`).join(', ')}]`;
    case 'SkippedMinor':
      return 'target a release of the next minor first; OpenShift updates one minor at a time';
    case 'NotInChannel': {
      const channels = snapshot ? channelsOf(snapshot, path.to) : [];
      return channels.length > 0
        ? `use a channel that lists ${path.to} (${channels.join(', ')})`
        : `use a channel that lists ${path.to}`;
    }
    case 'NotEusToEus':
      return 'controlPlaneOnly is for an update from 4.(even) to 4.(even+2) on an eus- channel';
    case 'InvalidVersion':
    case 'InvalidChannel':
    case 'MajorVersionUpdate':
      return 'correct the ClusterVersionTarget';
    default:
      return undefined;
  }
}

/** `Upgradeable=False` holds the path's first minor step (patch steps go on). */
function upgradeableHold(
  path: UpdatePath,
  cv: ClusterVersionState,
  operators: readonly ClusterOperatorState[],
): ClusterUpdateBlocker | undefined {
  const up = upgradeableOf(cv, operators);
  const index = path.ok ? path.steps.findIndex((s) => s.kind === 'minor') : -1;
  if (up.status === 'True' || !path.ok || index < 0) return undefined;
  const step = path.steps[index]!;
  const who =
    up.blockers.map((b) => `ClusterOperator ${b.clusterOperator} (${b.reason}: ${b.message})`).join(', ') ||
    `ClusterVersion (${up.reason ?? 'Upgradeable=False'}: ${up.message ?? ''})`;
  return {
    code: 'UpgradeableFalse',
    definitive: false,
    message: `Upgradeable=False holds the minor step ${index + 1} (${step.from} -> ${step.to}): ${who}`,
    fix: 'do what the operators ask (an admin-ack, an API removal); patch steps go on meanwhile',
  };
}

/** Risk names on the remaining steps: the path's conditional edges, a refusal's, the cluster's own conditional updates. */
function risksOf(
  cv: ClusterVersionState,
  path: UpdatePath,
  acceptedRisks: readonly string[],
): ClusterUpdateRisk[] {
  const accepted = new Set(acceptedRisks);
  const out = new Map<string, ClusterUpdateRisk>();
  const add = (name: string, version: string) =>
    out.set(`${version}\u0000${name}`, { name, version, accepted: accepted.has(name) });
  if (path.ok) for (const s of path.steps) for (const r of s.conditional ?? []) add(r, s.to);
  else for (const r of path.risks ?? []) add(r, path.to);
  const versions = path.ok ? path.steps.map((s) => s.to) : [path.to];
  for (const u of cv.status?.conditionalUpdates ?? [])
    if (
      versions.includes(u.release.version) &&
      conditionOf(u.conditions ?? [], 'Recommended')?.status !== 'True'
    )
      for (const r of u.risks) add(r.name, u.release.version);
  return [...out.values()];
}

/**
 * The path from the cluster's current version. With a graph file it is the whole way. From the live
 * ClusterVersion alone only the next hops are known: see `planClusterUpdate`.
 */
function plannedPath(
  intent: ClusterUpdateIntent,
  cv: ClusterVersionState,
  files: readonly UpdateGraph[],
  liveGraph: UpdateGraph,
): UpdatePath {
  const current = currentVersion(cv)?.version ?? cv.status?.desired?.version ?? '';
  const graph = mergeGraphs([...files, liveGraph]);
  const options = {
    from: current,
    channel: intent.target.channel,
    acceptedRisks: intent.target.acceptedRisks ?? [],
    // Upgradeable=False is left to the stepper: it takes the patch steps and stops before the minor one.
    // Mid-way through an EUS update the cluster sits on the odd minor: plan the rest as a normal update.
    eusControlPlaneOnly: intent.controlPlaneOnly && (parseVersion(current)?.minor ?? 1) % 2 === 0,
    ...(previousVersion(cv)?.version ? { previousVersion: previousVersion(cv)!.version } : {}),
  };
  const direct = () => planUpdatePath(graph, { ...options, to: intent.target.version });
  if (
    files.length > 0 ||
    nodeOf(liveGraph, intent.target.version) ||
    !parseVersion(intent.target.version) ||
    !parseVersion(current) ||
    compareVersions(intent.target.version, current) <= 0
  )
    return direct();
  const hop = bestHop(graph, current, intent.target.version, intent.target.channel);
  return hop ? planUpdatePath(graph, { ...options, to: hop }) : direct();
}

function bestHop(
  graph: UpdateGraph,
  from: string,
  target: string,
  channel: string | undefined,
): string | undefined {
  const cur = parseVersion(from)!;
  const offered = graph.edges
    .filter((e) => e.from === from && compareVersions(e.to, target) <= 0)
    .map((e) => e.to)
    .filter((v) => !channel || (nodeOf(graph, v)?.channels ?? []).includes(channel));
  const minorOf = (v: string) => parseVersion(v)!.minor;
  const newest = (vs: string[]) => vs.sort(compareVersions).at(-1);
  return (
    newest(offered.filter((v) => minorOf(v) === cur.minor + 1)) ??
    newest(offered.filter((v) => minorOf(v) === cur.minor))
  );
}
