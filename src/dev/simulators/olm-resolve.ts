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
       * For an installed Subscription: the other update candidates, nearer the head first. OLM's
       * Subscription constraint lists every candidate and then the installed CSV
       * (`getSubscriptionVariables`), so the solver falls back on them, and at last on staying.
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
    target = channel.head;
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
 * or `olm.gvk.required` properties. OLM's resolver turns each requirement into its own solver
 * constraint (operator-lifecycle-manager `pkg/controller/registry/resolver/resolver.go`,
 * `getBundleVariables`: a `solver.Dependency` on every bundle the requirement's predicate accepts,
 * `legacyPredicateParsers` / `newPackageRequiredPredicate`: package and range together), adds the
 * invariants of a namespace (`addInvariants`: one operator per package, one provider per API) and
 * searches in preference order, going back on a dead end (`solver/search.go`):
 *
 * - a requirement an operator already in the namespace (or chosen in this pass) meets needs
 *   nothing more;
 * - else the bundles that meet it, the root's own CatalogSource first, then the others by name;
 *   in each, the default channels first, then by package and channel name, each channel from the
 *   head down (`sortBundles`); a bundle of a package already in the namespace, or providing an API
 *   another operator there provides, is not a choice;
 * - each choice's own requirements join the work; the first choice that leaves every requirement
 *   met wins;
 * - when none does, the namespace fails with OLM's message for the requirement no choice meets.
 *
 * Each dependency is installed in the same namespace, in the same InstallPlan, with the
 * Subscription OLM generates for it (`<package>-<channel>-<source>-<sourceNamespace>`).
 */
export function resolveDependencies(
  root: ResolvedOperator,
  catalogs: readonly VisibleCatalog[],
  present: readonly PresentOperator[],
): { kind: 'ok'; deps: ResolvedOperator[] } | { kind: 'failed'; reason: string } {
  const rootCatalog = catalogs.find(
    (c) => c.source === root.source && c.sourceNamespace === root.sourceNamespace,
  );
  let reason: string | undefined;
  let budget = 20_000;
  type Work = {
    readonly op: ResolvedOperator;
    readonly from: VisibleCatalog | undefined;
    readonly req: FbcRequirement;
  };
  const needs = (op: ResolvedOperator, from: VisibleCatalog | undefined): Work[] =>
    (bundleIn(from?.served, op.package, op.csv)?.requires ?? []).map((req) => ({ op, from, req }));

  const search = (
    work: readonly Work[],
    have: readonly PresentOperator[],
    deps: readonly ResolvedOperator[],
  ): readonly ResolvedOperator[] | undefined => {
    if (--budget < 0) return undefined;
    if (work.length === 0) return deps;
    const [{ op, from, req }, ...rest] = work as [Work, ...Work[]];
    if (have.some((p) => satisfies(p, req))) return search(rest, have, deps);
    const ordered = from ? [from, ...catalogs.filter((c) => c !== from)] : catalogs;
    for (const found of providers(ordered, req)) {
      const candidate = presentOf(found.bundle);
      if (have.some((p) => clashes(p, candidate))) continue;
      const dep = dependencyOf(op, found);
      const solved = search([...rest, ...needs(dep, found.from)], [...have, candidate], [...deps, dep]);
      if (solved) return solved;
    }
    reason ??= `bundle ${op.csv} ${describe(req)}`;
    return undefined;
  };
  const deps = search(needs(root, rootCatalog), present, []);
  if (deps) return { kind: 'ok', deps: [...deps] };
  return {
    kind: 'failed',
    reason: reason ?? `bundle ${root.csv} has requirements the solver could not meet`,
  };
}

/** One operator per package, one provider per API (OLM's `addInvariants`). */
function clashes(a: PresentOperator, b: PresentOperator): boolean {
  return (
    a.package === b.package ||
    a.provides.some((x) =>
      b.provides.some((y) => x.group === y.group && x.version === y.version && x.kind === y.kind),
    )
  );
}

interface Provider {
  readonly from: VisibleCatalog;
  readonly pkg: FbcPackage;
  readonly channel: string;
  readonly bundle: FbcBundle;
}

function dependencyOf(of: ResolvedOperator, { from, pkg, channel, bundle }: Provider): ResolvedOperator {
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
      of: of.csv,
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

/** Every bundle that meets `req`, in OLM's preference order (see `resolveDependencies`). */
function* providers(catalogs: readonly VisibleCatalog[], req: FbcRequirement): Generator<Provider> {
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
function describe(req: FbcRequirement): string {
  return req.type === 'gvk'
    ? `requires an operator providing an API with group: ${req.group}, version: ${req.version}, kind: ${req.kind}`
    : `requires an operator with package: ${req.packageName} and with version in range: ${req.versionRange}`;
}
