import { describe, expect, it } from 'vitest';
import { findBundle, findChannel, listChannels, listPackages } from '../../../src/olm/index.js';
import { loadCatalogFixture } from '../helpers.js';

describe('catalog queries on registry-testdata-latest', async () => {
  const catalog = await loadCatalogFixture('registry-testdata-latest');

  it('lists packages with their default channel', () => {
    expect(listPackages(catalog)).toEqual([
      { name: 'bar', defaultChannel: 'stable', channels: ['alpha', 'stable'] },
      { name: 'baz', defaultChannel: 'stable', channels: ['stable'] },
      { name: 'foo', defaultChannel: 'beta', channels: ['beta'] },
    ]);
  });

  it('lists channels with the head and the versions in update order', () => {
    // bar alpha: bar.v0.2.0 replaces and skips bar.v0.1.0, so bar.v0.1.0 is out of the order;
    // bar.v1.0.0 replaces bar.v0.2.0 and nothing replaces it: the head.
    expect(listChannels(catalog, 'bar')).toEqual([
      {
        package: 'bar',
        name: 'alpha',
        isDefault: false,
        head: 'bar.v1.0.0',
        versions: [
          { csv: 'bar.v0.2.0', version: '0.2.0' },
          { csv: 'bar.v1.0.0', version: '1.0.0' },
        ],
        excluded: ['bar.v0.1.0'],
        problems: [],
      },
      {
        package: 'bar',
        name: 'stable',
        isDefault: true,
        head: 'bar.v1.0.0',
        versions: [{ csv: 'bar.v1.0.0', version: '1.0.0' }],
        excluded: [],
        problems: [],
      },
    ]);
    // baz stable: baz.v1.1.0 skips baz.v1.0.1, which skips baz.v1.0.0: only the head is in the order.
    expect(listChannels(catalog, 'baz')[0]).toMatchObject({
      head: 'baz.v1.1.0',
      excluded: ['baz.v1.0.0', 'baz.v1.0.1'],
    });
    expect(listChannels(catalog, 'nope')).toEqual([]);
  });

  it('finds channels and bundles', () => {
    expect(findChannel(catalog, 'foo', 'beta')?.head).toBe('foo.v0.3.1');
    expect(findChannel(catalog, 'foo', 'stable')).toBeUndefined();
    expect(findBundle(catalog, 'foo', 'foo.v0.3.0')).toEqual({
      name: 'foo.v0.3.0',
      package: 'foo',
      version: '0.3.0',
      image: 'test.registry/foo-operator/foo-bundle:v0.3.0',
      provides: [
        { group: 'test.foo', kind: 'Foo', version: 'v1' },
        { group: 'test.foo', kind: 'Foo', version: 'v2' },
      ],
      dependencies: [
        { type: 'gvk', group: 'test.bar', kind: 'Bar', version: 'v1alpha1' },
        { type: 'package', packageName: 'bar', versionRange: '<0.2.0' },
      ],
    });
  });
});
