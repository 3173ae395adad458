import semver from 'semver';
import { updatesFor, type FbcBundle, type FbcGvk, type FbcPackage, type FbcRequirement } from './fbc.js';
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
  | {
      readonly kind: 'resolved';
      readonly operator: ResolvedOperator;
      /**
       * The other candidates, nearer the head first: for an installed Subscription its other update
       * candidates, for a new one without `startingCSV` the rest of its channel. OLM's Subscription
       * constraint lists every candidate (then the installed CSV; `getSubscriptionVariables`), so
       * the solver falls back on them.
       */
      readonly fallbacks?: readonly ResolvedOperator[];
    }
  | { readonly kind: 'installed'; readonly csv: string }
  | { readonly kind: 'failed'; readonly reason: string };

/**
 * Resolves one Subscription the way OLM's resolver filters its catalog cache
 * (operator-lifecycle-manager `pkg/controller/registry/resolver/resolver.go`):
 *
 * - no package at all from the CatalogSource, the package, the channel, or the `startingCSV` in the
 *   channel missing: a failure with OLM's message (`no operators found ...`);
 * - an installed CSV: the update candidate nearest the channel head (`replaces`, `skips`,
 *   `skipRange`, see `updatesFor`), the others as `fallbacks`, or `installed` when there is none;
 * - not installed: `startingCSV` alone, else the channel head with the rest of the channel as
 *   `fallbacks` (without a `startingCSV` every entry of the channel is a candidate).
 *
 * Pure. Dependencies are resolved apart (`solveNamespace`, `resolveDependencies`); OpenShift
 * version limits (`olm.maxOpenShiftVersion`) are not weighed.
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
  let others: string[] = [];
  if (installed) {
    [target, ...others] = updatesFor(channel, { csv: installed.csv, version: installed.version }).map(
      (e) => e.name,
    );
    if (!target) return { kind: 'installed', csv: installed.csv };
  } else if (sub.startingCSV) {
    if (!channel.entries.some((e) => e.name === sub.startingCSV)) {
      return fail(
        `no operators found with name ${sub.startingCSV} in channel ${sub.channel} of package ${sub.package} in the catalog referenced by subscription ${sub.name}`,
      );
    }
    target = sub.startingCSV;
  } else {
    [target, ...others] = channel.order;
    if (!target) {
      return fail(
        `no operators found in channel ${channelName} of package ${sub.package} in the catalog referenced by subscription ${sub.name}: ${channel.problem ?? 'the channel has no entries'}`,
      );
    }
  }
  const operatorFor = (csv: string): ResolvedOperator => {
    const entry = channel.entries.find((e) => e.name === csv);
    return {
      csv,
      version: pkg.bundles.get(csv)?.version ?? '0.0.0',
      package: sub.package,
      channel: channelName,
      source: sub.source,
      sourceNamespace: sub.sourceNamespace,
      replaces: installed?.csv ?? entry?.replaces,
      skips: entry?.skips ?? [],
      skipRange: entry?.skipRange,
      ownedCRDs: served?.ownedCRDs.get(csv) ?? [],
    };
  };
  return {
    kind: 'resolved',
    operator: operatorFor(target),
    ...(others.length > 0 ? { fallbacks: others.map(operatorFor) } : {}),
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

/**
 * An operator in the namespace (installed, or resolved in this pass) that may satisfy a
 * requirement. How OLM brings dependencies in, in its preference order, is `solveNamespace`'s
 * (`olm-solve.ts`): each `olm.package.required` (package and range together,
 * `newPackageRequiredPredicate`) and `olm.gvk.required` of a bundle is its own constraint
 * (`getBundleVariables`), met by an operator already there or by a bundle that `providers` lists.
 */
export interface PresentOperator {
  readonly csv: string;
  readonly package: string;
  readonly version: string;
  readonly provides: readonly FbcGvk[];
}

/** A present operator for a bundle. */
export function presentOf(bundle: FbcBundle): PresentOperator {
  return { csv: bundle.name, package: bundle.package, version: bundle.version, provides: bundle.provides };
}

/** One operator per package, one provider per API (OLM's `addInvariants`). */
export function clashes(a: PresentOperator, b: PresentOperator): boolean {
  return (
    a.package === b.package ||
    a.provides.some((x) =>
      b.provides.some((y) => x.group === y.group && x.version === y.version && x.kind === y.kind),
    )
  );
}

/** A bundle that meets a requirement, with where it is found. */
export interface Provider {
  readonly from: VisibleCatalog;
  readonly pkg: FbcPackage;
  readonly channel: string;
  readonly bundle: FbcBundle;
}

/**
 * A bundle joining as a dependency of `of`, with the Subscription OLM generates for it
 * (`<package>-<channel>-<source>-<sourceNamespace>`), installed in the same InstallPlan.
 */
export function dependencyOf(of: string, { from, pkg, channel, bundle }: Provider): ResolvedOperator {
  const entry = pkg.channels.get(channel)?.entries.find((e) => e.name === bundle.name);
  return {
    csv: bundle.name,
    version: bundle.version,
    package: bundle.package,
    channel,
    source: from.source,
    sourceNamespace: from.sourceNamespace,
    replaces: entry?.replaces,
    skips: entry?.skips ?? [],
    skipRange: entry?.skipRange,
    ownedCRDs: from.served.ownedCRDs.get(bundle.name) ?? [],
    dependency: {
      of,
      subscription: `${bundle.package}-${channel}-${from.source}-${from.sourceNamespace}`,
    },
  };
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

/**
 * Every bundle that meets `req`, in OLM's preference order (`getBundleVariables`, `sortBundles`):
 * the catalogs in the order given (the requiring bundle's own first); in each, the default
 * channels first, then by package and channel name; each channel from its head down, skipped
 * entries left out.
 */
export function* providers(catalogs: readonly VisibleCatalog[], req: FbcRequirement): Generator<Provider> {
  for (const from of catalogs) {
    const channels = [...from.served.catalog.packages.values()]
      .filter((pkg) => req.type === 'gvk' || pkg.name === req.packageName)
      .flatMap((pkg) => [...pkg.channels.keys()].map((channel) => ({ pkg, channel })))
      .sort(
        (a, b) =>
          Number(b.channel === b.pkg.defaultChannel) - Number(a.channel === a.pkg.defaultChannel) ||
          a.pkg.name.localeCompare(b.pkg.name) ||
          a.channel.localeCompare(b.channel),
      );
    for (const { pkg, channel } of channels) {
      for (const name of pkg.channels.get(channel)?.order ?? []) {
        const bundle = pkg.bundles.get(name);
        if (bundle && satisfies(presentOf(bundle), req)) yield { from, pkg, channel, bundle };
      }
    }
  }
}

/** OLM's wording of an unsatisfied requirement. */
export function describeRequirement(req: FbcRequirement): string {
  return req.type === 'gvk'
    ? `requires an operator providing an API with group: ${req.group}, version: ${req.version}, kind: ${req.kind}`
    : `requires an operator with package: ${req.packageName} and with version in range: ${req.versionRange}`;
}
