import type { ApplyTarget } from '../apply/target.js';
import type { K8sObject } from '../core/object.js';
import {
  type ClusterOperatorState,
  type ClusterVersionState,
  currentVersion,
  readClusterOperators,
  readClusterVersion,
} from './cluster-state.js';
import type { UpdateGraph } from './graph.js';
import type { ReleaseSnapshot } from './release-snapshot.js';
import { intentsOf, planClusterUpdate, type ClusterUpdatePlan } from './update-plan.js';

const CV = 'config.openshift.io/v1';

/** The live state a cluster update is planned from. */
export interface LiveClusterVersion {
  readonly cv: ClusterVersionState;
  readonly operators: ClusterOperatorState[];
}

/**
 * Reads the ClusterVersion `name` and every ClusterOperator through `target` (validated:
 * `InvalidClusterState`); undefined when the ClusterVersion does not exist or has no status yet
 * (no cluster-version operator runs).
 */
export async function readLiveClusterVersion(
  target: Pick<ApplyTarget, 'list'>,
  name: string,
): Promise<LiveClusterVersion | undefined> {
  const raw = (await target.list(CV, 'ClusterVersion', '')).find((c) => c.metadata.name === name);
  if (!raw?.status) return undefined;
  return {
    cv: readClusterVersion(raw),
    operators: readClusterOperators(await target.list(CV, 'ClusterOperator', '')),
  };
}

/**
 * The update of every ClusterVersion target among `desired` whose live version differs from it, as
 * `planClusterUpdate` plans it (with the ClusterOperators' `Upgradeable`): what `groundwork plan`
 * shows. A target whose ClusterVersion is absent or has no status is left out (no cluster-version
 * operator to update it: the plan's own item says so). Reads only; writes nothing.
 */
export async function clusterUpdatePlans(
  target: Pick<ApplyTarget, 'list'>,
  desired: readonly K8sObject[],
  data: { graphs: readonly UpdateGraph[]; snapshot?: ReleaseSnapshot | undefined },
): Promise<ClusterUpdatePlan[]> {
  const plans: ClusterUpdatePlan[] = [];
  for (const intent of intentsOf(desired)) {
    const live = await readLiveClusterVersion(target, intent.name);
    if (!live || currentVersion(live.cv)?.version === intent.target.version) continue;
    plans.push(
      planClusterUpdate({
        intent,
        clusterVersion: live.cv,
        clusterOperators: live.operators,
        graphs: data.graphs,
        ...(data.snapshot ? { snapshot: data.snapshot } : {}),
      }),
    );
  }
  return plans;
}
