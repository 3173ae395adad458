import type { UpdateGraph } from '../../../cluster-version/graph.js';
import {
  blockedEdgesOf,
  type ReleaseSnapshot,
  type SnapshotBlockedEdge,
} from '../../../cluster-version/release-snapshot.js';
import { checkTarget } from '../../../cluster-version/target-check.js';
import { compareVersions, parseVersion } from '../../../cluster-version/version.js';
import { ANNOTATIONS, acceptedRisksOf } from '../../../core/annotations.js';
import { describeRef } from '../../../core/object-id.js';
import { isKind, type ManifestPair } from '../manifest-pair.js';
import type { RiskNote } from '../risk-note.js';

/** What the known-release notes read. */
export interface ClusterVersionKnownOptions {
  /** Head's update graphs, merged: their releases exist too. */
  readonly graph?: UpdateGraph;
  /** The graph-data snapshot Groundwork ships (`loadReleaseSnapshot`). Absent: no note. */
  readonly snapshot?: ReleaseSnapshot;
}

/**
 * Notes from the shipped graph-data snapshot, for every ClusterVersion whose target head adds or
 * changes:
 * - `ClusterVersionUnknown`: head's target is in no channel of the snapshot and no node of head's
 *   graphs (`checkTarget`, the engine's own check): a `blocker`, since the engine refuses it, unless
 *   head accepts `UnknownVersion` (then `medium`: the engine waits for the update service to offer it).
 * - `ClusterVersionEdgeRisk`, only when head names no update graph (the path notes cover that case)
 *   and the target moves forward: one note for the blocked-edge files that apply to the direct
 *   update from base's target to head's. Files with risks make that update conditional (`high` when
 *   head does not accept every risk, `low` when it does); a file without one drops it (`high`: the
 *   update service will not offer it, another route may exist). The snapshot has no edges: whether
 *   the direct update exists, and which route the cluster takes, is not known.
 */
export function clusterVersionKnownRisks(
  pairs: readonly ManifestPair[],
  opts: ClusterVersionKnownOptions,
): RiskNote[] {
  const snapshot = opts.snapshot;
  if (!snapshot) return [];
  const notes: RiskNote[] = [];
  for (const pair of pairs) {
    if (!isKind(pair, 'config.openshift.io', 'ClusterVersion') || !pair.head || pair.action === 'unchanged')
      continue;
    const subject = describeRef(pair.ref);
    const head = pair.head.object;
    const to = head.metadata.annotations?.[ANNOTATIONS.targetVersion];
    if (!to || !parseVersion(to)) continue;
    const accepted = acceptedRisksOf(head);
    const unknown = checkTarget({
      to,
      acceptedRisks: accepted,
      snapshot,
      graphs: opts.graph ? [opts.graph] : [],
    }).find((f) => f.risk === 'UnknownVersion');
    if (unknown)
      notes.push({
        severity: unknown.accepted ? 'medium' : 'blocker',
        code: 'ClusterVersionUnknown',
        subject,
        message: unknown.accepted
          ? `${unknown.message}; accepted (UnknownVersion): the engine waits until the cluster's update service offers it`
          : `${unknown.message}; the engine refuses it. Fix: ${unknown.fix}`,
      });
    const from = pair.base?.object.metadata.annotations?.[ANNOTATIONS.targetVersion];
    if (opts.graph || !from || !parseVersion(from) || compareVersions(to, from) <= 0) continue;
    const edge = edgeNote(blockedEdgesOf(snapshot, from, to), { from, to, accepted, snapshot });
    if (edge) notes.push({ ...edge, subject });
  }
  return notes;
}

/** One note for the blocked-edge files that apply to the direct update `from` → `to`. */
function edgeNote(
  blocked: readonly SnapshotBlockedEdge[],
  u: { from: string; to: string; accepted: readonly string[]; snapshot: ReleaseSnapshot },
): Omit<RiskNote, 'subject'> | undefined {
  if (blocked.length === 0) return undefined;
  const update = `the update ${u.from} → ${u.to}`;
  const dropped = blocked.find((b) => !b.risk);
  if (dropped)
    return {
      severity: 'high',
      code: 'ClusterVersionEdgeRisk',
      message: `the update service drops ${update}${dropped.fixedIn ? ` (fixed in ${dropped.fixedIn})` : ''}: the cluster must reach ${u.to} through another release, if one leads there (${u.snapshot.label})`,
    };
  const risks = blocked.map((b) => b.risk!);
  const open = risks.filter((r) => !u.accepted.includes(r.name));
  const every = open.filter(
    (r) => r.matchingRules.length > 0 && r.matchingRules.every((m) => m.type === 'Always'),
  );
  const list = (rs: typeof risks) =>
    rs.map((r) => `${r.name} (${r.url}): ${r.message.trim().replace(/\.$/, '')}`).join('; ');
  const taken = risks.filter((r) => u.accepted.includes(r.name));
  return {
    severity: open.length > 0 ? 'high' : 'low',
    code: 'ClusterVersionEdgeRisk',
    message: (
      `the update service makes ${update} conditional (${u.snapshot.label}). ` +
      (open.length > 0
        ? `Not accepted: ${list(open)}. The engine takes it only when the cluster's update service recommends it for this cluster${every.length > 0 ? ` (${every.map((r) => r.name).join(', ')} ${every.length === 1 ? 'applies' : 'apply'} to every cluster)` : ''}, or once the risks are in acceptedRisks. `
        : '') +
      (taken.length > 0 ? `Accepted: ${taken.map((r) => r.name).join(', ')}.` : '')
    ).trimEnd(),
  };
}
