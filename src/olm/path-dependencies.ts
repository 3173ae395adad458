import {
  planDependencies,
  presentOf,
  type DependencyJoin,
  type NamedCatalog,
  type PresentOperator,
  type UnmetRequirement,
} from './dependency-plan.js';
import type { Hop } from './upgrade-path-result.js';

/** The dependencies of one hop's InstallPlan. */
export interface HopDependencies {
  readonly csv: string;
  readonly joins: readonly DependencyJoin[];
  readonly unmet: readonly UnmetRequirement[];
}

/**
 * The dependency bundles each hop of an upgrade path brings into its InstallPlan, and the
 * requirements nothing in `catalogs` satisfies (see `planDependencies`). Operators a hop installs
 * stay for the next hops; `present` are those already in the namespace. A hop whose bundle is not
 * in `catalog` brings nothing known. Pure.
 *
 * @example
 * pathDependencies({ package: 'foo', hops: path.hops, catalog, catalogs: [catalog] })
 *   .filter((h) => h.unmet.length > 0); // hops OLM will not plan
 */
export function pathDependencies(opts: {
  readonly package: string;
  readonly hops: readonly Hop[];
  /** The catalog the package comes from. */
  readonly catalog: NamedCatalog;
  /** Every catalog dependencies may come from (the package's own included). */
  readonly catalogs: readonly NamedCatalog[];
  /** @default nothing else in the namespace */
  readonly present?: readonly PresentOperator[];
}): HopDependencies[] {
  const pkg = opts.catalog.catalog.packages.get(opts.package);
  let present: readonly PresentOperator[] = opts.present ?? [];
  return opts.hops.map((hop) => {
    const root = pkg?.bundles.get(hop.csv);
    if (!root) return { csv: hop.csv, joins: [], unmet: [] };
    const plan = planDependencies({ root, rootCatalog: opts.catalog.name, catalogs: opts.catalogs, present });
    if (plan.unmet.length === 0) {
      const installed = [presentOf(root), ...plan.joins.map((j) => operatorOf(j, opts.catalogs))];
      present = [...present.filter((p) => !installed.some((i) => i.package === p.package)), ...installed];
    }
    return { csv: hop.csv, joins: plan.joins, unmet: plan.unmet };
  });
}

function operatorOf(j: DependencyJoin, catalogs: readonly NamedCatalog[]): PresentOperator {
  const bundle = catalogs
    .find((c) => c.name === j.catalog)
    ?.catalog.packages.get(j.package)
    ?.bundles.get(j.csv);
  return { csv: j.csv, package: j.package, version: j.version, provides: bundle?.provides ?? [] };
}

/**
 * Text lines for the hops that bring dependencies or cannot be planned, or none:
 * `  foo.v0.2.0 brings bar.v0.1.0 (package bar, channel alpha, from catalog x.yaml), required by foo.v0.2.0`
 */
export function renderPathDependencies(hops: readonly HopDependencies[]): string[] {
  return hops.flatMap((h) => [
    ...h.joins.map(
      (j) =>
        `  ${h.csv} brings ${j.csv} (package ${j.package}, channel ${j.channel}, from catalog ${j.catalog}), required by ${j.requiredBy}`,
    ),
    ...h.unmet.map(
      (u) => `  ${h.csv} cannot be planned: ${u.message}, and no bundle of the catalogs satisfies it`,
    ),
  ]);
}
