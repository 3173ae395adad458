import semver from 'semver';
import type { Bundle, Catalog } from './catalog/model.js';
import type { BundleDependency } from './catalog/schema.js';

/**
 * Answers "which of these CSVs declares a dependency that `csv` satisfies?" from catalog files.
 * Returns the declaring CSV, or undefined when `csv` is not a declared dependency of any of them.
 */
export type DependencyLookup = (csv: string, declarers: readonly string[]) => string | undefined;

/**
 * Whether `bundle` satisfies one requirement, as OLM's predicates decide (operator-lifecycle-manager
 * `pkg/controller/registry/resolver/resolver.go` `legacyPredicateParsers`, `cache/predicates.go`):
 * `olm.gvk.required` is `ProvidingAPIPredicate` (an `olm.gvk` property equal in group, version and
 * kind); `olm.package.required` is `newPackageRequiredPredicate`, the package AND its version range
 * together (`PkgPredicate` and `VersionInRangePredicate`). Ranges include pre-releases, as
 * blang/semver compares them; a range or version that does not parse holds for nothing (OLM
 * refuses to resolve with it). Pure.
 */
export function requirementHolds(
  bundle: Pick<Bundle, 'package' | 'version' | 'provides'>,
  req: BundleDependency,
): boolean {
  if (req.type === 'gvk') {
    return bundle.provides.some(
      (a) => a.group === req.group && a.version === req.version && a.kind === req.kind,
    );
  }
  if (bundle.package !== req.packageName || semver.valid(bundle.version) === null) return false;
  if (semver.validRange(req.versionRange, { includePrerelease: true }) === null) return false;
  return semver.satisfies(bundle.version, req.versionRange, { includePrerelease: true });
}

/** OLM's wording of a requirement (`PrettyConstraint` in `getBundleVariables`): `requires an operator with package: bar and with version in range: <0.1.0`. */
export function describeRequirement(req: BundleDependency): string {
  return req.type === 'gvk'
    ? `requires an operator providing an API with group: ${req.group}, version: ${req.version}, kind: ${req.kind}`
    : `requires an operator with package: ${req.packageName} and with version in range: ${req.versionRange}`;
}

/**
 * A `DependencyLookup` over the bundles of `catalogs`: `csv` is a declared dependency of `w` when
 * it satisfies one of `w`'s requirements (`requirementHolds`) and breaks none. Every requirement is
 * its own constraint that must hold, and OLM keeps one operator per package in a namespace
 * (`addInvariants`, `NewSinglePackageInstanceVariable`): so a CSV of package P whose version is
 * outside the range of `w`'s `olm.package.required` on P can never be installed with `w`, even when
 * it provides the API `w` requires. A CSV in no catalog is nobody's dependency. Pure.
 *
 * @example
 * const lookup = dependencyLookup([catalog]);
 * lookup('etcdoperator.v0.9.4', ['app.v1.0.0']); // 'app.v1.0.0' when app requires package etcd >=0.9.0
 */
export function dependencyLookup(catalogs: readonly Catalog[]): DependencyLookup {
  const bundles = new Map<string, Bundle>();
  for (const c of catalogs) {
    for (const pkg of c.packages.values()) {
      for (const b of pkg.bundles.values()) if (!bundles.has(b.name)) bundles.set(b.name, b);
    }
  }
  return (csv, declarers) => {
    const dep = bundles.get(csv);
    if (!dep) return undefined;
    return declarers.find((w) => {
      const reqs = bundles.get(w)?.dependencies ?? [];
      const breaks = reqs.some(
        (r) => r.type === 'package' && r.packageName === dep.package && !requirementHolds(dep, r),
      );
      return !breaks && reqs.some((r) => requirementHolds(dep, r));
    });
  };
}
