import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { K8sObject } from '../../../src/core/object.js';
import { clusterOperatorHealth, clusterVersionHealth } from '../../../src/health/index.js';
import { PATHS, deleteOptional, objectPath } from '../../../src/dev/simulators/api.js';
import {
  createClusterOperators,
  installClusterVersion,
  setClusterOperatorCondition,
} from '../../../src/dev/simulators/cvo-install.js';
import { CvoSimulator, type ClusterVersionStatus } from '../../../src/dev/simulators/cvo.js';
import { useCluster } from '../../harness/cluster.js';
import { fixtureObject, fixtureObjects } from '../../harness/fixtures.js';
import { fixtureUpdateService, get, keysOf, writes } from './helpers.js';

const cluster = useCluster({ namespacePrefix: 'gw-cvo' });

const updateService = fixtureUpdateService('stable-4.8.json', 'stable-4.9.json');

let cvName = '';
afterEach(async () => {
  // Owned ClusterOperators go with it (garbage collector).
  if (cvName) await deleteOptional(cluster.client, objectPath(PATHS.clusterVersions, cvName));
});

/** A ClusterVersion at 4.8.14 in stable-4.9 with some real ClusterOperators (renamed per test: they are cluster-scoped). */
async function install(operators: readonly string[]): Promise<{ cvo: CvoSimulator; path: string }> {
  cvName = `version-${randomBytes(3).toString('hex')}`;
  const cv = await installClusterVersion(cluster.client, {
    name: cvName,
    version: '4.8.14',
    channel: 'stable-4.9',
    updateService,
  });
  const templates = fixtureObjects('cluster-state/not-upgrading/co.yaml').filter((co) =>
    operators.includes(co.metadata.name),
  );
  await createClusterOperators(cluster.client, { clusterVersion: cv, version: '4.8.14', templates });
  return {
    cvo: new CvoSimulator(cluster.client, { name: cvName, updateService, updateTicks: 3 }),
    path: objectPath(PATHS.clusterVersions, cvName),
  };
}

const statusOf = (cv: K8sObject) => cv.status as ClusterVersionStatus;
const conditionOf = (cv: K8sObject, type: string) => statusOf(cv).conditions.find((c) => c.type === type);
const setDesired = (path: string, desiredUpdate: object) =>
  cluster.client.request('PATCH', path, {
    body: { spec: { desiredUpdate } },
    contentType: 'application/merge-patch+json',
  });

describe('CvoSimulator', () => {
  it('lists updates from the graph and walks a desiredUpdate from Partial to Completed', async () => {
    const { cvo, path } = await install(['etcd', 'kube-apiserver']);
    await cvo.tick();
    let cv = await get(cluster.client, path);
    expect(clusterVersionHealth(cv)).toMatchObject({ status: 'Healthy', reason: 'AtDesiredVersion' });
    const real = fixtureObject('cluster-state/not-upgrading/cv.yaml');
    expect(keysOf(cv.status)).toEqual(keysOf(real.status));
    expect(statusOf(cv).conditions.map((c) => c.type)).toEqual(statusOf(real).conditions.map((c) => c.type));
    const updates = statusOf(cv).availableUpdates ?? [];
    expect(updates.map((u) => u.version)).toContain('4.9.28');
    expect(updates[0]?.version).toBe('4.9.53'); // newest first
    expect(keysOf(updates[0])).toEqual(['channels', 'image', 'url', 'version']);
    expect(conditionOf(cv, 'RetrievedUpdates')).toMatchObject({ status: 'True' });

    await setDesired(path, { version: '4.9.28' });
    await cvo.tick();
    cv = await get(cluster.client, path);
    const [partial, installed] = statusOf(cv).history;
    expect(partial).toMatchObject({
      state: 'Partial',
      version: '4.9.28',
      completionTime: null,
      verified: true,
    });
    expect(keysOf(partial)).toEqual(
      keysOf(statusOf(fixtureObject('cluster-state/4.14.1-paused-worker-pool/cv.yaml')).history[0]),
    );
    expect(installed).toMatchObject({ state: 'Completed', version: '4.8.14' });
    expect(statusOf(cv).desired.version).toBe('4.9.28');
    expect(conditionOf(cv, 'Progressing')).toMatchObject({
      status: 'True',
      message: 'Working towards 4.9.28',
    });
    expect(conditionOf(cv, 'ReleaseAccepted')).toMatchObject({ status: 'True', reason: 'PayloadLoaded' });
    expect(clusterVersionHealth(cv)).toMatchObject({ status: 'Progressing', reason: 'Updating' });

    await cvo.tick();
    cv = await get(cluster.client, path);
    expect(conditionOf(cv, 'Progressing')?.message).toBe(
      'Working towards 4.9.28: 286 of 859 done (33% complete)',
    );
    await cvo.tick();
    await cvo.tick();
    cv = await get(cluster.client, path);
    expect(statusOf(cv).history[0]).toMatchObject({
      state: 'Completed',
      version: '4.9.28',
      completionTime: expect.any(String),
    });
    expect(conditionOf(cv, 'Progressing')).toMatchObject({
      status: 'False',
      message: 'Cluster version is 4.9.28',
    });
    expect(conditionOf(cv, 'Available')).toMatchObject({ status: 'True', message: 'Done applying 4.9.28' });
    expect(clusterVersionHealth(cv)).toMatchObject({ status: 'Healthy', reason: 'AtDesiredVersion' });
    const etcd = await get(cluster.client, objectPath(PATHS.clusterOperators, 'etcd'));
    expect((etcd.status as { versions: { name: string; version: string }[] }).versions).toEqual([
      { name: 'raw-internal', version: '4.9.28' },
      { name: 'etcd', version: '4.9.28' },
      { name: 'operator', version: '4.9.28' },
    ]);
    expect(clusterOperatorHealth(etcd)).toMatchObject({ status: 'Healthy', message: 'available at 4.9.28' });

    const before = writes(cluster.client);
    await cvo.tick();
    expect(writes(cluster.client)).toBe(before);
  });

  it('refuses a minor update while a ClusterOperator is Upgradeable=False, and takes a patch update', async () => {
    const { cvo, path } = await install(['machine-config', 'kube-scheduler']);
    await setClusterOperatorCondition(cluster.client, 'machine-config', {
      type: 'Upgradeable',
      status: 'False',
      reason: 'PoolUpdating',
      message: 'One or more machine config pools are updating, please see `oc get mcp` for further details',
    });
    await setDesired(path, { version: '4.9.28' });
    await cvo.tick();
    await cvo.tick(); // a blocked update stays blocked
    const cv = await get(cluster.client, path);
    const upgradeable =
      'Cluster operator machine-config should not be upgraded between minor versions: One or more machine config pools are updating, please see `oc get mcp` for further details';
    expect(conditionOf(cv, 'Upgradeable')).toMatchObject({
      status: 'False',
      reason: 'PoolUpdating',
      message: upgradeable,
    });
    const image = statusOf(cv).availableUpdates?.find((u) => u.version === '4.9.28')?.image;
    expect(conditionOf(cv, 'ReleaseAccepted')).toMatchObject({
      status: 'False',
      reason: 'PreconditionChecks',
      message: `Preconditions failed for payload loaded version="4.9.28" image="${image}": Precondition "ClusterVersionUpgradeable" failed because of "PoolUpdating": ${upgradeable}`,
    });
    expect(statusOf(cv).history).toHaveLength(1);
    expect(statusOf(cv).desired.version).toBe('4.8.14');
    expect(clusterVersionHealth(cv)).toMatchObject({ status: 'Degraded', reason: 'ReleaseNotAccepted' });

    await setDesired(path, { version: '4.8.15' });
    await cvo.tick();
    const patched = await get(cluster.client, path);
    expect(statusOf(patched).history[0]).toMatchObject({ state: 'Partial', version: '4.8.15' });
    expect(conditionOf(patched, 'ReleaseAccepted')).toMatchObject({
      status: 'True',
      reason: 'PayloadLoaded',
    });
  });

  it('marks a version that is not an available update Invalid, as the CVO does, without touching history', async () => {
    const { cvo, path } = await install(['dns']);
    await cvo.tick();
    await setDesired(path, { version: '4.9.99' });
    await cvo.tick();
    const cv = await get(cluster.client, path);
    expect(conditionOf(cv, 'Invalid')).toMatchObject({
      status: 'True',
      reason: 'InvalidClusterVersion',
      message:
        'The cluster version is invalid: spec.desiredUpdate.version: Invalid value: "4.9.99": when image is empty the update must be an available update',
    });
    expect(conditionOf(cv, 'Progressing')).toMatchObject({
      status: 'False',
      message: 'Stopped at 4.8.14: the cluster version is invalid',
    });
    expect(statusOf(cv).history).toHaveLength(1);
  });

  it('lists conditional updates with their risks and Recommended condition', async () => {
    cvName = `version-${randomBytes(3).toString('hex')}`;
    await installClusterVersion(cluster.client, {
      name: cvName,
      version: '4.7.0',
      channel: 'stable-4.8',
      updateService,
    });
    const path = objectPath(PATHS.clusterVersions, cvName);
    await new CvoSimulator(cluster.client, { name: cvName, updateService }).tick();
    const cv = await get(cluster.client, path);
    const conditional = statusOf(cv).conditionalUpdates ?? [];
    const real =
      statusOf(fixtureObject('cluster-state/4.14.1-paused-worker-pool/cv.yaml')).conditionalUpdates ?? [];
    expect(conditional.map((u) => u.release.version)).toEqual(['4.7.4']);
    expect(keysOf(conditional[0])).toEqual(keysOf(real[0]));
    expect(keysOf(conditional[0]?.risks[0])).toEqual(keysOf(real[0]?.risks[0]));
    expect(conditional[0]?.conditions[0]).toMatchObject({
      type: 'Recommended',
      status: 'True',
      reason: 'AsExpected',
    });
    expect(statusOf(cv).availableUpdates?.map((u) => u.version)).toContain('4.7.4');

    await new CvoSimulator(cluster.client, {
      name: cvName,
      updateService,
      riskApplies: (risk) => risk.name === 'VSphereNodeNameChanges',
    }).tick();
    const exposed = await get(cluster.client, path);
    expect(statusOf(exposed).conditionalUpdates?.[0]?.conditions[0]).toMatchObject({
      status: 'False',
      reason: 'VSphereNodeNameChanges',
    });
    expect(statusOf(exposed).availableUpdates?.map((u) => u.version) ?? []).not.toContain('4.7.4');
  });
});
