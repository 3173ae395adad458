import type { UpdateGraph } from '../../../cluster-version/graph.js';
import { isEusToEus } from '../../../cluster-version/minor-step.js';
import { planUpdatePath, type UpdatePath } from '../../../cluster-version/path.js';
import { DEFINITIVE_REFUSALS } from '../../../cluster-version/update-plan.js';
import { compareVersions, parseVersion } from '../../../cluster-version/version.js';
import { ANNOTATIONS, acceptedRisksOf } from '../../../core/annotations.js';
import { describeRef } from '../../../core/object-id.js';
import { isPlainObject, type K8sObject } from '../../../core/object.js';
import { isKind, type ManifestPair } from '../manifest-pair.js';
import type { RiskNote } from '../risk-note.js';

/** What the path notes read. */
export interface ClusterVersionPathOptions {
  /**
   * The update graphs head's groundwork.yaml names (`graphs:`), merged (`mergeGraphs`, as the agent
   * merges them). Absent: no path note (the engine then asks the cluster's update service).
   */
  readonly graph?: UpdateGraph;
}

/**
 * The path the agent will walk when the ClusterVersion target moves forward: `planUpdatePath`,
 * the planner the agent's version stage uses, over the repository's graph files, from
 * base's target (the version the cluster runs once base is applied) to head's, with head's
 * channel, accepted risks and control-plane-only setting. A path found is `ClusterVersionPath`
 * (`info`): every step, its kind and the risks of each conditional step. No path is
 * `ClusterVersionUnreachable` with the planner's reason: a `blocker` when the engine refuses the
 * target for that reason (`DEFINITIVE_REFUSALS`: a conditional risk not accepted, a skipped minor, a
 * target not in the channel, ...), else `high` (the cluster's update service may offer more). Does not see the edges the live
 * cluster's update service adds (the agent merges them in), nor the cluster's Upgradeable state;
 * a target moved back or not at all, an added ClusterVersion, and no graph files give no note.
 */
export function clusterVersionPathRisks(
  pairs: readonly ManifestPair[],
  opts: ClusterVersionPathOptions,
): RiskNote[] {
  const graph = opts.graph;
  if (!graph) return [];
  const notes: RiskNote[] = [];
  for (const pair of pairs) {
    if (!isKind(pair, 'config.openshift.io', 'ClusterVersion') || !pair.base || !pair.head) continue;
    const from = pair.base.object.metadata.annotations?.[ANNOTATIONS.targetVersion];
    const to = pair.head.object.metadata.annotations?.[ANNOTATIONS.targetVersion];
    const fromV = from ? parseVersion(from) : undefined;
    const toV = to ? parseVersion(to) : undefined;
    if (!fromV || !toV || compareVersions(toV.version, fromV.version) <= 0) continue;
    const head = pair.head.object;
    const channel = channelOf(head);
    const controlPlaneOnly = head.metadata.annotations?.[ANNOTATIONS.controlPlaneOnly] === 'true';
    const path = planUpdatePath(graph, {
      from: fromV.version,
      to: toV.version,
      ...(channel ? { channel } : {}),
      acceptedRisks: acceptedRisksOf(head),
      eusControlPlaneOnly: isEusToEus(fromV, toV, { ...(channel ? { channel } : {}), controlPlaneOnly }),
    });
    notes.push(pathNote(path, describeRef(pair.ref), graph.source));
  }
  return notes;
}

function pathNote(path: UpdatePath, subject: string, source: string): RiskNote {
  const over = `over the repository's update graphs (${source})`;
  if (!path.ok) {
    const refused = DEFINITIVE_REFUSALS.has(path.reason);
    return {
      severity: refused ? 'blocker' : 'high',
      code: 'ClusterVersionUnreachable',
      subject,
      message: `no update path ${path.from} → ${path.to} ${over} (${path.reason}): ${path.message}; ${
        refused
          ? 'the engine refuses this target'
          : "the agent cannot reach the target over these graphs unless the cluster's update service offers more"
      }`,
    };
  }
  const walk = [path.from, ...path.steps.map((s) => s.to)].join(' → ');
  const steps = path.steps.map(
    (s, i) =>
      `${i + 1}. ${s.from} → ${s.to} ${s.kind}${s.conditional ? ` (conditional, accepted risks: ${s.conditional.join(', ')})` : ''}`,
  );
  const pause = path.pausePools
    ? '; the non-master pools stay paused until the last step (control-plane-only EUS update)'
    : '';
  return {
    severity: 'info',
    code: 'ClusterVersionPath',
    subject,
    message: `the agent walks ${walk} in ${path.steps.length} step${path.steps.length === 1 ? '' : 's'}${path.channel ? ` on ${path.channel}` : ''} ${over}: ${steps.join('; ')}${pause}`,
  };
}

function channelOf(obj: K8sObject): string | undefined {
  const spec = isPlainObject(obj.spec) ? obj.spec : {};
  return typeof spec.channel === 'string' ? spec.channel : undefined;
}
