/**
 * Upgrade paths over every catalog fixture. Every expectation below was derived
 * by hand from the `olm.channel` entries of the fixture, with OLM's rules:
 * a candidate for installed X replaces X, skips X, or has a skipRange holding
 * X's version; skipped entries are out of the update order; the candidate
 * nearest the head wins; each hop is one InstallPlan.
 */
import { describe, expect, it } from 'vitest';
import {
  parseCatalog,
  upgradePath,
  type UpgradePathRequest,
  type UpgradePathResult,
} from '../../src/olm/index.js';
import { catalogFixturePath, loadCatalogFixture, readFixture } from './helpers.js';

/** `csv via reason,reason` per hop, or the reason code when unreachable. */
function hops(r: UpgradePathResult): string[] | string {
  return r.ok ? r.hops.map((h) => `${h.csv} via ${h.via.join(',')}`) : r.reason;
}
function olmPath(r: UpgradePathResult): string[] {
  return r.ok ? [] : r.olmPath.map((h) => `${h.csv} via ${h.via.join(',')}`);
}

describe('registry-testdata-latest', async () => {
  const catalog = await loadCatalogFixture('registry-testdata-latest');
  const bar = (from: string | undefined, to: string, channel = 'alpha') =>
    upgradePath(catalog, { package: 'bar', channel, from, to });
  const baz = (from: string | undefined, to: string, more: Partial<UpgradePathRequest> = {}) =>
    upgradePath(catalog, { package: 'baz', channel: 'stable', from, to, ...more });
  const foo = (from: string | undefined, to: string, more: Partial<UpgradePathRequest> = {}) =>
    upgradePath(catalog, { package: 'foo', channel: 'beta', from, to, ...more });

  it('bar/alpha: v0.1.0 -> v0.2.0 -> v1.0.0', () => {
    // bar.v0.2.0: replaces bar.v0.1.0, skips [bar.v0.1.0], skipRange <0.2.0 (holds 0.1.0): all three edges.
    // bar.v1.0.0: replaces bar.v0.2.0, no edge from bar.v0.1.0, so it is not a candidate for the first hop.
    expect(hops(bar('bar.v0.1.0', 'bar.v1.0.0'))).toEqual([
      'bar.v0.2.0 via replaces,skips,skipRange',
      'bar.v1.0.0 via replaces',
    ]);
    expect(hops(bar('bar.v0.1.0', 'bar.v0.2.0'))).toEqual(['bar.v0.2.0 via replaces,skips,skipRange']);
  });

  it('bar/alpha: a skipped entry still installs fresh (startingCSV)', () => {
    // bar.v0.1.0 is skipped by bar.v0.2.0, so it is out of the update order, but a fresh install picks it by name.
    expect(hops(bar(undefined, 'bar.v0.1.0'))).toEqual(['bar.v0.1.0 via startingCSV']);
  });

  it('bar/stable: moving from alpha strands v0.2.0, the stable entry has no edge', () => {
    // stable has a single entry `bar.v1.0.0` with no replaces, skips or skipRange.
    const r = bar('bar.v0.2.0', 'bar.v1.0.0', 'stable');
    expect(hops(r)).toBe('no-update-edge');
    expect(r.ok ? '' : r.message).toContain('bar.v0.2.0 (0.2.0)');
    expect(hops(bar(undefined, 'bar.v1.0.0', 'stable'))).toEqual(['bar.v1.0.0 via startingCSV']);
    const notThere = bar(undefined, 'bar.v0.2.0', 'stable');
    expect(hops(notThere)).toBe('target-not-in-channel');
    expect(notThere.ok ? '' : notThere.message).toBe(
      'bar.v0.2.0 is not an entry of channel stable; it is in channel alpha',
    );
  });

  it('baz/stable: v1.0.0 -> v1.1.0 in one hop; v1.0.1 is skipped and never offered', () => {
    // baz.v1.1.0: replaces baz.v1.0.0, skips [baz.v1.0.1]. baz.v1.0.1 replaces baz.v1.0.0 too,
    // but it is skipped by baz.v1.1.0, so OLM's order is just [baz.v1.1.0].
    expect(hops(baz('baz.v1.0.0', 'baz.v1.1.0'))).toEqual(['baz.v1.1.0 via replaces']);
    // baz.v1.1.0 skips baz.v1.0.1.
    expect(hops(baz('baz.v1.0.1', 'baz.v1.1.0'))).toEqual(['baz.v1.1.0 via skips']);
    const r = baz('baz.v1.0.0', 'baz.v1.0.1');
    expect(hops(r)).toBe('target-skipped');
    expect(olmPath(r)).toEqual(['baz.v1.1.0 via replaces']);
    expect(r.ok ? '' : r.fix).toBe(
      'pin baz.v1.1.0, where OLM lands, or install baz.v1.0.1 fresh (startingCSV)',
    );
  });

  it('baz/stable: from 0.9.0 there is no edge, the skipRanges <1.0.0 sit on skipped entries', () => {
    // baz.v1.0.0 and baz.v1.0.1 both have skipRange <1.0.0, but both are skipped entries;
    // baz.v1.1.0, the only entry in the order, has no skipRange.
    expect(hops(baz('baz.v0.9.0', 'baz.v1.1.0', { fromVersion: '0.9.0' }))).toBe('no-update-edge');
  });

  it('foo/beta: v0.1.0 -> v0.2.0 -> v0.3.1', () => {
    // foo.v0.2.0: replaces foo.v0.1.0, skipRange <0.2.0 (holds 0.1.0).
    // foo.v0.3.1: replaces foo.v0.2.0 (and skips foo.v0.3.0, which leaves the order).
    expect(hops(foo('foo.v0.1.0', 'foo.v0.3.1'))).toEqual([
      'foo.v0.2.0 via replaces,skipRange',
      'foo.v0.3.1 via replaces',
    ]);
  });

  it('foo/beta: v0.3.0 is skipped by v0.3.1, so a pin on it is unreachable from v0.2.0', () => {
    const r = foo('foo.v0.2.0', 'foo.v0.3.0');
    expect(hops(r)).toBe('target-skipped');
    expect(r.ok ? '' : r.message).toContain('foo.v0.3.0 is skipped by foo.v0.3.1 in channel beta');
    expect(olmPath(r)).toEqual(['foo.v0.3.1 via replaces']);
    // Installed from the old catalog, foo.v0.3.0 moves on by foo.v0.3.1's skips.
    expect(hops(foo('foo.v0.3.0', 'foo.v0.3.1'))).toEqual(['foo.v0.3.1 via skips']);
  });

  it('foo/beta: an installed CSV the catalog no longer has, by its skips name and version', () => {
    // foo.v0.2.0 skips [foo.v0.1.1, foo.v0.1.2] and its skipRange <0.2.0 holds 0.1.1.
    expect(hops(foo('foo.v0.1.1', 'foo.v0.2.0', { fromVersion: '0.1.1' }))).toEqual([
      'foo.v0.2.0 via skips,skipRange',
    ]);
  });

  it('foo/beta: a skipRange jumps past v0.1.0', () => {
    // From 0.0.5: foo.v0.1.0 (skipRange <0.1.0) and foo.v0.2.0 (skipRange <0.2.0) are both candidates;
    // foo.v0.2.0 is nearer the head, so OLM never stops at foo.v0.1.0.
    const r = foo('foo.v0.0.5', 'foo.v0.1.0', { fromVersion: '0.0.5' });
    expect(hops(r)).toBe('jumped-past');
    expect(olmPath(r)).toEqual(['foo.v0.2.0 via skipRange', 'foo.v0.3.1 via replaces']);
    expect(r.ok ? '' : r.fix).toBe(
      'pin foo.v0.2.0, where OLM lands, or install foo.v0.1.0 fresh (startingCSV)',
    );
  });

  it('foo/beta: downgrade, unknown CSV, unknown channel, unknown package', () => {
    expect(hops(foo('foo.v0.3.1', 'foo.v0.2.0'))).toBe('downgrade');
    expect(hops(foo('foo.v0.3.1', 'foo.v0.4.0'))).toBe('target-not-in-channel');
    expect(
      hops(upgradePath(catalog, { package: 'foo', channel: 'alpha', from: undefined, to: 'foo.v0.1.0' })),
    ).toBe('unknown-channel');
    const r = upgradePath(catalog, { package: 'qux', channel: 'stable', from: undefined, to: 'qux.v1' });
    expect(hops(r)).toBe('unknown-package');
    expect(r.ok ? '' : r.fix).toBe('use one of: bar, baz, foo');
  });

  it('already at the target: no InstallPlan', () => {
    expect(hops(foo('foo.v0.3.1', 'foo.v0.3.1'))).toEqual([]);
  });
});

describe('registry-testdata-old', async () => {
  const catalog = await loadCatalogFixture('registry-testdata-old');
  const path = (pkg: string, channel: string, from: string | undefined, to: string, fromVersion?: string) =>
    upgradePath(catalog, { package: pkg, channel, from, to, ...(fromVersion ? { fromVersion } : {}) });

  it('bar/alpha (the default here): v0.1.0 -> v0.2.0', () => {
    // bar.v0.2.0: replaces bar.v0.1.0, skips [bar.v0.1.0], skipRange <0.2.0.
    expect(hops(path('bar', 'alpha', 'bar.v0.1.0', 'bar.v0.2.0'))).toEqual([
      'bar.v0.2.0 via replaces,skips,skipRange',
    ]);
  });

  it('baz/stable: the graph is the channel entries, not the CSV inside the bundle', () => {
    // Entry baz.v1.0.1: replaces baz.v1.0.0, skips [baz.v1.0.0], skipRange <1.0.0 (does not hold 1.0.0).
    // The embedded CSV says olm.skipRange <1.0.1 and no replaces; OLM reads the entry, and so do we.
    expect(hops(path('baz', 'stable', 'baz.v1.0.0', 'baz.v1.0.1'))).toEqual([
      'baz.v1.0.1 via replaces,skips',
    ]);
    // skipRange <1.0.0 holds 0.9.0.
    expect(hops(path('baz', 'stable', 'baz.v0.9.0', 'baz.v1.0.1', '0.9.0'))).toEqual([
      'baz.v1.0.1 via skipRange',
    ]);
    // baz.v1.0.0 (skipRange <1.0.0 too) is skipped by baz.v1.0.1: never offered.
    expect(hops(path('baz', 'stable', 'baz.v0.9.0', 'baz.v1.0.0', '0.9.0'))).toBe('target-skipped');
  });

  it('foo/beta: v0.1.0 -> v0.2.0 -> v0.3.0, and v0.2.0 -> v0.3.0 which the latest catalog no longer allows', () => {
    // foo.v0.2.0: replaces foo.v0.1.0, skipRange <0.2.0; foo.v0.3.0: replaces foo.v0.2.0 and is the head here.
    expect(hops(path('foo', 'beta', 'foo.v0.1.0', 'foo.v0.3.0'))).toEqual([
      'foo.v0.2.0 via replaces,skipRange',
      'foo.v0.3.0 via replaces',
    ]);
    expect(hops(path('foo', 'beta', 'foo.v0.2.0', 'foo.v0.3.0'))).toEqual(['foo.v0.3.0 via replaces']);
  });
});

describe('ecr-secret-operator', async () => {
  const catalog = await loadCatalogFixture('ecr-secret-operator');
  const ecr = (from: string | undefined, to: string) =>
    upgradePath(catalog, {
      package: 'ecr-secret-operator',
      channel: 'alpha',
      from: from && `ecr-secret-operator.${from}`,
      to: `ecr-secret-operator.${to}`,
    });
  const short = (r: UpgradePathResult) =>
    typeof hops(r) === 'string'
      ? hops(r)
      : (hops(r) as string[]).map((h) => h.replace('ecr-secret-operator.', ''));

  it('every older version goes to v0.5.0 in one hop', () => {
    // v0.5.0: replaces v0.4.1, skips [v0.4.0, v0.3.2]. It is the head and a candidate for all three.
    expect(short(ecr('v0.3.2', 'v0.5.0'))).toEqual(['v0.5.0 via skips']);
    // v0.4.1 replaces v0.4.0 as well, but v0.5.0 (skips v0.4.0) is nearer the head.
    expect(short(ecr('v0.4.0', 'v0.5.0'))).toEqual(['v0.5.0 via skips']);
    expect(short(ecr('v0.4.1', 'v0.5.0'))).toEqual(['v0.5.0 via replaces']);
  });

  it('skips jump past v0.4.1 from v0.3.2; v0.4.0 is never offered', () => {
    // From v0.3.2, v0.4.1 (skips v0.3.2) and v0.5.0 (skips v0.3.2) are candidates: v0.5.0 wins.
    const r = ecr('v0.3.2', 'v0.4.1');
    expect(short(r)).toBe('jumped-past');
    expect(r.ok ? '' : r.message).toBe(
      'OLM updates ecr-secret-operator.v0.3.2 straight to ecr-secret-operator.v0.5.0 (skips), the candidate nearest the head, which is past ecr-secret-operator.v0.4.1',
    );
    // v0.4.0 is skipped by v0.5.0 (v0.4.1 only replaces it).
    const skipped = ecr('v0.3.2', 'v0.4.0');
    expect(short(skipped)).toBe('target-skipped');
    expect(skipped.ok ? '' : skipped.message).toContain(
      'is skipped by ecr-secret-operator.v0.5.0 in channel alpha',
    );
  });

  it('v0.4.1 is reachable only as a fresh install; v0.5.0 -> v0.4.1 is a downgrade', () => {
    expect(short(ecr(undefined, 'v0.4.1'))).toEqual(['v0.4.1 via startingCSV']);
    expect(short(ecr('v0.5.0', 'v0.4.1'))).toBe('downgrade');
  });
});

describe('nfs-provisioner-operator', async () => {
  const catalog = await loadCatalogFixture('nfs-provisioner-operator');
  const nfs = (from: string | undefined, to: string) =>
    upgradePath(catalog, { package: 'nfs-provisioner-operator', channel: 'alpha', from, to });

  it('v0.0.8 -> v0.0.9 by replaces', () => {
    // nfs-provisioner-operator.v0.0.9: replaces nfs-provisioner-operator.v0.0.8.
    expect(hops(nfs('nfs-provisioner-operator.v0.0.8', 'nfs-provisioner-operator.v0.0.9'))).toEqual([
      'nfs-provisioner-operator.v0.0.9 via replaces',
    ]);
    expect(hops(nfs(undefined, 'nfs-provisioner-operator.v0.0.8'))).toEqual([
      'nfs-provisioner-operator.v0.0.8 via startingCSV',
    ]);
    expect(hops(nfs('nfs-provisioner-operator.v0.0.9', 'nfs-provisioner-operator.v0.0.8'))).toBe('downgrade');
  });
});

describe('kepler-operator', async () => {
  const catalog = await loadCatalogFixture('kepler-operator');
  const k = (v: string) => `kepler-operator.${v}`;
  const kepler = (from: string | undefined, to: string, c = catalog) =>
    upgradePath(c, { package: 'kepler-operator', channel: 'alpha', from: from && k(from), to: k(to) });

  it('v0.20.0 -> v0.24.0 in four InstallPlans: a skip, then the replaces chain', () => {
    // v0.21.0 skips [v0.20.0] (no replaces); v0.22.0 replaces v0.21.0; v0.23.0 replaces v0.22.0; v0.24.0 replaces v0.23.0.
    expect(hops(kepler('v0.20.0', 'v0.24.0'))).toEqual([
      'kepler-operator.v0.21.0 via skips',
      'kepler-operator.v0.22.0 via replaces',
      'kepler-operator.v0.23.0 via replaces',
      'kepler-operator.v0.24.0 via replaces',
    ]);
    expect(hops(kepler('v0.21.0', 'v0.23.0'))).toEqual([
      'kepler-operator.v0.22.0 via replaces',
      'kepler-operator.v0.23.0 via replaces',
    ]);
    expect(hops(kepler(undefined, 'v0.20.0'))).toEqual(['kepler-operator.v0.20.0 via startingCSV']);
    expect(hops(kepler('v0.22.0', 'v0.20.0'))).toBe('downgrade');
  });

  it('a derived variant: a skipRange on the head jumps past v0.23.0', async () => {
    // Derived in the test: the head kepler-operator.v0.24.0 gains skipRange ">=0.21.0 <0.24.0".
    const text = (await readFixture('catalogs/kepler-operator.yaml')).replace(
      '- name: kepler-operator.v0.24.0\n  replaces: kepler-operator.v0.23.0\n',
      '- name: kepler-operator.v0.24.0\n  replaces: kepler-operator.v0.23.0\n  skipRange: ">=0.21.0 <0.24.0"\n',
    );
    const variant = parseCatalog([{ path: catalogFixturePath('kepler-operator'), text }]);
    const r = kepler('v0.21.0', 'v0.23.0', variant);
    expect(hops(r)).toBe('jumped-past');
    expect(olmPath(r)).toEqual(['kepler-operator.v0.24.0 via skipRange']);
    // v0.20.0 is below the range: it still takes v0.21.0 first (v0.21.0 skips it), then jumps.
    expect(hops(kepler('v0.20.0', 'v0.24.0', variant))).toEqual([
      'kepler-operator.v0.21.0 via skips',
      'kepler-operator.v0.24.0 via skipRange',
    ]);
  });
});

describe('odd input', async () => {
  const catalog = await loadCatalogFixture('nfs-provisioner-operator');
  it('an invalid fromVersion does not throw, it just matches no skipRange', () => {
    const r = upgradePath(catalog, {
      package: 'nfs-provisioner-operator',
      channel: 'alpha',
      from: 'nfs-provisioner-operator.v0.0.1',
      fromVersion: 'v-not-semver',
      to: 'nfs-provisioner-operator.v0.0.9',
    });
    expect(r.ok ? 'ok' : r.reason).toBe('no-update-edge');
  });

  it('a channel with two heads is invalid-channel', async () => {
    // Derived: nfs-provisioner-operator.v0.0.9 loses its replaces, leaving two entries nothing replaces.
    const text = (await readFixture('catalogs/nfs-provisioner-operator.yaml')).replace(
      '  replaces: nfs-provisioner-operator.v0.0.8\n',
      '',
    );
    const broken = parseCatalog([{ path: 'nfs.yaml', text }]);
    const r = upgradePath(broken, {
      package: 'nfs-provisioner-operator',
      channel: 'alpha',
      from: undefined,
      to: 'nfs-provisioner-operator.v0.0.9',
    });
    expect(r.ok ? 'ok' : r.reason).toBe('invalid-channel');
    expect(r.ok ? '' : r.message).toContain('2 channel heads');
  });
});
