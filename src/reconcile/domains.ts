import type { StageHooks } from '../apply/stage-hook.js';
import type { UpdateGraph } from '../cluster-version/graph.js';
import { loadGraphFile } from '../cluster-version/graph-file.js';
import { clusterVersionHook } from '../cluster-version/version-hook.js';
import { loadReleaseSnapshot, type ReleaseSnapshot } from '../cluster-version/release-snapshot.js';
import type { ClusterUpdateStatus } from '../cluster-version/update-status.js';
import type { OperatorPinStatus } from '../olm/pin-status.js';
import { machineConfigRolloutHook } from '../machine-config/rollout-hook.js';
import { olmApprovalHook } from '../olm/approval-hook.js';
import { checkPinsAgainstCatalogs } from '../olm/pin-check.js';
import { checkSubscriptions } from '../olm/subscription-check.js';
import { loadCatalog } from '../olm/catalog/index.js';
import type { Catalog } from '../olm/catalog/model.js';
import type { Project } from '../project/project.js';
import type { PostSynthCheck } from '../render/synth/post-synth-checks.js';

// The one place that wires the domains (olm, cluster-version, machine-config) into the pipeline.
// The pipeline's stages take these as data (synth's `checks`, apply's `hooks`) and import no
// domain; the agent, the CLI's engine commands and the synth child hand them over.

/**
 * Whole-platform checks run by synth after the constructs: operator pins against the catalog
 * files, and Subscriptions against their OperatorGroups. The synth child runs these.
 */
export const POST_SYNTH_CHECKS: readonly PostSynthCheck[] = [checkPinsAgainstCatalogs, checkSubscriptions];

/**
 * Data the OpenShift hooks read: the repository's catalog files (pins) and update graphs (version
 * paths), and Groundwork's own graph-data snapshot (which releases exist; absent: not checked).
 */
export interface PlatformData {
  catalogs: Catalog[];
  graphs: UpdateGraph[];
  snapshot?: ReleaseSnapshot;
}

/**
 * Reads the catalogs and graphs a project lists, each confined to its checkout by real path and
 * bounded in size (`loadCatalog` with `root`, `loadGraphFile`), and the shipped graph-data snapshot:
 * this runs in the agent itself, outside the synth sandbox. Does not read groundwork.yaml again.
 */
export async function loadPlatformData(project: Project): Promise<PlatformData> {
  const { dir } = project;
  const catalogs = await Promise.all(project.catalogs.map((c) => loadCatalog(c, { root: dir })));
  const graphs = await Promise.all(project.graphs.map((g) => loadGraphFile({ root: dir, path: g })));
  return { catalogs, graphs, snapshot: await loadReleaseSnapshot() };
}

/**
 * What the OpenShift hooks decided on their last pass, for the agent's status: the cluster update
 * path (`clusterUpdateStatus`) and the pinned operators (`operatorPinStatus`). A field is absent
 * when its stage did not run (nothing to apply there).
 */
export interface OpenShiftDecisions {
  clusterUpdate?: ClusterUpdateStatus;
  operatorPins?: OperatorPinStatus[];
}

/**
 * The OpenShift semantics, as stage hooks: pinned operators through InstallPlan approval,
 * graph-aware version steps, and pool-aware MachineConfig rollouts. Create them per reconcile.
 * With `publish`, the hooks report what they decided (`OpenShiftDecisions`, merged) on every check.
 */
export function platformHooks(
  data: PlatformData,
  opts: { now?: () => Date; publish?: (decided: OpenShiftDecisions) => void } = {},
): StageHooks {
  const publish = opts.publish;
  return {
    subscriptions: olmApprovalHook({
      catalogs: data.catalogs,
      ...(publish ? { publish: (operatorPins: OperatorPinStatus[]) => publish({ operatorPins }) } : {}),
    }),
    'machine-configs': machineConfigRolloutHook(opts.now ? { now: opts.now } : {}),
    'cluster-version': clusterVersionHook({
      graphs: data.graphs,
      ...(data.snapshot ? { snapshot: data.snapshot } : {}),
      ...(publish ? { publish: (clusterUpdate: ClusterUpdateStatus) => publish({ clusterUpdate }) } : {}),
    }),
  };
}
