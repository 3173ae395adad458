import type { SyncStatusJson } from '../report/sync-status.js';
import { environmentOf, type Environment } from '../project/environments.js';
import { parseRevision, shortRevision } from '../core/revision.js';

/** What was read from one cluster of the fleet: its PlatformSync objects, or why it could not be read. */
export interface ClusterObservation {
  /** The fleet's name for it (the kube context unless the fleet file names it). */
  readonly cluster: string;
  readonly context: string;
  /**
   * Set when the cluster could not be read (unreachable, no permission, no PlatformSync CRD). With
   * `syncs` too (the hub's last report of an unreachable member), the Reachable gate fails on it.
   */
  readonly error?: string;
  readonly syncs: readonly ObservedSync[];
}

/** One PlatformSync: the agent's spec and status for one platform overlay. */
export interface ObservedSync {
  readonly name: string;
  readonly namespace: string;
  readonly overlay: string;
  readonly repository: { readonly url: string; readonly branch?: string; readonly path?: string };
  readonly status: SyncStatusJson | undefined;
  /** Why the status could not be read (then `status` is undefined): one sync, not the whole cluster. */
  readonly statusProblem?: string;
}

/** The gates of a promotion, in the order they are checked and reported. */
export const GATES = [
  'Reachable',
  'Ready',
  'Healthy',
  'NoDrift',
  'NoPendingWaits',
  'SameRevision',
  'Soaked',
  'FastForward',
  'Window',
  'Verified',
] as const;
export type GateName = (typeof GATES)[number];

export interface GateFailure {
  readonly gate: GateName;
  /** The cluster (and overlay) the failure is about, when it is about one. */
  readonly cluster?: string;
  readonly message: string;
}

interface SourceVerdict {
  /** The commit every cluster of the source environment runs, when they agree. */
  readonly commit: string | undefined;
  readonly failures: readonly GateFailure[];
  /** The clusters (with overlay) whose status was read, for the record. */
  readonly clusters: readonly string[];
}

/** `main@sha1:<hex>` (`+dirty` too), or a bare 40-hex id → the hex commit id. */
export function commitOf(revision: string | undefined): string | undefined {
  return revision && /^[0-9a-f]{40}$/.test(revision) ? revision : parseRevision(revision)?.commit;
}

/** Whether a PlatformSync belongs to `platform` (its name is `<platform>-<overlay>`). */
const ofPlatform = (s: ObservedSync, platform: string) => s.name.startsWith(`${platform}-`);

/**
 * The observations with only `platform`'s PlatformSyncs: a cluster may run other platforms, whose
 * syncs follow other repositories (and may share an overlay's name). Pure.
 */
export function platformObservations(
  observations: readonly ClusterObservation[],
  platform: string,
): ClusterObservation[] {
  return observations.map((o) => ({ ...o, syncs: o.syncs.filter((s) => ofPlatform(s, platform)) }));
}

const condition = (status: SyncStatusJson | undefined, type: string) =>
  status?.conditions.find((c) => c.type === type);

/** A duration in words: `1h05m`, `4m30s`. */
function humanDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h > 0) return `${h}h${String(m).padStart(2, '0')}m`;
  if (m > 0) return `${m}m${sec > 0 ? `${String(sec).padStart(2, '0')}s` : ''}`;
  return `${sec}s`;
}

/**
 * Checks the source environment of a promotion: every overlay of `source` has a cluster in the fleet,
 * each reachable, `Ready=True` and Healthy with no drift and no pending waits, all at the same commit
 * R, and Ready at R for at least the environment's soak time (Ready's `lastTransitionTime`: Ready
 * goes Unknown while a new revision is applied, so it is the time R became Ready). Pure: the clock
 * is `now`.
 */
export function checkSource(input: {
  readonly source: Environment;
  readonly platform: string;
  readonly observations: readonly ClusterObservation[];
  readonly now: Date;
}): SourceVerdict {
  const failures: GateFailure[] = [];
  const clusters: string[] = [];
  const commits = new Map<string, string[]>();
  const readySince: { who: string; at: number }[] = [];
  for (const overlay of input.source.overlays) {
    const found = input.observations.flatMap((o) =>
      o.syncs.filter((s) => s.overlay === overlay && ofPlatform(s, input.platform)).map((s) => ({ o, s })),
    );
    const unreachable = input.observations.filter((o) => o.error !== undefined);
    if (found.length === 0) {
      failures.push({
        gate: 'Reachable',
        message:
          unreachable.length > 0
            ? `no PlatformSync of ${input.platform} for overlay ${overlay} was found; unreachable: ${unreachable.map((o) => `${o.cluster} (${o.error})`).join(', ')}`
            : `no cluster of the fleet runs overlay ${overlay} of ${input.platform}`,
      });
      continue;
    }
    for (const { o, s } of found) {
      const who = `${o.cluster} (${overlay})`;
      clusters.push(who);
      // A cluster known to run the overlay (the hub keeps its last report) that is not reachable now.
      if (o.error !== undefined) failures.push({ gate: 'Reachable', cluster: who, message: o.error });
      const ready = condition(s.status, 'Ready');
      if (ready?.status !== 'True') {
        failures.push({
          gate: 'Ready',
          cluster: who,
          message: ready
            ? `Ready=${ready.status} ${ready.reason}: ${ready.message}`
            : s.statusProblem
              ? `its status cannot be read: ${s.statusProblem}`
              : 'the agent has not reported yet (no Ready condition)',
        });
      }
      const health = s.status?.health;
      if (health && health.status !== 'Healthy') {
        failures.push({
          gate: 'Healthy',
          cluster: who,
          message: `${health.status} (${health.reason})${health.message ? `: ${health.message}` : ''}`,
        });
      }
      const drift = s.status?.drift;
      if (drift && drift.drifted > 0) {
        failures.push({
          gate: 'NoDrift',
          cluster: who,
          message: `${drift.drifted} object(s) differ from git: ${drift.items
            .slice(0, 5)
            .map((i) => `${i.object} (${i.type})`)
            .join(', ')}`,
        });
      }
      const pending = s.status?.pending ?? [];
      if (pending.length > 0) {
        failures.push({
          gate: 'NoPendingWaits',
          cluster: who,
          message: pending.map((p) => `${p.stage}: ${p.message}`).join('; '),
        });
      }
      const commit = commitOf(s.status?.lastAppliedRevision);
      if (commit) commits.set(commit, [...(commits.get(commit) ?? []), who]);
      else failures.push({ gate: 'SameRevision', cluster: who, message: 'no revision applied yet' });
      if (ready?.status === 'True') readySince.push({ who, at: Date.parse(ready.lastTransitionTime) });
    }
  }
  if (commits.size > 1) {
    failures.push({
      gate: 'SameRevision',
      message: `the clusters run different revisions: ${[...commits]
        .map(([c, who]) => `${c.slice(0, 12)} on ${who.join(', ')}`)
        .join('; ')}`,
    });
  }
  const now = input.now.getTime();
  for (const { who, at } of readySince) {
    const soaked = now - at;
    if (Number.isNaN(at) || soaked < input.source.soakMs) {
      failures.push({
        gate: 'Soaked',
        cluster: who,
        message: `Ready for ${Number.isNaN(at) ? 'an unknown time' : humanDuration(soaked)} of the ${input.source.soak} soak time of ${input.source.name}${Number.isNaN(at) ? '' : `; promotable in ${humanDuration(input.source.soakMs - soaked)}`}`,
      });
    }
  }
  const [only] = commits.size === 1 ? [...commits.keys()] : [];
  return { commit: only, failures, clusters };
}

/** A fleet status row: one cluster and platform overlay, or one unreachable cluster. */
export interface FleetRow {
  readonly cluster: string;
  readonly context: string;
  readonly environment?: string;
  readonly overlay?: string;
  readonly revision?: string;
  /** Commits between the applied revision and its environment ref's head; undefined when unknown. */
  readonly behind?: number;
  readonly ready: 'True' | 'False' | 'Unknown' | 'Unreachable';
  readonly reason?: string;
  readonly health?: string;
  readonly drift: number;
  readonly lastApplied?: string;
  readonly error?: string;
}

/** One row per PlatformSync of `platform`, and one per cluster that could not be read. Pure. */
export function fleetRows(input: {
  readonly platform: string;
  readonly environments: readonly Environment[];
  readonly observations: readonly ClusterObservation[];
  /** Commits behind, by `<environment ref>@<applied commit>`, as the caller counted them in git. */
  readonly behind?: ReadonlyMap<string, number>;
}): FleetRow[] {
  const rows: FleetRow[] = [];
  for (const o of input.observations) {
    if (o.error !== undefined) {
      rows.push({ cluster: o.cluster, context: o.context, ready: 'Unreachable', drift: 0, error: o.error });
      continue;
    }
    const mine = o.syncs.filter((s) => ofPlatform(s, input.platform));
    if (mine.length === 0) {
      rows.push({
        cluster: o.cluster,
        context: o.context,
        ready: 'Unknown',
        drift: 0,
        error: `no PlatformSync of ${input.platform}`,
      });
    }
    for (const s of mine) {
      const env = environmentOf(input.environments, s.overlay);
      const ready = condition(s.status, 'Ready');
      const commit = commitOf(s.status?.lastAppliedRevision);
      const behind = env && commit ? input.behind?.get(`${env.ref}@${commit}`) : undefined;
      rows.push({
        cluster: o.cluster,
        context: o.context,
        ...(env ? { environment: env.name } : {}),
        overlay: s.overlay,
        ...(s.status?.lastAppliedRevision ? { revision: s.status.lastAppliedRevision } : {}),
        ...(behind !== undefined ? { behind } : {}),
        ready: ready?.status ?? 'Unknown',
        ...(ready ? { reason: ready.reason } : {}),
        ...(s.status?.health ? { health: s.status.health.status } : {}),
        drift: s.status?.drift?.drifted ?? 0,
        ...(s.status?.lastReconcileTime ? { lastApplied: s.status.lastReconcileTime } : {}),
        ...(s.statusProblem ? { error: `status cannot be read: ${s.statusProblem}` } : {}),
      });
    }
  }
  const key = (r: FleetRow) => `${r.environment ?? ''}/${r.cluster}/${r.overlay ?? ''}`;
  // Clusters with an environment first, by environment, cluster and overlay; then the others.
  return rows.sort(
    (a, b) =>
      Number(a.environment === undefined) - Number(b.environment === undefined) ||
      (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0),
  );
}

/** `fleet status` for terminals: one row per cluster and overlay, unreachable clusters included. */
export function fleetText(rows: readonly FleetRow[]): string {
  const header = [
    'CLUSTER',
    'ENVIRONMENT',
    'OVERLAY',
    'REVISION',
    'BEHIND',
    'READY',
    'HEALTH',
    'DRIFT',
    'LAST APPLIED',
  ];
  const body = rows.map((r) => [
    r.cluster,
    r.environment ?? '-',
    r.overlay ?? '-',
    r.revision ? shortRevision(r.revision) : '-',
    r.behind === undefined ? (r.revision ? '?' : '-') : String(r.behind),
    r.ready === 'Unreachable' || r.ready === 'True'
      ? r.ready
      : `${r.ready}${r.reason ? ` (${r.reason})` : ''}`,
    r.health ?? '-',
    String(r.drift),
    r.lastApplied ?? '-',
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...body.map((b) => b[c]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((x, c) => x.padEnd(widths[c]!))
      .join('  ')
      .trimEnd();
  const notes = rows.filter((r) => r.error).map((r) => `${r.cluster}: ${r.error}`);
  return [line(header), ...body.map(line), ...(notes.length ? ['', ...notes] : [])].join('\n') + '\n';
}
