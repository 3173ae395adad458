import type { Bundle, Catalog, CatalogPackage } from './catalog/model.js';
import type { BundleApi, BundleDependency } from './catalog/schema.js';
import { describeRequirement, requirementHolds } from './dependencies.js';

/** A catalog with the name people know it by (its file in groundwork.yaml, the `-f` path). */
export interface NamedCatalog {
  readonly name: string;
  readonly catalog: Catalog;
}

/** An operator already in the namespace (or installed by an earlier hop). */
export interface PresentOperator {
  readonly csv: string;
  readonly package: string;
  readonly version: string;
  readonly provides: readonly BundleApi[];
}

/** A bundle as an operator in the namespace. */
export function presentOf(b: Bundle): PresentOperator {
  return { csv: b.name, package: b.package, version: b.version, provides: b.provides };
}

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
}

/** A requirement no bundle of the given catalogs satisfies (alongside the others of the plan). */
export interface UnmetRequirement {
  readonly bundle: string;
  readonly requirement: BundleDependency;
  /** OLM's wording: `bundle foo.v0.2.0 requires an operator with package: bar and ...`. */
  readonly message: string;
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
 * - one an operator in `present` (or already chosen) meets needs nothing more;
 * - its candidates come in OLM's preference order (`getBundleVariables`, `sortBundles`,
 *   `FindPreferred`): the root's catalog first, then the others in the order given; in a catalog
 *   the package's default channel first, then by package and channel name; in a channel from the
 *   head down, skipped entries left out (`sortChannel`);
 * - no two operators of one package, nor two providing one API (`addInvariants`); a `present`
 *   operator of the root's package is the one the root replaces, and a present dependency may be
 *   updated in the same plan;
 * - the solver takes the first candidate that leads to a solution, going back when a later
 *   requirement cannot be met (`solver/search.go`).
 * When no choice meets every requirement, `unmet` names the requirements that no candidate meets.
 * Pure. Ignores `olm.constraint`, `olm.label.required` and OpenShift version limits.
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
}): DependencyPlan {
  const { root, catalogs } = opts;
  const present = opts.present.filter((p) => p.package !== root.package);
  const occupied: PresentOperator[] = [...present, presentOf(root)];
  const joins: DependencyJoin[] = [];
  const failed = new Map<string, UnmetRequirement>();
  const preferred = (name: string | undefined) => [
    ...catalogs.filter((c) => c.name === name),
    ...catalogs.filter((c) => c.name !== name),
  ];
  const catalogOf = new Map<string, string | undefined>([[root.name, opts.rootCatalog]]);
  let steps = 0;

  const solve = (queue: readonly Pending[]): boolean => {
    if (++steps > MAX_STEPS) return false;
    const [next, ...rest] = queue;
    if (!next) return true;
    if (occupied.some((o) => requirementHolds(o, next.req))) return solve(rest);
    const options = candidates(preferred(catalogOf.get(next.by)), next.req).filter((c) =>
      fits(c.bundle, occupied, present),
    );
    if (options.length === 0) {
      const key = `${next.by}\0${JSON.stringify(next.req)}`;
      failed.set(key, {
        bundle: next.by,
        requirement: next.req,
        message: `bundle ${next.by} ${describeRequirement(next.req)}`,
      });
      return false;
    }
    for (const c of options) {
      const replaced = occupied.findIndex((o) => o.package === c.bundle.package);
      const saved = replaced >= 0 ? occupied.splice(replaced, 1) : [];
      occupied.push(presentOf(c.bundle));
      joins.push({
        csv: c.bundle.name,
        package: c.bundle.package,
        version: c.bundle.version,
        channel: c.channel,
        catalog: c.catalog,
        requiredBy: next.by,
        requirement: next.req,
      });
      catalogOf.set(c.bundle.name, c.catalog);
      const more = c.bundle.dependencies.map((req) => ({ by: c.bundle.name, req }));
      if (solve([...rest, ...more])) return true;
      joins.pop();
      occupied.pop();
      occupied.push(...saved);
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

/** No second operator of a package (but a present dependency may be updated), no second provider of an API. */
function fits(b: Bundle, occupied: readonly PresentOperator[], present: readonly PresentOperator[]): boolean {
  return occupied.every((o) => {
    if (o.package === b.package) return present.includes(o);
    return !o.provides.some((a) =>
      b.provides.some((x) => x.group === a.group && x.version === a.version && x.kind === a.kind),
    );
  });
}
