import type { Inventory } from '../apply/inventory.js';
import type { KubeClient } from '../cluster/client.js';
import { ClusterObserver, type ObservedState } from '../cluster/observer.js';
import { explainWebhook, failedWebhook } from '../cluster/webhook-explain.js';
import type { ObjectId } from '../core/object-id.js';
import type { K8sObject } from '../core/object.js';
import { createsToDryRun } from '../plan/dry-run-creates.js';
import { withOwner } from '../plan/ownership.js';
import { applyBody, needsDryRun, plan } from '../plan/plan.js';
import type { Plan } from '../plan/plan-result.js';
import type { DryRunProblem } from '../plan/types.js';
import type { SynthResult } from '../render/synth/synthesize.js';
import type { ClusterSession } from './cluster-session.js';

/** A plan with what it was made from. */
export interface Observed {
  plan: Plan;
  observed: ObservedState;
  inventory: Inventory | undefined;
  /** API versions discovery skipped as unavailable (Stale); none of the platform's kinds is in them. */
  unavailableApis: readonly string[];
}

/**
 * Observe then plan: reads the inventory (a failed read throws: nothing may be pruned on a guess),
 * lists live state in batches, dry-runs only the objects that the request-free test cannot clear,
 * and returns the pure plan. Desired objects are planned and applied with the inventory's
 * ownership annotation (`withOwner`); prune candidates must carry it (`ownershipOf`).
 */
export async function observeAndPlan(
  session: ClusterSession,
  synth: SynthResult,
  opts: { revision?: string; force?: boolean } = {},
): Promise<Observed> {
  const inventory = await session.inventory.read(synth.platform, synth.overlay);
  const owner = session.inventory.owner(synth.platform, synth.overlay);
  const manifests = withOwner(synth.manifests, owner);
  const wanted = ClusterObserver.wanted(
    manifests.map((m) => m.object),
    inventory?.objects ?? [],
  );
  const observed = await session.observer.observe(wanted);
  // Creates too: plan then finds what apply would hit (a webhook that refuses, an invalid value).
  const ids = new Set([
    ...needsDryRun(manifests, observed.live, { memo: session.unchanged }),
    ...createsToDryRun(manifests, observed),
  ]);
  // Dry-runs are forced so that a diff is complete even where another manager owns a field;
  // plan turns those fields into conflicts unless the apply will force too.
  const dryRun = await explainWebhooks(
    session.client,
    await session.observer.dryRun(
      manifests
        .filter((m) => ids.has(m.id))
        .map((m) => ({ id: m.id, body: applyBody(m.object, observed.live.has(m.id)), force: true })),
    ),
  );
  const desiredIds = new Set(manifests.map((m) => m.id));
  const leaving = [...(inventory?.objects ?? [])].filter((id) => !desiredIds.has(id));
  const crdsLeaving = leaving
    .map((id) => observed.live.get(id))
    .filter((o): o is K8sObject => o?.kind === 'CustomResourceDefinition');
  const result = plan(
    manifests,
    {
      live: observed.live,
      dryRun,
      inventory: inventory?.objects,
      failedLists: observed.failedLists,
      unknownKinds: observed.unknownKinds,
      namespacedKinds: observed.namespacedKinds,
      customResources: await session.observer.customResources(crdsLeaving),
      namespaceContents: contentsOf(leaving, observed.live, observed.listed),
    },
    {
      platform: synth.platform,
      overlay: synth.overlay,
      owner,
      ...(opts.revision ? { revision: opts.revision } : {}),
      ...(opts.force ? { force: true } : {}),
    },
  );
  return { plan: result, observed, inventory, unavailableApis: session.discovery.unavailable() };
}

/** Dry-run problems with each webhook the server failed calling explained (`explainWebhook`). */
async function explainWebhooks(
  client: KubeClient,
  results: Map<ObjectId, K8sObject | DryRunProblem>,
): Promise<Map<ObjectId, K8sObject | DryRunProblem>> {
  const out = new Map(results);
  for (const [id, r] of results) {
    if ('metadata' in r) continue;
    const problem = r as DryRunProblem;
    const hook = failedWebhook(problem.message);
    const why = hook ? await explainWebhook(client, hook) : undefined;
    if (why) out.set(id, { ...problem, message: `${why} (server: ${problem.message})` });
  }
  return out;
}

/** Objects listed inside each Namespace that leaves git, by namespace name (what a prune of it takes along). */
function contentsOf(
  leaving: readonly ObjectId[],
  live: ReadonlyMap<ObjectId, K8sObject>,
  listed: ReadonlyMap<ObjectId, K8sObject>,
): Map<string, ObjectId[]> {
  const names = new Set(
    leaving
      .map((id) => live.get(id))
      .filter((o) => o?.apiVersion === 'v1' && o.kind === 'Namespace')
      .map((o) => o!.metadata.name),
  );
  const out = new Map<string, ObjectId[]>();
  for (const [id, obj] of listed) {
    const ns = obj.metadata.namespace;
    if (ns && names.has(ns)) out.set(ns, [...(out.get(ns) ?? []), id]);
  }
  return out;
}
