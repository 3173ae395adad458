import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { updateCandidates } from '../../../src/olm/candidates.js';
import { parseCatalog } from '../../../src/olm/catalog/index.js';
import { dependencyLookup } from '../../../src/olm/dependencies.js';
import { readFbc, updatesFor } from '../../../src/dev/simulators/fbc.js';
import { presentOf, resolveDependencies, satisfies } from '../../../src/dev/simulators/olm-resolve.js';
import { catalogFromFiles } from '../../../src/dev/simulators/olm-catalog.js';
import { planDependencies } from '../../../src/olm/dependency-plan.js';

/**
 * The OLM simulator (written from OLM's resolver) and Groundwork's catalog model must agree on the
 * same file-based catalogs: a bug in either shows up as a disagreement here, not as a shared blind
 * spot. Catalogs are generated with any graph shape: several heads, cycles, skips, skipRanges, and
 * bundles with random olm.gvk / olm.gvk.required / olm.package.required properties.
 */

const name = (i: number) => `op.v1.${i}.0`;
const GVKS = [
  { group: 'a.example.com', version: 'v1', kind: 'A' },
  { group: 'b.example.com', version: 'v1', kind: 'B' },
  { group: 'b.example.com', version: 'v2', kind: 'B' },
];
const RANGES = ['>=1.0.0', '<1.2.0', '>=1.1.0 <1.3.0', '1.2.x', '*'];

const others = (i: number, n: number) => Array.from({ length: n }, (_, j) => j).filter((j) => j !== i);

const entryArb = (i: number, n: number) =>
  fc.record({
    replaces:
      n > 1
        ? fc.option(fc.constantFrom(...others(i, n)), { nil: undefined })
        : fc.constant<number | undefined>(undefined),
    skips: fc.subarray(others(i, n)),
    skipRange: fc.option(fc.constantFrom('<1.2.0', '>=1.0.0 <1.4.0', '<1.0.0'), { nil: undefined }),
    provides: fc.subarray(GVKS),
    requiresGvk: fc.subarray(GVKS, { maxLength: 1 }),
    requiresPkg: fc.option(fc.constantFrom(...RANGES), { nil: undefined }),
  });

const catalogArb = fc
  .integer({ min: 1, max: 7 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => entryArb(i, n))));

type Spec = typeof catalogArb extends fc.Arbitrary<infer T> ? T : never;

/** Package `op` (the generated channel) and package `op` bundles requiring package `op` itself. */
function fbcText(specs: Spec): string {
  const blobs: unknown[] = [
    { schema: 'olm.package', name: 'op', defaultChannel: 'stable' },
    {
      schema: 'olm.channel',
      package: 'op',
      name: 'stable',
      entries: specs.map((s, i) => ({
        name: name(i),
        ...(s.replaces !== undefined ? { replaces: name(s.replaces) } : {}),
        ...(s.skips.length ? { skips: s.skips.map(name) } : {}),
        ...(s.skipRange ? { skipRange: s.skipRange } : {}),
      })),
    },
    ...specs.map((s, i) => ({
      schema: 'olm.bundle',
      name: name(i),
      package: 'op',
      image: `registry.invalid/op-bundle:v1.${i}.0`,
      properties: [
        { type: 'olm.package', value: { packageName: 'op', version: `1.${i}.0` } },
        ...s.provides.map((g) => ({ type: 'olm.gvk', value: g })),
        ...s.requiresGvk.map((g) => ({ type: 'olm.gvk.required', value: g })),
        ...(s.requiresPkg
          ? [{ type: 'olm.package.required', value: { packageName: 'op', versionRange: s.requiresPkg } }]
          : []),
      ],
    })),
  ];
  return blobs.map((b) => `---\n${stringify(b)}`).join('');
}

describe('the OLM simulator and Groundwork agree', () => {
  it('on channel head, update order, problems and update candidates of every installed entry', () => {
    fc.assert(
      fc.property(catalogArb, (specs) => {
        const files = [{ path: 'index.yaml', text: fbcText(specs) }];
        const product = parseCatalog(files).packages.get('op')!.channels.get('stable')!;
        const sim = readFbc(files).packages.get('op')!.channels.get('stable')!;
        expect(sim.problem !== undefined).toBe(product.problems.length > 0);
        expect(sim.head).toBe(product.head);
        expect(sim.order).toEqual(product.order);
        for (let i = 0; i < specs.length; i++) {
          const installed = { csv: name(i), version: `1.${i}.0` };
          expect(updatesFor(sim, installed).map((e) => e.name)).toEqual(
            updateCandidates(product, installed).map((c) => c.entry.name),
          );
        }
      }),
      { numRuns: 300 },
    );
  });

  it('on what each bundle provides and requires, and on which bundle satisfies which requirement', () => {
    fc.assert(
      fc.property(catalogArb, (specs) => {
        const files = [{ path: 'index.yaml', text: fbcText(specs) }];
        const product = parseCatalog(files);
        const sim = readFbc(files).packages.get('op')!;
        const lookup = dependencyLookup([product]);
        for (let w = 0; w < specs.length; w++) {
          const wanted = sim.bundles.get(name(w))!;
          const pb = product.packages.get('op')!.bundles.get(name(w))!;
          expect(wanted.provides).toEqual(pb.provides);
          expect(wanted.requires).toEqual(pb.dependencies);
          for (let d = 0; d < specs.length; d++) {
            if (d === w) continue;
            const dep = presentOf(sim.bundles.get(name(d))!);
            // One requirement met and none broken: a bundle of package P outside the range of a
            // requirement on P can never join (one operator per package; every requirement holds).
            const simSays =
              wanted.requires.some((r) => satisfies(dep, r)) &&
              wanted.requires.every(
                (r) => r.type !== 'package' || r.packageName !== dep.package || satisfies(dep, r),
              );
            expect(lookup(name(d), [name(w)]) === name(w)).toBe(simSays);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('on the dependencies a bundle brings, version ranges, and the requirements nothing meets', () => {
    fc.assert(
      fc.property(depsCatalogArb, (spec) => {
        const files = [{ path: 'deps.yaml', text: depsFbcText(spec) }];
        const product = parseCatalog(files);
        const root = product.packages.get('app')!.bundles.get('app.v1.0.0')!;
        const plan = planDependencies({
          root,
          rootCatalog: 'c',
          catalogs: [{ name: 'c', catalog: product }],
          present: [],
        });
        const served = catalogFromFiles(files);
        const sim = resolveDependencies(
          {
            csv: 'app.v1.0.0',
            version: '1.0.0',
            package: 'app',
            channel: 'stable',
            source: 'c',
            sourceNamespace: 'olm',
            replaces: undefined,
            skips: [],
            skipRange: undefined,
            ownedCRDs: [],
          },
          [{ source: 'c', sourceNamespace: 'olm', served }],
          [],
        );
        expect(plan.unmet.length === 0).toBe(sim.kind === 'ok');
        if (sim.kind === 'ok') expect(plan.joins.map((j) => j.csv)).toEqual(sim.deps.map((d) => d.csv));
        else expect(plan.unmet.map((u) => u.message)).toContain(sim.reason);
      }),
      { numRuns: 500 },
    );
  });
});

/** A root `app` requiring APIs and package `dep` in a range; `dep` and `other` bundles providing and requiring APIs. */
const depsCatalogArb = fc.record({
  appGvks: fc.subarray(GVKS, { maxLength: 2 }),
  appRange: fc.option(fc.constantFrom(...RANGES, '>=1.1.0 <1.2.0', '>=9.0.0'), { nil: undefined }),
  dep: fc.array(
    fc.record({
      provides: fc.subarray(GVKS),
      requires: fc.subarray(GVKS, { maxLength: 1 }),
      fast: fc.boolean(),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  depDefault: fc.constantFrom('stable', 'fast'),
  other: fc.array(fc.record({ provides: fc.subarray(GVKS), requires: fc.subarray(GVKS, { maxLength: 1 }) }), {
    maxLength: 3,
  }),
});

function depsFbcText(spec: typeof depsCatalogArb extends fc.Arbitrary<infer T> ? T : never): string {
  const chain = (pkg: string, names: string[]) =>
    names.map((n, i) => ({ name: n, ...(i > 0 ? { replaces: names[i - 1] } : {}) }));
  const bundle = (pkg: string, i: number, provides: typeof GVKS, requires: typeof GVKS, range?: string) => ({
    schema: 'olm.bundle',
    name: `${pkg}.v1.${i}.0`,
    package: pkg,
    image: `registry.invalid/${pkg}:${i}`,
    properties: [
      { type: 'olm.package', value: { packageName: pkg, version: pkg === 'app' ? '1.0.0' : `1.${i}.0` } },
      ...provides.map((g) => ({ type: 'olm.gvk', value: g })),
      ...requires.map((g) => ({ type: 'olm.gvk.required', value: g })),
      ...(range
        ? [{ type: 'olm.package.required', value: { packageName: 'dep', versionRange: range } }]
        : []),
    ],
  });
  const depNames = spec.dep.map((_, i) => `dep.v1.${i}.0`);
  const fast = depNames.filter((_, i) => spec.dep[i]!.fast);
  const otherNames = spec.other.map((_, i) => `other.v1.${i}.0`);
  const blobs: unknown[] = [
    { schema: 'olm.package', name: 'app', defaultChannel: 'stable' },
    { schema: 'olm.channel', package: 'app', name: 'stable', entries: [{ name: 'app.v1.0.0' }] },
    { ...bundle('app', 0, [], spec.appGvks, spec.appRange), name: 'app.v1.0.0' },
    { schema: 'olm.package', name: 'dep', defaultChannel: fast.length ? spec.depDefault : 'stable' },
    { schema: 'olm.channel', package: 'dep', name: 'stable', entries: chain('dep', depNames) },
    ...(fast.length
      ? [{ schema: 'olm.channel', package: 'dep', name: 'fast', entries: chain('dep', fast) }]
      : []),
    ...spec.dep.map((d, i) => bundle('dep', i, d.provides, d.requires)),
    ...(otherNames.length
      ? [
          { schema: 'olm.package', name: 'other', defaultChannel: 'stable' },
          { schema: 'olm.channel', package: 'other', name: 'stable', entries: chain('other', otherNames) },
        ]
      : []),
    ...spec.other.map((d, i) => bundle('other', i, d.provides, d.requires)),
  ];
  return blobs.map((b) => `---\n${stringify(b)}`).join('');
}
