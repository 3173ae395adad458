// OLM's resolution of one namespace as a decision: which Subscriptions move to which CSV, which
// dependencies join them, and whether the namespace fails. Pure: the simulator (olm.ts) reads the
// cluster, calls `resolveNamespace`, then creates the InstallPlan it asks for.
import type { K8sObject } from '../../core/object.js';
import type { SimulatorCatalog } from './olm-catalog.js';
import type { ResolvedOperator } from './olm-manifests.js';
import { installedOf } from './olm-refs.js';
import {
  presentOf,
  resolutionFailedMessage,
  resolveSubscription,
  type SubscriptionSpec,
  type VisibleCatalog,
} from './olm-resolve.js';
import { solveNamespace, type ExistingOperator, type SubscriptionChoices } from './olm-solve.js';
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
  /** The CatalogSources the namespace may draw dependencies from (see `solveNamespace`). */
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
 * OLM's `syncResolvingNamespace` decision, all Subscriptions of a namespace in one resolution:
 * - each Subscription's candidates come from its own catalog and channel (`resolveSubscription`);
 *   a new one whose resolved CSV already exists in the namespace (a dependency's CSV) is
 *   `AtLatestKnown` with it;
 * - then one search over the whole namespace (`solveNamespace`): every CSV of the namespace no
 *   Subscription references stays; each Subscription takes the first of its candidates that leads
 *   to a solution, else keeps its installed CSV (so an installed CSV moves one hop at most, and
 *   only along its own Subscription); every requirement of every operator holds, new bundles
 *   joining as dependencies; one operator per package, one provider per API. So a Subscription
 *   whose next CSV needs another installed operator moved along that operator's Subscription gets
 *   both moves in the same InstallPlan, and an installed Subscription none of whose candidates
 *   fits keeps its CSV without a condition;
 * - a Subscription OLM cannot read (no catalog, package, channel or `startingCSV`), or no
 *   solution, fails the whole namespace: every Subscription gets `ResolutionFailed`
 *   (`ConstraintsNotSatisfiable`), nothing moves;
 * - else the Subscriptions that move share one InstallPlan with the dependencies they bring,
 *   generation one past the highest known, Manual when any Subscription of the namespace is, and
 *   `BundleUnpacking` and `ResolutionFailed` are cleared.
 */
export function resolveNamespace(input: NamespaceResolutionInput): NamespaceResolution {
  const { csvs, visible } = input;
  const statuses = new Map(input.subscriptions.map((s) => [s.spec.name, structuredClone(s.status)]));
  const status = (name: string) => statuses.get(name)!;
  const fail = (subscription: string, reason: string): NamespaceResolution => {
    const cond = {
      type: 'ResolutionFailed',
      status: 'True',
      reason: 'ConstraintsNotSatisfiable',
      message: resolutionFailedMessage(subscription, reason),
    };
    for (const st of statuses.values())
      if (!sameCondition(conditionOf(st, 'ResolutionFailed'), cond)) setCondition(st, { ...cond });
    return { statuses };
  };

  const choices: SubscriptionChoices[] = [];
  const installedBy = new Map<string, string>();
  for (const { spec } of input.subscriptions) {
    const current = status(spec.name);
    const installed = installedOf(current, csvs);
    const served = input.served(`${spec.sourceNamespace}/${spec.source}`);
    const result = resolveSubscription(spec, served, installed);
    if (result.kind === 'failed') return fail(spec.name, result.reason);
    if (result.kind === 'resolved' && !installed && csvs.has(result.operator.csv)) {
      const csv = result.operator.csv;
      statuses.set(spec.name, { ...current, currentCSV: csv, installedCSV: csv, state: 'AtLatestKnown' });
      installedBy.set(csv, spec.name);
      choices.push({ name: spec.name, options: [{ kind: 'stay', csv }] });
      continue;
    }
    if (installed) installedBy.set(installed.csv, spec.name);
    const from = visible.find((c) => c.served === served);
    const moves =
      result.kind === 'resolved'
        ? [result.operator, ...(result.fallbacks ?? [])].map((op) => ({ kind: 'move' as const, op, from }))
        : [];
    choices.push({
      name: spec.name,
      options: [...moves, ...(installed ? [{ kind: 'stay' as const, csv: installed.csv }] : [])],
    });
  }

  const solution = solveNamespace({
    subscriptions: choices,
    existing: existingOperators(csvs, visible, installedBy, input.subscriptions),
    catalogs: visible,
  });
  if (solution.kind === 'failed') {
    const named = solution.subscription ?? input.subscriptions.at(-1)?.spec.name ?? '';
    return fail(named, solution.reason);
  }
  for (const st of statuses.values()) removeConditions(st, 'BundleUnpacking', 'ResolutionFailed');
  const moved = input.subscriptions.flatMap(({ spec }) => {
    const option = solution.chosen.get(spec.name);
    return option?.kind === 'move' && option.op.csv !== status(spec.name).currentCSV
      ? [{ subscription: spec.name, op: option.op }]
      : [];
  });
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
      operators: [
        ...moved.map((m) => m.op),
        ...broughtBy(
          moved.map((m) => m.op.csv),
          solution.dependencies,
        ),
      ],
      moved: moved.map((m) => ({ subscription: m.subscription, csv: m.op.csv })),
    },
  };
}

/**
 * The namespace's CSVs as operators: from the bundle a visible catalog has for them (else, for a
 * Subscription's CSV, its package and the CSV's version with nothing provided), each with the
 * Subscription that has it installed, if any. CSVs neither a catalog nor a Subscription names are
 * left out (nothing is known of them), and so are CSVs on their way out (`leaving`).
 */
function existingOperators(
  csvs: ReadonlyMap<string, K8sObject>,
  visible: readonly VisibleCatalog[],
  installedBy: ReadonlyMap<string, string>,
  subscriptions: readonly NamespaceSubscription[],
): ExistingOperator[] {
  const replaced = new Set(
    [...csvs.values()].map((c) => (c.spec as { replaces?: string } | undefined)?.replaces),
  );
  return [...csvs.values()].flatMap((obj): ExistingOperator[] => {
    const name = obj.metadata.name;
    if (leaving(obj, replaced)) return [];
    const subscription = installedBy.get(name);
    for (const from of visible)
      for (const pkg of from.served.catalog.packages.values()) {
        const bundle = pkg.bundles.get(name);
        if (bundle) return [{ ...presentOf(bundle), requires: bundle.requires, from, subscription }];
      }
    const sub = subscriptions.find((s) => s.spec.name === subscription);
    if (!sub) return [];
    const version = (obj.spec as { version?: string } | undefined)?.version ?? '0.0.0';
    return [
      {
        csv: name,
        package: sub.spec.package,
        version,
        provides: [],
        requires: [],
        from: undefined,
        subscription,
      },
    ];
  });
}

/**
 * A CSV on its way out: another CSV of the namespace replaces it, it is `Replacing` or `Deleting`,
 * or being deleted. OLM deletes it within a few passes; the simulator does not weigh it.
 */
function leaving(obj: K8sObject, replaced: ReadonlySet<string | undefined>): boolean {
  const phase = (obj.status as { phase?: string } | undefined)?.phase;
  return (
    replaced.has(obj.metadata.name) ||
    phase === 'Replacing' ||
    phase === 'Deleting' ||
    !!obj.metadata.deletionTimestamp
  );
}

/** The dependencies `roots` bring, directly or through other dependencies. */
function broughtBy(roots: readonly string[], deps: readonly ResolvedOperator[]): ResolvedOperator[] {
  const wanted = new Set(roots);
  const out: ResolvedOperator[] = [];
  for (const d of deps) {
    if (!d.dependency || !wanted.has(d.dependency.of)) continue;
    wanted.add(d.csv);
    out.push(d);
  }
  return out;
}
