// OLM's solver over one namespace, as the simulator plays it: every Subscription and every CSV of
// the namespace in one search (operator-lifecycle-manager `pkg/controller/registry/resolver`,
// `Resolver.Resolve`, `solver/search.go`).
import type { FbcRequirement } from './fbc.js';
import type { ResolvedOperator } from './olm-manifests.js';
import {
  clashes,
  dependencyOf,
  describeRequirement,
  presentOf,
  providers,
  satisfies,
  type PresentOperator,
  type VisibleCatalog,
} from './olm-resolve.js';

/** A CSV of the namespace, with what it requires and the Subscription (if any) that installed it. */
export interface ExistingOperator extends PresentOperator {
  readonly requires: readonly FbcRequirement[];
  /** The catalog its bundle is found in (its requirements are looked up there first). */
  readonly from: VisibleCatalog | undefined;
  /**
   * The Subscription whose installed CSV it is: only that Subscription's choice moves it. Undefined
   * for a CSV no Subscription references, which every solution keeps (`NewBundleVariableFromOperator`).
   */
  readonly subscription: string | undefined;
}

/** One way a Subscription can be satisfied: move to a CSV of its catalog, or keep its installed CSV. */
export type SubscriptionOption =
  | { readonly kind: 'move'; readonly op: ResolvedOperator; readonly from: VisibleCatalog | undefined }
  | { readonly kind: 'stay'; readonly csv: string };

/** A Subscription with its options in OLM's preference order (`getSubscriptionVariables`). */
export interface SubscriptionChoices {
  readonly name: string;
  readonly options: readonly SubscriptionOption[];
}

export type NamespaceSolution =
  | {
      readonly kind: 'solved';
      readonly chosen: ReadonlyMap<string, SubscriptionOption>;
      /** Operators no Subscription asked for that a requirement brings, each with its generated Subscription. */
      readonly dependencies: readonly ResolvedOperator[];
    }
  | {
      readonly kind: 'failed';
      readonly reason: string;
      /** The Subscription whose choice brought the requirement nothing meets, if one did. */
      readonly subscription: string | undefined;
    };

interface Need {
  /** The Subscription whose choice brought it (through any dependencies); undefined for a kept CSV's. */
  readonly sub: string | undefined;
  readonly by: string;
  readonly from: VisibleCatalog | undefined;
  readonly req: FbcRequirement;
}

/** Bounds the search on hostile catalogs. */
const BUDGET = 20_000;

/**
 * Solves a namespace as OLM's resolver does, in one pass for all its Subscriptions:
 *
 * - every CSV no Subscription references stays, with its requirements (`Mandatory`);
 * - each Subscription takes one of its options, the first that leads to a solution: its update
 *   candidates nearest the head first, then its installed CSV (the installed CSV is replaced only
 *   by its own Subscription's choice, so one hop at most);
 * - every requirement of every operator in the solution (kept or new) holds: met by an operator of
 *   the solution, else by a bundle that satisfies it, in OLM's order (`providers`: the requiring
 *   bundle's catalog first), which joins as a dependency with its own requirements;
 * - one operator per package and one provider per API (`addInvariants`);
 * - Subscriptions are chosen first, in the order given, then requirements in the order they
 *   arise; a dead end goes back to the latest choice (`solver/search.go`).
 *
 * When no choice works, `failed` with OLM's words for the first requirement nothing could meet.
 * Pure.
 */
export function solveNamespace(input: {
  readonly subscriptions: readonly SubscriptionChoices[];
  readonly existing: readonly ExistingOperator[];
  readonly catalogs: readonly VisibleCatalog[];
}): NamespaceSolution {
  const { subscriptions, existing, catalogs } = input;
  let budget = BUDGET;
  let failure: { reason: string; subscription: string | undefined } | undefined;
  const needsOf = (
    sub: string | undefined,
    by: string,
    from: VisibleCatalog | undefined,
    reqs: readonly FbcRequirement[],
  ) => reqs.map((req): Need => ({ sub, by, from, req }));

  const meet = (
    needs: readonly Need[],
    world: readonly PresentOperator[],
    deps: readonly ResolvedOperator[],
  ): readonly ResolvedOperator[] | undefined => {
    if (--budget < 0) return undefined;
    const [next, ...rest] = needs;
    if (!next) return deps;
    if (world.some((p) => satisfies(p, next.req))) return meet(rest, world, deps);
    const ordered = next.from ? [next.from, ...catalogs.filter((c) => c !== next.from)] : catalogs;
    for (const found of providers(ordered, next.req)) {
      const candidate = presentOf(found.bundle);
      if (world.some((p) => clashes(p, candidate))) continue;
      const dep = dependencyOf(next.by, found);
      const solved = meet(
        [...rest, ...needsOf(next.sub, dep.csv, found.from, found.bundle.requires)],
        [...world, candidate],
        [...deps, dep],
      );
      if (solved) return solved;
    }
    failure ??= { reason: `bundle ${next.by} ${describeRequirement(next.req)}`, subscription: next.sub };
    return undefined;
  };

  const chosen = new Map<string, SubscriptionOption>();
  const pick = (
    i: number,
    world: readonly PresentOperator[],
    needs: readonly Need[],
  ): readonly ResolvedOperator[] | undefined => {
    if (--budget < 0) return undefined;
    const sub = subscriptions[i];
    if (!sub) return meet(needs, world, []);
    for (const option of sub.options) {
      const entry = entryOf(sub.name, option, existing);
      if (world.some((p) => clashes(p, entry.operator))) continue;
      chosen.set(sub.name, option);
      const solved = pick(i + 1, [...world, entry.operator], [...needs, ...entry.needs]);
      if (solved) return solved;
      chosen.delete(sub.name);
    }
    return undefined;
  };

  const kept = existing.filter((e) => e.subscription === undefined);
  const solved = pick(
    0,
    kept,
    kept.flatMap((e) => needsOf(undefined, e.csv, e.from, e.requires)),
  );
  if (solved) return { kind: 'solved', chosen, dependencies: solved };
  return {
    kind: 'failed',
    reason: failure?.reason ?? 'the solver found no choice of operators that meets every constraint',
    subscription: failure?.subscription,
  };
}

/** The operator an option puts in the namespace, and what it requires. */
function entryOf(
  sub: string,
  option: SubscriptionOption,
  existing: readonly ExistingOperator[],
): { operator: PresentOperator; needs: Need[] } {
  if (option.kind === 'move') {
    const op = option.op;
    const bundle = option.from?.served.catalog.packages.get(op.package)?.bundles.get(op.csv);
    return {
      operator: bundle
        ? presentOf(bundle)
        : { csv: op.csv, package: op.package, version: op.version, provides: [] },
      needs: (bundle?.requires ?? []).map((req) => ({ sub, by: op.csv, from: option.from, req })),
    };
  }
  const e = existing.find((x) => x.csv === option.csv);
  // A CSV nothing is known of takes no package slot (its own name stands for it).
  if (!e)
    return {
      operator: { csv: option.csv, package: `\0${option.csv}`, version: '0.0.0', provides: [] },
      needs: [],
    };
  return { operator: e, needs: e.requires.map((req) => ({ sub, by: e.csv, from: e.from, req })) };
}
