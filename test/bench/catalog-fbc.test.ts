import { describe, expect, it } from 'vitest';
import { fbcJsonStream } from '../../bench/catalog-fbc.js';
import { listChannels, parseCatalog } from '../../src/olm/index.js';

// The catalog benchmark's input must be a valid catalog of the size it claims, or its figure means nothing.
describe('fbcJsonStream', () => {
  it('is a valid catalog with one bundle and one channel entry per entry, the last package taking the rest', () => {
    const catalog = parseCatalog([
      { path: 'index.json', text: fbcJsonStream({ entries: 250, perPackage: 100 }) },
    ]);
    expect([...catalog.packages.values()].map((p) => [p.name, p.bundles.size])).toEqual([
      ['op-0', 100],
      ['op-1', 100],
      ['op-2', 50],
    ]);
    const [stable] = listChannels(catalog, 'op-2');
    expect(stable).toMatchObject({ head: 'op-2.v3.49.0', problems: [] });
    // Entries 10, 20, 30 and 40 skip the two before the one they replace: never offered as updates.
    expect(stable?.excluded).toEqual([
      'op-2.v3.7.0',
      'op-2.v3.8.0',
      'op-2.v3.17.0',
      'op-2.v3.18.0',
      'op-2.v3.27.0',
      'op-2.v3.28.0',
      'op-2.v3.37.0',
      'op-2.v3.38.0',
    ]);
    expect(catalog.packages.get('op-2')?.channels.get('stable')?.entries[49]?.skipRange).toBe(
      '>=3.0.0 <3.49.0',
    );
  });

  it('is deterministic', () => {
    expect(fbcJsonStream({ entries: 30, perPackage: 7 })).toBe(fbcJsonStream({ entries: 30, perPackage: 7 }));
  });
});
