import type { BundleDependency } from './catalog/schema.js';
import { planDependencies, type DependencyJoin, type UnmetRequirement } from './dependency-plan.js';
import type { NamedCatalog, PresentOperator } from './present-operator.js';
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
 * stay for the next hops, each with the Subscription OLM gives it (a dependency's in the channel
 * it came from), and so do the operators that met the requirements of the CSV the path starts
 * from (`installed`): its requirements count as met for every hop, as far as they reach
 * (`heldRequirementMeets`). `present` are the other operators already in the namespace. A hop
 * whose bundle is not in `catalog` brings nothing known. Pure.
 *
 * @example
 * pathDependencies({ package: 'foo', hops: path.hops, catalog, catalogs: [catalog], installed: 'foo.v0.1.0' })
 *   .filter((h) => h.unmet.length > 0); // hops OLM will not plan
 */
export function pathDependencies(opts: {
  readonly package: string;
  readonly hops: readonly Hop[];
  /** The catalog the package comes from. */
  readonly catalog: NamedCatalog;
  /** Every catalog dependencies may come from (the package's own included). */
  readonly catalogs: readonly NamedCatalog[];
  /** The CSV the Subscription has installed, if any (its requirements held when it was installed). */
  readonly installed?: string;
  /** The channel the package's Subscription follows. @default unknown */
  readonly channel?: string;
  /** @default nothing else in the namespace */
  readonly present?: readonly PresentOperator[];
}): HopDependencies[] {
  const pkg = opts.catalog.catalog.packages.get(opts.package);
  const held: readonly BundleDependency[] =
    (opts.installed && pkg?.bundles.get(opts.installed)?.dependencies) || [];
  let present: readonly PresentOperator[] = opts.present ?? [];
  return opts.hops.map((hop) => {
    const root = pkg?.bundles.get(hop.csv);
    if (!root) return { csv: hop.csv, joins: [], unmet: [] };
    const plan = planDependencies({
      root,
      rootCatalog: opts.catalog.name,
      catalogs: opts.catalogs,
      present,
      held,
    });
    if (plan.unmet.length === 0) {
      const own = opts.channel ? { channel: opts.channel, catalog: opts.catalog.name } : undefined;
      const installed = [
        { ...operatorOf(root.name, opts.package, root.version, opts.catalog), subscription: own },
        ...plan.joins.map((j) => ({
          ...operatorOf(
            j.csv,
            j.package,
            j.version,
            opts.catalogs.find((c) => c.name === j.catalog),
          ),
          subscription: { channel: j.channel, catalog: j.catalog },
        })),
      ];
      present = [...present.filter((p) => !installed.some((i) => i.package === p.package)), ...installed];
    }
    return { csv: hop.csv, joins: plan.joins, unmet: plan.unmet };
  });
}

function operatorOf(csv: string, pkg: string, version: string, from: NamedCatalog | undefined) {
  const provides = from?.catalog.packages.get(pkg)?.bundles.get(csv)?.provides ?? [];
  return { csv, package: pkg, version, provides };
}

/**
 * Text lines for the hops that bring dependencies or cannot be planned, or none:
 * `  foo.v0.2.0 brings bar.v0.1.0 (package bar, channel alpha, from catalog x.yaml), required by foo.v0.2.0`;
 * `  foo.v0.2.0 cannot be planned: bundle foo.v0.2.0 requires ..., and no bundle of the catalogs satisfies it`
 */
export function renderPathDependencies(hops: readonly HopDependencies[]): string[] {
  return hops.flatMap((h) => [
    ...h.joins.map(
      (j) =>
        `  ${h.csv} brings ${j.csv} (package ${j.package}, channel ${j.channel}, from catalog ${j.catalog}${j.replaces ? `, replacing the installed ${j.replaces}` : ''}), required by ${j.requiredBy}`,
    ),
    ...h.unmet.map((u) => `  ${h.csv} cannot be planned: ${u.message}, ${unmetCause(u, 'the catalogs')}`),
  ]);
}

/** Why nothing meets an unmet requirement: `and no bundle of the catalogs satisfies it`, or the installed operator that keeps them out. */
export function unmetCause(u: UnmetRequirement, where: string): string {
  return u.heldBack
    ? `and the bundles of ${where} that satisfy it cannot join: ${u.heldBack}`
    : `and no bundle of ${where} satisfies it`;
}
