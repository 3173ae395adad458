import semver from 'semver';
import type { Bundle, Catalog } from './catalog/model.js';

/**
 * Answers "which of these CSVs declares a dependency that `csv` satisfies?" from catalog files.
 * Returns the declaring CSV, or undefined when `csv` is not a declared dependency of any of them.
 */
export type DependencyLookup = (csv: string, declarers: readonly string[]) => string | undefined;

/**
 * A `DependencyLookup` over the bundles of `catalogs`: `csv` is a declared dependency of `w` when
 * `w`'s bundle has an `olm.package.required` whose package is `csv`'s and whose range holds its
 * version, or an `olm.gvk.required` that `csv`'s bundle provides (`olm.gvk`). A CSV in no catalog
 * is nobody's dependency. Pure.
 *
 * @example
 * const lookup = dependencyLookup([catalog]);
 * lookup('etcd.v0.9.4', ['app.v1.0.0']); // 'app.v1.0.0' when app requires package etcd >=0.9.0
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
    return declarers.find((w) =>
      (bundles.get(w)?.dependencies ?? []).some((d) =>
        d.type === 'package'
          ? d.packageName === dep.package &&
            semver.valid(dep.version) !== null &&
            semver.satisfies(dep.version, d.versionRange, { includePrerelease: true })
          : dep.provides.some((a) => a.group === d.group && a.version === d.version && a.kind === d.kind),
      ),
    );
  };
}
