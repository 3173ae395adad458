import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { updateCandidates } from '../../../src/olm/candidates.js';
import { parseCatalog } from '../../../src/olm/catalog/index.js';
import { dependencyLookup } from '../../../src/olm/dependencies.js';
import { readFbc, updatesFor } from '../../../src/dev/simulators/fbc.js';
import { presentOf, satisfies } from '../../../src/dev/simulators/olm-resolve.js';
import { catalogFromFiles } from '../../../src/dev/simulators/olm-catalog.js';
import { planDependencies } from '../../../src/olm/dependency-plan.js';
import { presentOf as presentOfProduct } from '../../../src/olm/present-operator.js';
import type { K8sObject } from '../../../src/core/object.js';
import {
  resolveNamespace,
  type NamespaceSubscription,
} from '../../../src/dev/simulators/olm-resolve-namespace.js';

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
        // A new Subscription starting at app.v1.0.0, in an empty namespace.
        const sim = resolveNamespace({
          subscriptions: [
            {
              spec: {
                name: 'app',
                package: 'app',
                channel: 'stable',
                source: 'c',
                sourceNamespace: 'olm',
                startingCSV: 'app.v1.0.0',
              },
              status: {},
              manual: false,
            },
          ],
          csvs: new Map(),
          served: (source) => (source === 'olm/c' ? served : undefined),
          visible: [{ source: 'c', sourceNamespace: 'olm', served }],
          planGenerations: [],
        });
        expect(plan.unmet.length === 0).toBe(sim.plan !== undefined);
        if (sim.plan) {
          expect(plan.joins.map((j) => j.csv)).toEqual(sim.plan.operators.slice(1).map((d) => d.csv));
        } else {
          const failed = sim.statuses.get('app')?.conditions?.[0]?.message ?? '';
          expect(
            plan.unmet.map((u) => `constraints not satisfiable: ${u.message}, subscription app exists`),
          ).toContain(failed);
        }
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

/**
 * "Installed at version X": package `dep` (channel stable, and fast holding some of its entries) is
 * installed at one entry, by a Subscription on one of its channels or by none, or not installed;
 * `app` is installed at v1.0.0 (requiring a `dep` range the installed one meets) or new, and its
 * v1.1.0 requires `dep` in a range and maybe an API.
 */
const installedArb = fc
  .record({
    n: fc.integer({ min: 1, max: 5 }),
    skipRange: fc.option(fc.constantFrom('<1.2.0', '>=1.0.0 <1.3.0'), { nil: undefined }),
    fast: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
    provides: fc.array(fc.subarray(GVKS), { minLength: 5, maxLength: 5 }),
    appRange: fc.option(fc.constantFrom(...RANGES, '>1.0.0', '>=1.1.0 <1.2.0', '>=9.0.0'), {
      nil: undefined,
    }),
    appGvk: fc.subarray(GVKS, { maxLength: 1 }),
    installedAt: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
    subscription: fc.constantFrom('stable', 'fast', 'none'),
    appInstalled: fc.boolean(),
  })
  .map((s) => ({ ...s, installedAt: s.installedAt === undefined ? undefined : s.installedAt % s.n }));

type InstalledSpec = typeof installedArb extends fc.Arbitrary<infer T> ? T : never;

const depName = (i: number) => `dep.v1.${i}.0`;

function installedFbcText(s: InstalledSpec): string {
  const names = Array.from({ length: s.n }, (_, i) => depName(i));
  const chain = (list: string[]) =>
    list.map((n, i) => ({
      name: n,
      ...(i > 0 ? { replaces: list[i - 1] } : {}),
      ...(i === list.length - 1 && i > 0 && s.skipRange ? { skipRange: s.skipRange } : {}),
    }));
  const fast = names.filter((_, i) => s.fast[i]);
  const app = (v: string, requires: unknown[]) => ({
    schema: 'olm.bundle',
    name: `app.v${v}`,
    package: 'app',
    image: `registry.invalid/app:${v}`,
    properties: [{ type: 'olm.package', value: { packageName: 'app', version: v } }, ...requires],
  });
  const oldRequires =
    s.appInstalled && s.installedAt !== undefined
      ? [
          {
            type: 'olm.package.required',
            value: { packageName: 'dep', versionRange: `>=1.${s.installedAt}.0` },
          },
        ]
      : [];
  const blobs: unknown[] = [
    { schema: 'olm.package', name: 'app', defaultChannel: 'stable' },
    {
      schema: 'olm.channel',
      package: 'app',
      name: 'stable',
      entries: [{ name: 'app.v1.0.0' }, { name: 'app.v1.1.0', replaces: 'app.v1.0.0' }],
    },
    app('1.0.0', oldRequires),
    app('1.1.0', [
      ...(s.appRange
        ? [{ type: 'olm.package.required', value: { packageName: 'dep', versionRange: s.appRange } }]
        : []),
      ...s.appGvk.map((g) => ({ type: 'olm.gvk.required', value: g })),
    ]),
    { schema: 'olm.package', name: 'dep', defaultChannel: 'stable' },
    { schema: 'olm.channel', package: 'dep', name: 'stable', entries: chain(names) },
    ...(fast.length ? [{ schema: 'olm.channel', package: 'dep', name: 'fast', entries: chain(fast) }] : []),
    ...names.map((n, i) => ({
      schema: 'olm.bundle',
      name: n,
      package: 'dep',
      image: `registry.invalid/dep:${i}`,
      properties: [
        { type: 'olm.package', value: { packageName: 'dep', version: `1.${i}.0` } },
        ...s.provides[i]!.map((g) => ({ type: 'olm.gvk', value: g })),
      ],
    })),
  ];
  return blobs.map((b) => `---\n${stringify(b)}`).join('');
}

describe('the OLM simulator and Groundwork agree with an operator already installed', () => {
  it('on whether the next CSV resolves and which CSV the installed dependency moves to', () => {
    fc.assert(
      fc.property(installedArb, (s) => {
        const files = [{ path: 'installed.yaml', text: installedFbcText(s) }];
        const product = parseCatalog(files);
        const served = catalogFromFiles(files);
        const x = s.installedAt;
        const inFast = x !== undefined && s.fast[x] === true;
        const channel = s.subscription === 'fast' && !inFast ? 'stable' : s.subscription;
        const depCsv = x === undefined ? undefined : depName(x);
        const appPkg = product.packages.get('app')!;
        const depPkg = product.packages.get('dep')!;

        // Groundwork: the dependencies app.v1.1.0 brings, given what is installed.
        const present = depCsv
          ? [
              presentOfProduct(
                depPkg.bundles.get(depCsv)!,
                channel === 'none' ? undefined : { channel, catalog: 'c' },
              ),
            ]
          : [];
        const plan = planDependencies({
          root: appPkg.bundles.get('app.v1.1.0')!,
          rootCatalog: 'c',
          catalogs: [{ name: 'c', catalog: product }],
          present,
          held: s.appInstalled ? appPkg.bundles.get('app.v1.0.0')!.dependencies : [],
        });

        // The simulator: the namespace with its Subscriptions and CSVs, resolved together.
        const csvs: [string, K8sObject][] = [];
        const subs: NamespaceSubscription[] = [];
        const at = (csv: string) => ({ currentCSV: csv, installedCSV: csv, state: 'AtLatestKnown' });
        const spec = (name: string, ch: string, startingCSV?: string) => ({
          name,
          package: name,
          channel: ch,
          source: 'c',
          sourceNamespace: 'olm',
          startingCSV,
        });
        if (s.appInstalled) {
          csvs.push(csvObject('app.v1.0.0', '1.0.0'));
          subs.push({ spec: spec('app', 'stable'), status: at('app.v1.0.0'), manual: false });
        } else {
          subs.push({ spec: spec('app', 'stable', 'app.v1.1.0'), status: {}, manual: false });
        }
        if (depCsv && x !== undefined) {
          csvs.push(csvObject(depCsv, `1.${x}.0`));
          if (channel !== 'none')
            subs.push({ spec: spec('dep', channel), status: at(depCsv), manual: false });
        }
        const sim = resolveNamespace({
          subscriptions: subs,
          csvs: new Map(csvs),
          served: (source) => (source === 'olm/c' ? served : undefined),
          visible: [{ source: 'c', sourceNamespace: 'olm', served }],
          planGenerations: [],
        });
        const simMovesApp = sim.plan?.moved.some((m) => m.subscription === 'app') ?? false;
        expect(simMovesApp).toBe(plan.unmet.length === 0);
        if (!s.appInstalled && !simMovesApp)
          expect(sim.statuses.get('app')?.conditions?.[0]?.type).toBe('ResolutionFailed');
        if (plan.unmet.length > 0) return;
        const join = plan.joins.find((j) => j.package === 'dep');
        if (join?.replaces) {
          // The installed dependency fails the range: both move it one hop, to the same CSV.
          expect(sim.plan?.moved).toContainEqual({ subscription: 'dep', csv: join.csv });
        } else if (join) {
          // Nothing of dep installed: both bring the same bundle as a dependency.
          expect(sim.plan?.operators.filter((o) => o.dependency).map((o) => o.csv)).toEqual([join.csv]);
        }
      }),
      { numRuns: 400 },
    );
  });
});

function csvObject(name: string, version: string): [string, K8sObject] {
  return [
    name,
    {
      apiVersion: 'operators.coreos.com/v1alpha1',
      kind: 'ClusterServiceVersion',
      metadata: { name },
      spec: { version },
    },
  ];
}
