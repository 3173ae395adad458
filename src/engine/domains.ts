import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { StageHook } from '../apply/apply.js';
import { graphFromCincinnati, type UpdateGraph } from '../cluster-version/graph.js';
import { clusterVersionHook } from '../cluster-version/version-hook.js';
import { machineConfigRolloutHook } from '../machine-config/rollout-hook.js';
import { olmApprovalHook } from '../olm/approval-hook.js';
import { loadCatalog } from '../olm/catalog/index.js';
import type { Catalog } from '../olm/catalog/model.js';
import type { StageName } from '../plan/stages.js';
import { loadProjectConfig } from '../synth/config.js';

/** Repository data the OpenShift hooks read: catalog files (pins) and update graphs (version paths). */
export interface PlatformData {
  catalogs: Catalog[];
  graphs: UpdateGraph[];
}

/** Reads the catalogs and graphs listed in `<dir>/groundwork.yaml`. */
export async function loadPlatformData(dir: string): Promise<PlatformData> {
  const config = await loadProjectConfig(dir);
  const catalogs = await Promise.all(config.catalogs.map((c) => loadCatalog(join(dir, c))));
  const graphs = await Promise.all(
    config.graphs.map(async (g) => graphFromCincinnati(await readFile(join(dir, g), 'utf8'), g)),
  );
  return { catalogs, graphs };
}

/**
 * The OpenShift semantics, as stage hooks: pinned operators through InstallPlan approval,
 * graph-aware version steps, and pool-aware MachineConfig rollouts. Create them per reconcile.
 */
export function platformHooks(
  data: PlatformData,
  opts: { now?: () => Date } = {},
): Partial<Record<StageName, StageHook>> {
  return {
    subscriptions: olmApprovalHook({ catalogs: data.catalogs }),
    'machine-configs': machineConfigRolloutHook(opts.now ? { now: opts.now } : {}),
    'cluster-version': clusterVersionHook({ graphs: data.graphs }),
  };
}
