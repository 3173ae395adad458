import type { KubeClient } from '../../cluster/client.js';
import { ClusterObserver } from '../../cluster/observer.js';
import { readClusterVersion } from '../../cluster-version/cluster-state.js';
import { stageIndex, stageOf, type StageName } from '../../core/stages.js';
import { describeRef, parseId, type ObjectId } from '../../core/object-id.js';
import type { K8sObject } from '../../core/object.js';
import { ClusterSession } from '../../reconcile/cluster-session.js';
import { assessHealth } from '../../health/index.js';

/** One applied object as the quick start lists it. */
export interface AppliedRow {
  stage: StageName | '';
  object: string;
  status: string;
  reason: string;
}

/** What the agent applied, read back from the cluster. */
export interface Applied {
  /** In apply order (stage, then name). */
  rows: AppliedRow[];
  /** The live ClusterVersion's history, newest first, when the platform has one. */
  clusterVersionHistory: string[];
}

/**
 * The objects of the platform's inventory (what the agent recorded as applied), read live, with
 * the verdict of their health checks; an inventoried object no longer there is `Missing`.
 * Reads only.
 */
export async function readApplied(
  client: KubeClient,
  inventory: { platform: string; overlay: string },
): Promise<Applied> {
  const session = new ClusterSession(client);
  const ids: ReadonlySet<ObjectId> =
    (await session.inventory.read(inventory.platform, inventory.overlay))?.objects ?? new Set();
  const { live } = await session.observer.observe(ClusterObserver.wanted([], ids));
  const rows = [...ids].map((id) => row(id, live.get(id)));
  rows.sort((a, b) =>
    a.stage === b.stage
      ? a.object.localeCompare(b.object)
      : (a.stage ? stageIndex(a.stage) : -1) - (b.stage ? stageIndex(b.stage) : -1),
  );
  const cv = [...live.values()].find((o) => o.kind === 'ClusterVersion');
  return {
    rows,
    clusterVersionHistory: cv ? (readClusterVersion(cv).status?.history.map((h) => h.version) ?? []) : [],
  };
}

function row(id: ObjectId, obj: K8sObject | undefined): AppliedRow {
  const object = describeRef(parseId(id));
  if (!obj) return { stage: '', object, status: 'Missing', reason: 'NotFound' };
  const verdict = assessHealth(obj);
  return { stage: stageOf(obj), object, status: verdict.status, reason: verdict.reason };
}

/** The rows as the quick start prints them: columns aligned past the widest name, indented. */
export function renderApplied(applied: Applied): string[] {
  const width = Math.max(62, ...applied.rows.map((r) => r.object.length));
  const lines = applied.rows.map(
    (r) => `      ${r.stage.padEnd(16)} ${r.object.padEnd(width)} ${r.status.padEnd(11)} ${r.reason}`,
  );
  if (applied.clusterVersionHistory.length)
    lines.push(`      ClusterVersion history (newest first): ${applied.clusterVersionHistory.join(' ← ')}`);
  return lines;
}
