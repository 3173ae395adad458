// OLM's resolution of one namespace as a decision: which Subscriptions move to which CSV, which
// dependencies join them, and whether the namespace fails. Pure: the simulator (olm.ts) reads the
// cluster, calls `resolveNamespace`, then creates the InstallPlan it asks for.
import type { K8sObject } from '../../core/object.js';
import type { SimulatorCatalog } from './olm-catalog.js';
import type { ResolvedOperator } from './olm-manifests.js';
import { installedOf } from './olm-refs.js';
import {
  bundleIn,
  presentOf,
  resolutionFailedMessage,
  resolveDependencies,
  resolveSubscription,
  type PresentOperator,
  type SubscriptionResolution,
  type SubscriptionSpec,
  type VisibleCatalog,
} from './olm-resolve.js';
import {
  conditionOf,
  removeConditions,
  sameCondition,
  setCondition,
  type SubscriptionStatus,
} from './olm-subscription-status.js';

/** One Subscription of the namespace, with the status the reconcilers before resolution left. */
export interface NamespaceSubscription {
  readonly spec: SubscriptionSpec;
  readonly status: SubscriptionStatus;
  /** `installPlanApproval` is exactly `Manual` (OLM compares with `operators.ApprovalManual`). */
  readonly manual: boolean;
}

interface NamespaceResolutionInput {
  /** The namespace's Subscriptions, in the order OLM visits them (by name). */
  readonly subscriptions: readonly NamespaceSubscription[];
  /** The namespace's CSVs by name. */
  readonly csvs: ReadonlyMap<string, K8sObject>;
  /** The catalog a CatalogSource (`<namespace>/<name>`) serves, if any. */
  readonly served: (source: string) => SimulatorCatalog | undefined;
  /** The CatalogSources the namespace may draw dependencies from (see `resolveDependencies`). */
  readonly visible: readonly VisibleCatalog[];
  /** `spec.generation` of the namespace's InstallPlans. */
  readonly planGenerations: readonly number[];
}

/** The InstallPlan a resolution asks for: reuse the namespace's plan of `generation`, else create it. */
interface InstallPlanRequest {
  readonly generation: number;
  readonly manual: boolean;
  /** Every operator the plan installs: the moved Subscriptions' CSVs, then their dependencies. */
  readonly operators: readonly ResolvedOperator[];
  /** Subscriptions that move to a new CSV (they get the plan's reference). */
  readonly moved: readonly { readonly subscription: string; readonly csv: string }[];
}

export interface NamespaceResolution {
  /** Every Subscription's status after resolution, by name (new objects; the input is not changed). */
  readonly statuses: ReadonlyMap<string, SubscriptionStatus>;
  readonly plan?: InstallPlanRequest;
}

/**
 * OLM's `syncResolvingNamespace` decision, all Subscriptions of a namespace together:
 * - each Subscription resolves on its own (`resolveSubscription`); one whose resolved CSV already
 *   exists in the namespace (a dependency's CSV) is `AtLatestKnown` with it;
 * - one that moves brings its dependencies (`resolveDependencies`), counting every operator with
 *   a CSV in the namespace and those resolved before it in this pass; when the nearest candidate's
 *   dependencies cannot be met the next candidate is tried, and an installed Subscription with no
 *   candidate left keeps its CSV without a condition (OLM's Subscription constraint ends with the
 *   installed CSV, `getSubscriptionVariables`); only one with nothing installed fails;
 * - any failure fails the whole namespace: every Subscription gets `ResolutionFailed`
 *   (`ConstraintsNotSatisfiable`), nothing moves;
 * - else the moved Subscriptions share one InstallPlan, generation one past the highest known,
 *   Manual when any Subscription of the namespace is, and `BundleUnpacking` and
 *   `ResolutionFailed` are cleared.
 */
export function resolveNamespace(input: NamespaceResolutionInput): NamespaceResolution {
  const { csvs, visible } = input;
  const statuses = new Map(input.subscriptions.map((s) => [s.spec.name, structuredClone(s.status)]));
  const status = (name: string) => statuses.get(name)!;
  // Every operator with a CSV in the namespace counts, whichever Subscription (if any) brought it.
  const present: PresentOperator[] = [...csvs.keys()].flatMap((name) => {
    for (const c of visible)
      for (const pkg of c.served.catalog.packages.values()) {
        const bundle = pkg.bundles.get(name);
        if (bundle) return [presentOf(bundle)];
      }
    return [];
  });
  const moved: { subscription: string; op: ResolvedOperator }[] = [];
  const dependencies: ResolvedOperator[] = [];
  for (const { spec } of input.subscriptions) {
    const current = status(spec.name);
    const installed = installedOf(current, csvs);
    const served = input.served(`${spec.sourceNamespace}/${spec.source}`);
    let result: SubscriptionResolution = resolveSubscription(spec, served, installed);
    if (result.kind === 'resolved' && !installed && csvs.has(result.operator.csv)) {
      const csv = result.operator.csv;
      statuses.set(spec.name, { ...current, currentCSV: csv, installedCSV: csv, state: 'AtLatestKnown' });
      continue;
    }
    if (result.kind === 'resolved' && result.operator.csv !== current.currentCSV) {
      // The candidates in order, then the installed CSV: the first whose dependencies resolve.
      let failure: string | undefined;
      let chosen: ResolvedOperator | undefined;
      for (const op of [result.operator, ...(result.fallbacks ?? [])]) {
        const bundle = bundleIn(served, spec.package, op.csv);
        const deps = resolveDependencies(op, visible, [
          ...present.filter((p) => p.package !== spec.package),
          ...(bundle ? [presentOf(bundle)] : []),
          ...dependencies.map(presentOfResolved),
        ]);
        if (deps.kind === 'failed') {
          failure ??= deps.reason;
          continue;
        }
        chosen = op;
        dependencies.push(...deps.deps.filter((d) => !dependencies.some((x) => x.csv === d.csv)));
        break;
      }
      if (chosen) result = { kind: 'resolved', operator: chosen };
      else if (installed) result = { kind: 'installed', csv: installed.csv };
      else result = { kind: 'failed', reason: failure ?? 'no candidate' };
    }
    if (result.kind === 'failed') {
      const cond = {
        type: 'ResolutionFailed',
        status: 'True',
        reason: 'ConstraintsNotSatisfiable',
        message: resolutionFailedMessage(spec.name, result.reason),
      };
      for (const st of statuses.values())
        if (!sameCondition(conditionOf(st, 'ResolutionFailed'), cond)) setCondition(st, { ...cond });
      return { statuses };
    }
    if (result.kind === 'resolved' && result.operator.csv !== current.currentCSV)
      moved.push({ subscription: spec.name, op: result.operator });
  }
  for (const st of statuses.values()) removeConditions(st, 'BundleUnpacking', 'ResolutionFailed');
  if (moved.length === 0) return { statuses };
  const generation =
    Math.max(
      0,
      ...[...statuses.values()].map((s) => s.installPlanGeneration ?? 0),
      ...input.planGenerations,
    ) + 1;
  return {
    statuses,
    plan: {
      generation,
      manual: input.subscriptions.some((s) => s.manual),
      operators: [...moved.map((m) => m.op), ...dependencies],
      moved: moved.map((m) => ({ subscription: m.subscription, csv: m.op.csv })),
    },
  };
}

/** A dependency resolved in this pass, as an operator present in the namespace. */
function presentOfResolved(d: ResolvedOperator): PresentOperator {
  return {
    csv: d.csv,
    package: d.package,
    version: d.version,
    provides: d.ownedCRDs.flatMap((c) =>
      c.versions.map((version) => ({ group: c.group, version, kind: c.kind })),
    ),
  };
}
