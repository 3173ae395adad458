import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCatalog } from '../../../src/olm/index.js';
import {
  bundleModel,
  quickBundle,
  quickChannel,
  quickPackage,
} from '../../../src/olm/catalog/quick-check.js';
import {
  bundleBlobSchema,
  bundleVersion,
  channelBlobSchema,
  packageBlobSchema,
} from '../../../src/olm/catalog/schema.js';

// The quick checks stand in for zod on the usual blob shape (issue 19, item 7). Their contract:
// a value only for a blob zod accepts, equal to the model built from zod's output. Generated blobs
// are valid ones with one or two fields knocked out of shape, so both verdicts come up often.

/** A field value: mostly plausible, sometimes of the wrong type or empty. */
const anyOf = <T>(good: fc.Arbitrary<T>) =>
  fc.oneof(
    { weight: 6, arbitrary: good },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, null, '', 0, [], {}, ' x', ['a']) },
  );
const name = fc.constantFrom('foo', 'foo.v1.0.0', 'bar', 'a b', 'x');
const version = fc.constantFrom('1.0.0', '1.2.3-rc.1', 'v1.0.0', '01.0.0', '1.0', ' 1.0.0', '1.0.0+b');
const range = fc.constantFrom(
  '>=1.0.0 <1.2.0',
  '>=1.0.0 <2.0.0 || 3.x',
  'not-a-range',
  '>=01.0.0 <1.0.0',
  '',
);

/** Sometimes drops a key: a missing field is the commonest real mistake. */
const holey = (o: fc.Arbitrary<Record<string, unknown>>) =>
  fc
    .tuple(
      o,
      fc.oneof(
        { weight: 4, arbitrary: fc.constant<string[]>([]) },
        {
          weight: 1,
          arbitrary: fc.subarray(['name', 'package', 'entries', 'properties', 'defaultChannel', 'image'], {
            maxLength: 1,
          }),
        },
      ),
    )
    .map(([v, drop]) => Object.fromEntries(Object.entries(v).filter(([k]) => !drop.includes(k))));

const pkgBlob = holey(
  fc.record({ schema: fc.constant('olm.package'), name: anyOf(name), defaultChannel: anyOf(name) }),
);
const entry = anyOf(
  fc.record(
    {
      name: anyOf(name),
      replaces: anyOf(name),
      skips: anyOf(fc.array(anyOf(name), { maxLength: 3 })),
      skipRange: anyOf(range),
    },
    { requiredKeys: [] },
  ),
);
const channelBlob = holey(
  fc.record({
    schema: fc.constant('olm.channel'),
    package: anyOf(name),
    name: anyOf(name),
    entries: anyOf(fc.array(entry, { maxLength: 4 })),
  }),
);
const pkgProperty = fc.record({
  type: fc.constant('olm.package'),
  value: anyOf(
    fc.record({
      packageName: anyOf(fc.constantFrom('foo', 'foo', 'bar')),
      version: anyOf(fc.oneof(fc.constant('1.0.0'), version)),
    }),
  ),
});
const property = anyOf(
  fc.oneof(
    { weight: 1, arbitrary: pkgProperty },
    {
      weight: 3,
      arbitrary: fc.record({
        type: fc.constantFrom('olm.gvk', 'olm.gvk.required'),
        value: anyOf(fc.record({ group: anyOf(name), version: anyOf(name), kind: anyOf(name) })),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        type: fc.constant('olm.package.required'),
        value: anyOf(
          fc.record({ packageName: anyOf(name), versionRange: anyOf(range) }, { requiredKeys: [] }),
        ),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ type: anyOf(fc.constantFrom('olm.bundle.object', '')), value: fc.anything() }),
    },
  ),
);
/** Usually one olm.package property among others, as bundles have. */
const properties = fc
  .tuple(
    fc.array(property, { maxLength: 2 }),
    fc.option(pkgProperty, { freq: 8 }),
    fc.array(property, { maxLength: 2 }),
  )
  .map(([before, p, after]) => [...before, ...(p === null ? [] : [p]), ...after]);
const bundleBlob = holey(
  fc.record({
    schema: fc.constant('olm.bundle'),
    name: anyOf(name),
    package: anyOf(fc.constant('foo')),
    image: anyOf(name),
    properties: anyOf(properties),
    relatedImages: fc.anything(),
  }),
);
// JSON blobs carry no `undefined`: write each through JSON, as a catalog file would.
const asJson = (o: Record<string, unknown>) => JSON.parse(JSON.stringify(o)) as Record<string, unknown>;

describe('quick checks agree with the zod schemas', () => {
  it('olm.package', () => {
    let accepted = 0;
    fc.assert(
      fc.property(pkgBlob.map(asJson), (v) => {
        const quick = quickPackage(v);
        const zod = packageBlobSchema.safeParse(v);
        if (!quick) return;
        accepted++;
        expect(zod.success && { name: zod.data.name, defaultChannel: zod.data.defaultChannel }).toEqual(
          quick,
        );
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  it('olm.channel', () => {
    let accepted = 0;
    fc.assert(
      fc.property(channelBlob.map(asJson), (v) => {
        const quick = quickChannel(v);
        const zod = channelBlobSchema.safeParse(v);
        if (!quick) return;
        accepted++;
        expect(zod.success).toBe(true);
        if (!zod.success) return;
        expect(quick).toEqual({
          package: zod.data.package,
          name: zod.data.name,
          entries: zod.data.entries.map((e) => ({
            name: e.name,
            ...(e.replaces === undefined ? {} : { replaces: e.replaces }),
            skips: e.skips ?? [],
            ...(e.skipRange === undefined ? {} : { skipRange: e.skipRange }),
          })),
        });
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  it('olm.bundle', () => {
    let accepted = 0;
    fc.assert(
      fc.property(bundleBlob.map(asJson), (v) => {
        const quick = quickBundle(v);
        const zod = bundleBlobSchema.safeParse(v);
        if (!quick) return;
        accepted++;
        expect(zod.success).toBe(true);
        if (!zod.success) return;
        const b = zod.data;
        const version = bundleVersion(b);
        expect(quick).toEqual(
          bundleModel({
            name: b.name,
            package: b.package,
            version,
            image: b.image,
            properties: b.properties,
          }),
        );
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(100);
  });
});

describe('blobs the quick checks leave to zod', () => {
  it('read as before: "" as absent, any whitespace between JSON blobs', () => {
    const blobs = [
      { schema: 'olm.package', name: 'foo', defaultChannel: '' },
      {
        schema: 'olm.channel',
        package: 'foo',
        name: 'stable',
        entries: [{ name: 'foo.v1', replaces: '', skipRange: '' }],
      },
      {
        schema: 'olm.bundle',
        name: 'foo.v1',
        package: 'foo',
        properties: [{ type: 'olm.package', value: { packageName: 'foo', version: '1.0.0' } }],
      },
    ];
    // Between blobs, any whitespace /\s/ matches (the scanner reads the ASCII ones by code).
    const text = `\ufeff${blobs.map((b) => JSON.stringify(b)).join('\n\u00a0\v\f\t\r\n\u2028')}`;
    const foo = parseCatalog([{ path: 'index.json', text }]).packages.get('foo');
    expect(foo?.defaultChannel).toBeUndefined();
    expect(foo?.channels.get('stable')?.entries).toEqual([{ name: 'foo.v1', skips: [] }]);
    expect(foo?.bundles.get('foo.v1')).toEqual({
      name: 'foo.v1',
      package: 'foo',
      version: '1.0.0',
      image: undefined,
      provides: [],
      dependencies: [],
    });
  });
});
