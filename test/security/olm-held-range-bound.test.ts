import { describe, expect, it } from 'vitest';
import { parseCatalog } from '../../src/olm/catalog/index.js';
import { pathDependencies } from '../../src/olm/path-dependencies.js';
import { heldRequirementMeets, MAX_COMPARED_RANGE } from '../../src/olm/present-operator.js';

/**
 * Catalog files come from the repository, so a pull request controls the version ranges an
 * installed CSV's requirements are compared with. `semver.subset` is quadratic in the ranges'
 * `||` clauses: a range past `MAX_COMPARED_RANGE` is never compared (so never taken as met).
 */
const range = (clauses: number) => Array.from({ length: clauses }, (_, i) => `1.${i}.x`).join(' || ');

describe('a hostile version range in a catalog', () => {
  it('is not compared past the bound, whatever it says', () => {
    const huge = range(20_000);
    expect(huge.length).toBeGreaterThan(MAX_COMPARED_RANGE);
    const pkg = (versionRange: string) => ({ type: 'package', packageName: 'p', versionRange }) as const;
    expect(heldRequirementMeets(pkg(huge), pkg(huge))).toBe(false);
    expect(heldRequirementMeets(pkg('1.0.x'), pkg(huge))).toBe(false);
    // Within the bound, the same question is answered.
    expect(heldRequirementMeets(pkg(range(3)), pkg(range(3)))).toBe(true);
  });

  it('leaves the hop unplanned instead of spinning on the installed CSV’s own requirement', () => {
    const bundle = (v: string) => `
schema: olm.bundle
name: app.v${v}
package: app
image: registry.invalid/app:${v}
properties:
  - { type: olm.package, value: { packageName: app, version: ${v} } }
  - { type: olm.package.required, value: { packageName: p, versionRange: '${range(20_000)}' } }
`;
    const text = `
schema: olm.package
name: app
defaultChannel: stable
---
schema: olm.channel
package: app
name: stable
entries: [{ name: app.v1.0.0 }, { name: app.v1.1.0, replaces: app.v1.0.0 }]
---${bundle('1.0.0')}---${bundle('1.1.0')}`;
    const catalog = { name: 'c', catalog: parseCatalog([{ path: 'c.yaml', text }]) };
    const hop = {
      csv: 'app.v1.1.0',
      version: '1.1.0',
      via: ['replaces' as const],
      replaces: 'app.v1.0.0',
      replacesVersion: '1.0.0',
    };
    const [planned] = pathDependencies({
      package: 'app',
      hops: [hop],
      catalog,
      catalogs: [catalog],
      installed: 'app.v1.0.0',
    });
    expect(planned?.unmet.map((u) => u.bundle)).toEqual(['app.v1.1.0']);
  });
});
