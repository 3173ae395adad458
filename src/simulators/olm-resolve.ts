import semver from 'semver';
import { updatesFor, type FbcBundle, type FbcGvk, type FbcRequirement } from './fbc.js';
import type { SimulatorCatalog } from './olm-catalog.js';
import type { ResolvedOperator } from './olm-manifests.js';

/** The parts of a Subscription that resolution reads. */
export interface SubscriptionSpec {
  readonly name: string;
  readonly package: string;
  /** Empty: the package's default channel. */
  readonly channel: string;
  readonly source: string;
  readonly sourceNamespace: string;
  readonly startingCSV: string | undefined;
}

/** The CSV a Subscription has installed (a CSV object exists), with its version for `skipRange`. */
export interface InstalledOperator {
  readonly csv: string;
  readonly version: string | undefined;
}

/** One Subscription's outcome: the CSV OLM wants installed, or why it cannot resolve. */
export type SubscriptionResolution =
  | { readonly kind: 'resolved'; readonly operator: ResolvedOperator }
  | { readonly kind: 'installed'; readonly csv: string }
  | { readonly kind: 'failed'; readonly reason: string };

/**
 * Resolves one Subscription the way OLM's resolver filters its catalog cache
 * (operator-lifecycle-manager `pkg/controller/registry/resolver/resolver.go`):
 *
 * - no package at all from the CatalogSource, the package, the channel, or the `startingCSV` in the
 *   channel missing: a failure with OLM's message (`no operators found ...`);
 * - an installed CSV: the update candidate nearest the channel head (`replaces`, `skips`,
 *   `skipRange`, see `updatesFor`), or `installed` when there is none;
 * - not installed: `startingCSV`, else the channel head.
 *
 * Pure. Dependencies are resolved apart (`resolveDependencies`); OpenShift version limits
 * (`olm.maxOpenShiftVersion`) are not weighed.
 */
export function resolveSubscription(
  sub: SubscriptionSpec,
  served: SimulatorCatalog | undefined,
  installed: InstalledOperator | undefined,
): SubscriptionResolution {
  const fail = (reason: string): SubscriptionResolution => ({ kind: 'failed', reason });
  const catalog = served?.catalog;
  if (!catalog || catalog.packages.size === 0) {
    return fail(
      `no operators found from catalog ${sub.source} in namespace ${sub.sourceNamespace} referenced by subscription ${sub.name}`,
    );
  }
  const pkg = catalog.packages.get(sub.package);
  if (!pkg)
    return fail(
      `no operators found in package ${sub.package} in the catalog referenced by subscription ${sub.name}`,
    );
  const channelName = sub.channel || pkg.defaultChannel || '';
  const channel = pkg.channels.get(channelName);
  if (!channel) {
    return fail(
      `no operators found in channel ${sub.channel} of package ${sub.package} in the catalog referenced by subscription ${sub.name}`,
    );
  }

  let target: string | undefined;
  if (installed) {
    target = updatesFor(channel, { csv: installed.csv, version: installed.version })[0]?.name;
    if (!target) return { kind: 'installed', csv: installed.csv };
  } else if (sub.startingCSV) {
    if (!channel.entries.some((e) => e.name === sub.startingCSV)) {
      return fail(
        `no operators found with name ${sub.startingCSV} in channel ${sub.channel} of package ${sub.package} in the catalog referenced by subscription ${sub.name}`,
      );
    }
    target = sub.startingCSV;
  } else {
    target = channel.head;
    if (!target) {
      return fail(
        `no operators found in channel ${channelName} of package ${sub.package} in the catalog referenced by subscription ${sub.name}: ${channel.problem ?? 'the channel has no entries'}`,
      );
    }
  }
  const entry = channel.entries.find((e) => e.name === target);
  return {
    kind: 'resolved',
    operator: {
      csv: target,
      version: pkg.bundles.get(target)?.version ?? '0.0.0',
      package: sub.package,
      channel: channelName,
      source: sub.source,
      sourceNamespace: sub.sourceNamespace,
      replaces: installed?.csv ?? entry?.replaces,
      skips: entry?.skips ?? [],
      skipRange: entry?.skipRange,
      ownedCRDs: served?.ownedCRDs.get(target) ?? [],
    },
  };
}

/**
 * The message OLM puts on `ResolutionFailed` for a namespace whose solver found a Subscription it
 * cannot satisfy (the unsatisfiable constraints, then the subscription's mandatory one).
 */
export function resolutionFailedMessage(subscription: string, reason: string): string {
  return `constraints not satisfiable: ${reason}, subscription ${subscription} exists`;
}

/** A CatalogSource the namespace can use (its own namespace or the global catalog namespace). */
export interface VisibleCatalog {
  readonly source: string;
  readonly sourceNamespace: string;
  readonly served: SimulatorCatalog;
}

/** An operator in the namespace (installed, or resolved in this pass) that may satisfy a requirement. */
export interface PresentOperator {
  readonly csv: string;
  readonly package: string;
  readonly version: string;
  readonly provides: readonly FbcGvk[];
}

/** The bundle of a CSV in the catalog it was resolved from. */
export function bundleIn(
  served: SimulatorCatalog | undefined,
  pkg: string,
  csv: string,
): FbcBundle | undefined {
  return served?.catalog.packages.get(pkg)?.bundles.get(csv);
}

/** A present operator for a bundle. */
export function presentOf(bundle: FbcBundle): PresentOperator {
  return { csv: bundle.name, package: bundle.package, version: bundle.version, provides: bundle.provides };
}

/**
 * The operators OLM adds to a namespace's InstallPlan because `root` declares `olm.package.required`
 * or `olm.gvk.required` properties (OLM's resolver turns them into solver constraints; see
 * operator-lifecycle-manager `pkg/controller/registry/resolver/resolver.go`, `getBundleEntries` and
 * the `olm.package.required`/`olm.gvk.required` predicates in `cache/predicates.go`):
 *
 * - a requirement an operator already in the namespace (or resolved in this pass) satisfies needs
 *   nothing more;
 * - else the first bundle that satisfies it, searching the root's own CatalogSource first, then the
 *   others by name; in each, packages by name, and in a package its default channel first, then
 *   the others by name, each from the head down (OLM's preference for default-channel heads);
 * - the chosen bundle's own requirements are resolved the same way;
 * - an unsatisfiable requirement fails the namespace with OLM's message.
 *
 * Each dependency is installed in the same namespace, in the same InstallPlan, with the
 * Subscription OLM generates for it (`<package>-<channel>-<source>-<sourceNamespace>`).
 */
export function resolveDependencies(
  root: ResolvedOperator,
  catalogs: readonly VisibleCatalog[],
  present: readonly PresentOperator[],
): { kind: 'ok'; deps: ResolvedOperator[] } | { kind: 'failed'; reason: string } {
  const have = [...present];
  const deps: ResolvedOperator[] = [];
  const queue: { op: ResolvedOperator; catalog: VisibleCatalog | undefined }[] = [
    {
      op: root,
      catalog: catalogs.find((c) => c.source === root.source && c.sourceNamespace === root.sourceNamespace),
    },
  ];
  while (queue.length > 0) {
    const { op, catalog } = queue.shift()!;
    const bundle = bundleIn(catalog?.served, op.package, op.csv);
    for (const req of bundle?.requires ?? []) {
      if (have.some((p) => satisfies(p, req))) continue;
      const ordered = catalog ? [catalog, ...catalogs.filter((c) => c !== catalog)] : catalogs;
      const found = firstProvider(ordered, req);
      if (!found) return { kind: 'failed', reason: `bundle ${op.csv} ${describe(req)}` };
      const { from, pkg, channel, bundle: dep } = found;
      const entry = pkg.channels.get(channel)?.entries.find((e) => e.name === dep.name);
      const resolved: ResolvedOperator = {
        csv: dep.name,
        version: dep.version,
        package: dep.package,
        channel,
        source: from.source,
        sourceNamespace: from.sourceNamespace,
        replaces: entry?.replaces,
        skips: entry?.skips ?? [],
        skipRange: entry?.skipRange,
        ownedCRDs: from.served.ownedCRDs.get(dep.name) ?? [],
        dependency: {
          of: op.csv,
          subscription: `${dep.package}-${channel}-${from.source}-${from.sourceNamespace}`,
        },
      };
      deps.push(resolved);
      have.push(presentOf(dep));
      queue.push({ op: resolved, catalog: from });
    }
  }
  return { kind: 'ok', deps };
}

/** Whether an operator meets one requirement (OLM's `ProvidingAPIPredicate`, `PkgPredicate` + `VersionInRangePredicate`). */
export function satisfies(p: PresentOperator, req: FbcRequirement): boolean {
  if (req.type === 'gvk') {
    return p.provides.some((g) => g.group === req.group && g.version === req.version && g.kind === req.kind);
  }
  return (
    p.package === req.packageName &&
    semver.valid(p.version) !== null &&
    semver.satisfies(p.version, req.versionRange, { includePrerelease: true })
  );
}

function firstProvider(catalogs: readonly VisibleCatalog[], req: FbcRequirement) {
  for (const from of catalogs) {
    const pkgs = [...from.served.catalog.packages.values()].sort((a, b) => a.name.localeCompare(b.name));
    for (const pkg of pkgs) {
      if (req.type === 'package' && pkg.name !== req.packageName) continue;
      // The default channel first, then the others by name; in each, from the head down.
      const channels = [...pkg.channels.keys()].sort(
        (a, b) => Number(b === pkg.defaultChannel) - Number(a === pkg.defaultChannel) || a.localeCompare(b),
      );
      for (const channel of channels) {
        for (const name of pkg.channels.get(channel)?.order ?? []) {
          const bundle = pkg.bundles.get(name);
          if (bundle && satisfies(presentOf(bundle), req)) return { from, pkg, channel, bundle };
        }
      }
    }
  }
  return undefined;
}

/** OLM's wording of an unsatisfied requirement. */
function describe(req: FbcRequirement): string {
  return req.type === 'gvk'
    ? `requires an operator providing an API with group: ${req.group}, version: ${req.version}, kind: ${req.kind}`
    : `requires an operator with package: ${req.packageName} and with version in range: ${req.versionRange}`;
}
