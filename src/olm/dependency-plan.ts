import type { Bundle, CatalogPackage } from './catalog/model.js';
import type { BundleDependency } from './catalog/schema.js';
import { describeRequirement, requirementHolds } from './dependencies.js';
import {
  describeHold,
  heldRequirementMeets,
  presentOf,
  successorsOf,
  type NamedCatalog,
  type PresentOperator,
  type Successor,
} from './present-operator.js';

/** A bundle OLM puts in the same InstallPlan because a bundle of the plan requires it. */
export interface DependencyJoin {
  readonly csv: string;
  readonly package: string;
  readonly version: string;
  readonly channel: string;
  /** The name of the catalog it comes from. */
  readonly catalog: string;
  readonly requiredBy: string;
  readonly requirement: BundleDependency;
  /** The installed CSV it replaces: a present dependency its Subscription moves one hop. */
  readonly replaces?: string;
}

/** A requirement no bundle of the given catalogs satisfies (alongside the others of the plan). */
export interface UnmetRequirement {
  readonly bundle: string;
  readonly requirement: BundleDependency;
  /** OLM's wording: `bundle foo.v0.2.0 requires an operator with package: bar and ...`. */
  readonly message: string;
  /**
   * When bundles of the catalogs do satisfy it but an installed operator keeps them out: why
   * (`bar.v1.0.0 is installed and no Subscription references it, so OLM keeps it`).
   */
  readonly heldBack?: string;
}

/** What a bundle brings into its InstallPlan: the dependencies that join it, or what cannot be met. */
export interface DependencyPlan {
  readonly joins: readonly DependencyJoin[];
  /** Empty when every requirement holds; then OLM can make the plan. */
  readonly unmet: readonly UnmetRequirement[];
}

/** Bounds the search on hostile catalogs; past it, the plan reports the first requirement as unmet. */
const MAX_STEPS = 20_000;

interface Candidate {
  readonly bundle: Bundle;
  readonly channel: string;
  readonly catalog: string;
}

interface Pending {
  readonly by: string;
  readonly req: BundleDependency;
}

/**
 * The dependencies OLM brings with `root` into one InstallPlan, following its resolver
 * (operator-lifecycle-manager `pkg/controller/registry/resolver/resolver.go`):
 * - every `olm.package.required` and `olm.gvk.required` of every bundle in the plan is its own
 *   constraint (`getBundleVariables`: one `solver.Dependency` per requirement) and must hold;
 * - one an operator in `present` (or already chosen) meets needs nothing more, nor one that a
 *   requirement in `held` guarantees (the installed CSV's own requirements: they held when it was
 *   installed, so the operators that met them are in the namespace, catalog or not);
 * - its candidates come in OLM's preference order (`getBundleVariables`, `sortBundles`,
 *   `FindPreferred`): the root's catalog first, then the others in the order given; in a catalog
 *   the package's default channel first, then by package and channel name; in a channel from the
 *   head down, skipped entries left out (`sortChannel`);
 * - no two operators of one package, nor two providing one API (`addInvariants`); a `present`
 *   operator of the root's package is the one the root replaces; any other present operator
 *   stays unless its Subscription moves it one hop to one of its update candidates in the same
 *   plan (`getSubscriptionVariables`: the candidates, then the installed CSV); one without a
 *   Subscription always stays (`NewBundleVariableFromOperator`: `Mandatory`);
 * - the solver takes the first candidate that leads to a solution, going back when a later
 *   requirement cannot be met (`solver/search.go`).
 * When no choice meets every requirement, `unmet` names the requirements that no candidate meets,
 * and when installed operators keep the candidates out, which (`heldBack`).
 * Pure. Ignores `olm.constraint`, `olm.label.required` and OpenShift version limits, and does not
 * weigh an operator known only through `held` against candidates.
 *
 * @example
 * const plan = planDependencies({ root: bundle, rootCatalog: 'catalogs/community', catalogs, present: [] });
 * plan.joins.map((j) => `${j.csv} from ${j.catalog}`); // ['etcdoperator.v0.9.4 from catalogs/community']
 */
export function planDependencies(opts: {
  readonly root: Bundle;
  readonly rootCatalog: string | undefined;
  readonly catalogs: readonly NamedCatalog[];
  readonly present: readonly PresentOperator[];
  /** @default none */
  readonly held?: readonly BundleDependency[];
}): DependencyPlan {
  const { root, catalogs } = opts;
  const held = opts.held ?? [];
  const present = opts.present.filter((p) => p.package !== root.package);
  const successors = new Map(present.map((p) => [p, successorsOf(p, catalogs)]));
  const occupied: PresentOperator[] = [...present, presentOf(root, undefined)];
  const joins: DependencyJoin[] = [];
  const failed = new Map<string, UnmetRequirement>();
  const preferred = (name: string | undefined) => [
    ...catalogs.filter((c) => c.name === name),
    ...catalogs.filter((c) => c.name !== name),
  ];
  const catalogOf = new Map<string, string | undefined>([[root.name, opts.rootCatalog]]);
  let steps = 0;

  /** The operator `c` takes the place of, `undefined` when it takes none, `false` when it cannot go in. */
  const placeOf = (c: Candidate): PresentOperator | undefined | false => {
    let replaced: PresentOperator | undefined;
    for (const o of occupied) {
      if (o.package === c.bundle.package) {
        if (!successors.get(o)?.some((s) => sameEntry(s, c))) return false;
        replaced = o;
      } else if (clash(o, c.bundle)) return false;
    }
    return replaced;
  };

  // Requirements already met by an operator of the plan: replacing that operator asks them again.
  const done: Pending[] = [];
  const solve = (queue: readonly Pending[]): boolean => {
    if (++steps > MAX_STEPS) return false;
    const [next, ...rest] = queue;
    if (!next) return true;
    if (held.some((h) => heldRequirementMeets(h, next.req))) return solve(rest);
    if (occupied.some((o) => requirementHolds(o, next.req))) {
      done.push(next);
      if (solve(rest)) return true;
      done.pop();
      return false;
    }
    const all = candidates(preferred(catalogOf.get(next.by)), next.req);
    const options = all.flatMap((c) => {
      const place = placeOf(c);
      return place === false ? [] : [{ c, replaced: place }];
    });
    if (options.length === 0) {
      const key = `${next.by}\0${JSON.stringify(next.req)}`;
      const holders = occupied.filter(
        (o) => successors.has(o) && all.some((c) => o.package === c.bundle.package || clash(o, c.bundle)),
      );
      failed.set(key, {
        bundle: next.by,
        requirement: next.req,
        message: `bundle ${next.by} ${describeRequirement(next.req)}`,
        ...(holders.length > 0
          ? { heldBack: holders.map((o) => describeHold(o, successors.get(o) ?? [])).join('; ') }
          : {}),
      });
      return false;
    }
    for (const { c, replaced } of options) {
      const at = replaced ? occupied.indexOf(replaced) : -1;
      if (at >= 0) occupied.splice(at, 1);
      occupied.push(presentOf(c.bundle, undefined));
      joins.push({
        csv: c.bundle.name,
        package: c.bundle.package,
        version: c.bundle.version,
        channel: c.channel,
        catalog: c.catalog,
        requiredBy: next.by,
        requirement: next.req,
        ...(replaced ? { replaces: replaced.csv } : {}),
      });
      catalogOf.set(c.bundle.name, c.catalog);
      const more = c.bundle.dependencies.map((req) => ({ by: c.bundle.name, req }));
      const again = replaced ? done.filter((p) => requirementHolds(replaced, p.req)) : [];
      if (solve([...rest, ...again, ...more])) return true;
      joins.pop();
      occupied.pop();
      if (replaced) occupied.splice(at, 0, replaced);
    }
    return false;
  };

  const queue = root.dependencies.map((req) => ({ by: root.name, req }));
  if (solve(queue)) return { joins, unmet: [] };
  const unmet = [...failed.values()];
  if (unmet.length > 0) return { joins: [], unmet };
  // Every candidate was tried and conflicted, or the search was cut: the first requirement stands for it.
  const first = queue[0]!;
  return {
    joins: [],
    unmet: [
      {
        bundle: root.name,
        requirement: first.req,
        message: `bundle ${root.name} ${describeRequirement(first.req)}`,
      },
    ],
  };
}

/** The bundles that satisfy `req`, in OLM's preference order (see `planDependencies`). */
function candidates(catalogs: readonly NamedCatalog[], req: BundleDependency): Candidate[] {
  const out: Candidate[] = [];
  for (const { name, catalog } of catalogs) {
    const channels = [...catalog.packages.values()].flatMap((pkg) =>
      [...pkg.channels.keys()].map((channel) => ({ pkg, channel })),
    );
    channels.sort((a, b) => byDefault(a.pkg, a.channel, b.pkg, b.channel));
    for (const { pkg, channel } of channels) {
      for (const csv of pkg.channels.get(channel)?.order ?? []) {
        const bundle = pkg.bundles.get(csv);
        if (bundle && requirementHolds(bundle, req)) out.push({ bundle, channel, catalog: name });
      }
    }
  }
  return out;
}

function byDefault(pa: CatalogPackage, ca: string, pb: CatalogPackage, cb: string): number {
  const da = pa.defaultChannel === ca;
  const db = pb.defaultChannel === cb;
  if (da !== db) return da ? -1 : 1;
  if (pa.name !== pb.name) return pa.name < pb.name ? -1 : 1;
  return ca < cb ? -1 : ca > cb ? 1 : 0;
}

/** The same solver variable: one CSV of one channel of one catalog. */
function sameEntry(s: Successor, c: Candidate): boolean {
  return s.csv === c.bundle.name && s.channel === c.channel && s.catalog === c.catalog;
}

/** Two operators providing one API (OLM's `addInvariants`: one provider per API in a namespace). */
function clash(o: PresentOperator, b: Bundle): boolean {
  return o.provides.some((a) =>
    b.provides.some((x) => x.group === a.group && x.version === a.version && x.kind === a.kind),
  );
}
