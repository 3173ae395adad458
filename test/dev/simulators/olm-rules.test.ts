import { describe, expect, it } from 'vitest';
import { loadSimulatorCatalog, syntheticCatalog } from '../../../src/dev/simulators/olm-catalog.js';
import { nextCsvStatus } from '../../../src/dev/simulators/olm-csv.js';
import { resolveSubscription } from '../../../src/dev/simulators/olm-resolve.js';
import {
  withCatalogHealth,
  withCsvState,
  withInstallPlanState,
} from '../../../src/dev/simulators/olm-subscription-status.js';
import { fixtureObject, fixturePath } from '../../harness/fixtures.js';

const sub = {
  name: 'foo',
  package: 'foo',
  channel: 'beta',
  source: 'cs',
  sourceNamespace: 'ns',
  startingCSV: undefined,
};

describe('resolveSubscription', () => {
  it('installs the head, or startingCSV, and updates to the candidate nearest the head', async () => {
    const served = await loadSimulatorCatalog(fixturePath('catalogs/registry-testdata-latest.yaml'));
    expect(resolveSubscription(sub, served, undefined)).toMatchObject({
      kind: 'resolved',
      operator: { csv: 'foo.v0.3.1' },
    });
    expect(resolveSubscription({ ...sub, startingCSV: 'foo.v0.1.0' }, served, undefined)).toMatchObject({
      operator: { csv: 'foo.v0.1.0' },
    });
    expect(resolveSubscription(sub, served, { csv: 'foo.v0.1.0', version: '0.1.0' })).toMatchObject({
      operator: {
        csv: 'foo.v0.2.0',
        replaces: 'foo.v0.1.0',
        ownedCRDs: [{ group: 'test.foo', kind: 'Foo', plural: 'foos', versions: ['v1'] }],
      },
    });
    // v0.3.1 replaces v0.2.0 and skips v0.3.0: OLM goes there, past v0.3.0.
    expect(resolveSubscription(sub, served, { csv: 'foo.v0.2.0', version: '0.2.0' })).toMatchObject({
      operator: { csv: 'foo.v0.3.1' },
    });
    expect(resolveSubscription(sub, served, { csv: 'foo.v0.3.1', version: '0.3.1' })).toEqual({
      kind: 'installed',
      csv: 'foo.v0.3.1',
    });
  });

  it('fails with OLM messages', async () => {
    const served = syntheticCatalog([
      { package: 'foo', channel: 'beta', csvs: [{ name: 'foo.v1', version: '1.0.0' }] },
    ]);
    expect(resolveSubscription(sub, undefined, undefined)).toEqual({
      kind: 'failed',
      reason: 'no operators found from catalog cs in namespace ns referenced by subscription foo',
    });
    expect(resolveSubscription({ ...sub, channel: 'alpha' }, served, undefined)).toEqual({
      kind: 'failed',
      reason:
        'no operators found in channel alpha of package foo in the catalog referenced by subscription foo',
    });
    expect(resolveSubscription({ ...sub, startingCSV: 'foo.v9' }, served, undefined)).toEqual({
      kind: 'failed',
      reason:
        'no operators found with name foo.v9 in channel beta of package foo in the catalog referenced by subscription foo',
    });
  });

  it('reads owned CRD plurals from bundle CRD objects', async () => {
    const served = await loadSimulatorCatalog(fixturePath('catalogs/registry-testdata-latest.yaml'));
    expect(served.ownedCRDs.get('bar.v1.0.0')).toEqual([
      { group: 'test.bar', kind: 'Bar', plural: 'bars', versions: ['v1', 'v1alpha1'] },
    ]);
  });
});

describe('Subscription status transitions', () => {
  const ref = {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'CatalogSource',
    name: 'cs',
    namespace: 'ns',
    resourceVersion: '1',
    uid: 'u1',
  };
  const health = [{ catalogSourceRef: ref, healthy: true, lastUpdated: 't1' }];

  it('says CatalogSourcesAdded first, then settles on AllCatalogSourcesHealthy, as real dumps show', () => {
    const first = withCatalogHealth({}, { source: 'cs', sourceNamespace: 'ns' }, health, 't1');
    expect(first.conditions).toEqual([
      {
        type: 'CatalogSourcesUnhealthy',
        status: 'False',
        reason: 'CatalogSourcesAdded',
        message: 'all available catalogsources are healthy',
        lastTransitionTime: 't1',
      },
    ]);
    const second = withCatalogHealth(first, { source: 'cs', sourceNamespace: 'ns' }, health, 't2');
    expect(second.conditions?.[0]).toMatchObject({ reason: 'AllCatalogSourcesHealthy' });
    expect(withCatalogHealth(second, { source: 'cs', sourceNamespace: 'ns' }, health, 't3')).toBe(second);
    expect(
      withCatalogHealth(second, { source: 'gone', sourceNamespace: 'ns' }, health, 't3').conditions?.[0],
    ).toMatchObject({
      status: 'True',
      reason: 'UnhealthyCatalogSourceFound',
      message: 'targeted catalogsource ns/gone missing',
    });
  });

  it('projects the InstallPlan phase and a missing plan', () => {
    const pending = {
      installPlanRef: { ...ref, kind: 'InstallPlan', name: 'install-abcde' },
      state: 'UpgradePending',
      currentCSV: 'a.v1',
    };
    expect(
      withInstallPlanState(pending, { phase: 'RequiresApproval', conditions: [] }, 't').conditions,
    ).toEqual([
      { type: 'InstallPlanPending', status: 'True', reason: 'RequiresApproval', lastTransitionTime: 't' },
    ]);
    expect(withInstallPlanState(pending, undefined, 't')).toEqual({});
    const installed = { ...pending, state: 'AtLatestKnown' };
    expect(withInstallPlanState(installed, undefined, 't').conditions).toEqual([
      {
        type: 'InstallPlanMissing',
        status: 'True',
        reason: 'ReferencedInstallPlanNotFound',
        lastTransitionTime: 't',
      },
    ]);
    expect(withCsvState(pending, true)).toMatchObject({ state: 'AtLatestKnown', installedCSV: 'a.v1' });
  });

  it('walks a CSV through OLM phases to Succeeded, and a replaced one to deletion', () => {
    const csv = {
      apiVersion: 'operators.coreos.com/v1alpha1',
      kind: 'ClusterServiceVersion',
      metadata: { name: 'a.v1' },
      spec: {},
    };
    const phases: string[] = [];
    let current = { ...csv } as typeof csv & { status?: unknown };
    for (let i = 0; i < 4; i++) {
      const next = nextCsvStatus(current, { replacement: undefined, crds: new Map(), now: 't' });
      if (next === 'delete') throw new Error('unexpected delete');
      phases.push(String(next.phase));
      current = { ...current, status: next };
    }
    expect(phases).toEqual(['Pending', 'InstallReady', 'Installing', 'Succeeded']);
    const newer = { ...csv, metadata: { name: 'a.v2' }, status: { phase: 'Succeeded' } };
    const replacing = nextCsvStatus(current, { replacement: newer, crds: new Map(), now: 't' });
    expect(replacing).toMatchObject({
      phase: 'Replacing',
      reason: 'BeingReplaced',
      message: 'being replaced by csv: a.v2',
    });
    const deleting = nextCsvStatus(
      { ...current, status: replacing },
      { replacement: newer, crds: new Map(), now: 't' },
    );
    expect(deleting).toMatchObject({ phase: 'Deleting', reason: 'Replaced' });
    expect(
      nextCsvStatus({ ...current, status: deleting }, { replacement: newer, crds: new Map(), now: 't' }),
    ).toBe('delete');
  });

  it('matches the fixture message for a missing catalog source', () => {
    const real = fixtureObject('health/subscription/resolution_failed.yaml');
    const cond = (real.status as { conditions: { type: string; message: string }[] }).conditions.find(
      (c) => c.type === 'ResolutionFailed',
    );
    const got = resolveSubscription(
      {
        name: 'openshift-gitops123-operator',
        package: 'openshift-gitops123-operator',
        channel: 'stable',
        source: 'redhat-operators66',
        sourceNamespace: 'openshift-marketplace',
        startingCSV: undefined,
      },
      undefined,
      undefined,
    );
    expect(
      got.kind === 'failed'
        ? `constraints not satisfiable: ${got.reason}, subscription openshift-gitops123-operator exists`
        : '',
    ).toBe(cond?.message.replace(/\s+/g, ' '));
  });
});
