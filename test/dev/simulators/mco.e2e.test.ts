import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { K8sObject } from '../../../src/core/object.js';
import { machineConfigPoolHealth } from '../../../src/health/index.js';
import { PATHS, deleteOptional, list, mergePatch, objectPath } from '../../../src/dev/simulators/api.js';
import type { PoolStatus } from '../../../src/dev/simulators/mco-pool-status.js';
import { McoSimulator } from '../../../src/dev/simulators/mco.js';
import { useCluster } from '../../harness/cluster.js';
import { fixtureObjects } from '../../harness/fixtures.js';
import { get, keysOf, writes } from './helpers.js';

const cluster = useCluster({ namespacePrefix: 'gw-mco' });
const ROLE = 'machineconfiguration.openshift.io/role';

let pool = '';
let created: string[] = [];
afterEach(async () => {
  // Cluster-scoped: clean up by hand. Rendered configs go with the pool (garbage collector).
  for (const mc of created) await deleteOptional(cluster.client, objectPath(PATHS.machineConfigs, mc));
  if (pool) await deleteOptional(cluster.client, objectPath(PATHS.machineConfigPools, pool));
  created = [];
});

function file(path: string, source = 'data:,hello'): object {
  return { path, mode: 420, overwrite: true, contents: { source } };
}

async function machineConfig(name: string, config: unknown): Promise<void> {
  await cluster.client.request('POST', PATHS.machineConfigs, {
    body: {
      apiVersion: 'machineconfiguration.openshift.io/v1',
      kind: 'MachineConfig',
      metadata: { name, labels: { [ROLE]: pool } },
      spec: { config },
    },
  });
  created.push(name);
}

/** A pool derived from the real worker pool of the dumps, selecting this test's role; 3 nodes, maxUnavailable 1. */
async function setup(): Promise<{ mco: McoSimulator; path: string }> {
  pool = `gw${randomBytes(3).toString('hex')}`;
  const worker = fixtureObjects('cluster-state/not-upgrading/mcp.yaml').find(
    (p) => p.metadata.name === 'worker',
  ) as K8sObject;
  const spec = worker.spec as Record<string, unknown>;
  await machineConfig(`00-${pool}`, {
    ignition: { version: '3.2.0' },
    storage: { files: [file('/etc/gw/base')] },
  });
  await cluster.client.request('POST', PATHS.machineConfigPools, {
    body: {
      apiVersion: 'machineconfiguration.openshift.io/v1',
      kind: 'MachineConfigPool',
      metadata: { name: pool, labels: { [`pools.operator.machineconfiguration.openshift.io/${pool}`]: '' } },
      spec: {
        ...spec,
        configuration: undefined,
        machineConfigSelector: { matchLabels: { [ROLE]: pool } },
        maxUnavailable: 1,
        paused: false,
      },
    },
  });
  return {
    mco: new McoSimulator(cluster.client, { pools: [pool], nodes: { [pool]: 3 }, releaseVersion: '4.14.1' }),
    path: objectPath(PATHS.machineConfigPools, pool),
  };
}

const statusOf = (p: K8sObject) => p.status as PoolStatus;
const condition = (p: K8sObject, type: string) => statusOf(p).conditions.find((c) => c.type === type);
const target = (p: K8sObject) => (p.spec as { configuration: { name: string } }).configuration.name;

describe('McoSimulator', () => {
  it('renders a pool like the MCO and reports it Updated in the shape of a real pool', async () => {
    const { mco, path } = await setup();
    await mco.tick();
    const p = await get(cluster.client, path);
    expect(target(p)).toMatch(new RegExp(`^rendered-${pool}-[0-9a-f]{32}$`));
    expect((p.spec as { configuration: { source: unknown[] } }).configuration.source).toEqual([
      { apiVersion: 'machineconfiguration.openshift.io/v1', kind: 'MachineConfig', name: `00-${pool}` },
    ]);
    const real = fixtureObjects('cluster-state/not-upgrading/mcp.yaml').find(
      (x) => x.metadata.name === 'worker',
    ) as K8sObject;
    expect(keysOf(p.status)).toEqual(keysOf(real.status));
    expect(statusOf(p).conditions.map((c) => c.type)).toEqual(statusOf(real).conditions.map((c) => c.type));
    expect(statusOf(p).conditions.map(keysOf)).toEqual(statusOf(real).conditions.map(keysOf));
    expect(statusOf(p)).toMatchObject({
      machineCount: 3,
      updatedMachineCount: 3,
      readyMachineCount: 3,
      unavailableMachineCount: 0,
      degradedMachineCount: 0,
    });
    expect(statusOf(p).configuration).toEqual({ name: target(p) });
    expect(condition(p, 'Updated')).toMatchObject({
      status: 'True',
      message: `All nodes are updated with MachineConfig ${target(p)}`,
      reason: '',
    });
    expect(machineConfigPoolHealth(p)).toMatchObject({ status: 'Healthy', reason: 'Updated' });

    const rendered = await get(cluster.client, objectPath(PATHS.machineConfigs, target(p)));
    expect(rendered.metadata.annotations).toEqual({
      'machineconfiguration.openshift.io/generated-by-controller-version':
        '5ac7b4ae0bca76358e4d40f546306775a8e0ea2c',
      'machineconfiguration.openshift.io/release-image-version': '4.14.1',
    });
    expect(rendered.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'machineconfiguration.openshift.io/v1',
        blockOwnerDeletion: true,
        controller: true,
        kind: 'MachineConfigPool',
        name: pool,
        uid: p.metadata.uid,
      },
    ]);

    const before = writes(cluster.client);
    await mco.tick();
    expect(writes(cluster.client)).toBe(before);
  });

  it('rolls a pool with maxUnavailable 1 node by node, and holds while paused', async () => {
    const { mco, path } = await setup();
    await mco.tick();
    const first = target(await get(cluster.client, path));

    await machineConfig(`99-${pool}-extra`, {
      ignition: { version: '3.2.0' },
      storage: { files: [file('/etc/gw/extra')] },
    });
    const seen: [number, number][] = [];
    for (let i = 0; i < 4; i++) {
      await mco.tick();
      const p = await get(cluster.client, path);
      seen.push([statusOf(p).updatedMachineCount, statusOf(p).unavailableMachineCount]);
      if (i === 0) {
        expect(target(p)).not.toBe(first);
        expect(condition(p, 'Updating')).toMatchObject({
          status: 'True',
          message: `All nodes are updating to MachineConfig ${target(p)}`,
        });
        expect(statusOf(p).configuration?.name).toBe(first);
        expect(machineConfigPoolHealth(p)).toMatchObject({ status: 'Progressing', reason: 'Updating' });
      }
    }
    expect(seen).toEqual([
      [0, 1],
      [1, 1],
      [2, 1],
      [3, 0],
    ]);
    const rolled = await get(cluster.client, path);
    expect(statusOf(rolled).configuration?.name).toBe(target(rolled));
    expect(machineConfigPoolHealth(rolled)).toMatchObject({ status: 'Healthy' });

    await mergePatch(cluster.client, path, { spec: { paused: true } });
    await machineConfig(`99-${pool}-paused`, {
      ignition: { version: '3.2.0' },
      storage: { files: [file('/etc/gw/paused')] },
    });
    await mco.tick();
    await mco.tick();
    const paused = await get(cluster.client, path);
    expect(statusOf(paused)).toMatchObject({ updatedMachineCount: 0, unavailableMachineCount: 0 });
    expect(condition(paused, 'Updating')).toMatchObject({
      status: 'False',
      message: `Pool is paused; will not update to MachineConfig ${target(paused)}`,
    });
    expect(machineConfigPoolHealth(paused)).toMatchObject({ status: 'Suspended', reason: 'Paused' });
    const before = writes(cluster.client);
    await mco.tick();
    expect(writes(cluster.client)).toBe(before);

    await mergePatch(cluster.client, path, { spec: { paused: false } });
    await mco.tick();
    expect(statusOf(await get(cluster.client, path))).toMatchObject({
      updatedMachineCount: 0,
      unavailableMachineCount: 1,
    });
  });

  it('reports RenderDegraded with the MCO message for a config without an Ignition version or with a bad file source', async () => {
    const { mco, path } = await setup();
    await mco.tick();
    const good = target(await get(cluster.client, path));
    await machineConfig(`50-${pool}-broken`, { storage: { files: [file('/etc/gw/broken')] } });
    await mco.tick();
    let p = await get(cluster.client, path);
    expect(condition(p, 'RenderDegraded')).toMatchObject({
      status: 'True',
      reason: '',
      message: `Failed to render configuration for pool ${pool}: could not generate rendered MachineConfig: parsing Ignition config failed: invalid version. Supported spec versions: 2.2,3.0,3.1,3.2,3.3,3.4`,
    });
    expect(condition(p, 'Degraded')).toMatchObject({ status: 'True', message: '' });
    expect(target(p)).toBe(good);
    expect(machineConfigPoolHealth(p)).toMatchObject({ status: 'Degraded', reason: 'RenderDegraded' });

    await cluster.client.request('PUT', objectPath(PATHS.machineConfigs, `50-${pool}-broken`), {
      body: {
        ...(await get(cluster.client, objectPath(PATHS.machineConfigs, `50-${pool}-broken`))),
        spec: {
          config: {
            ignition: { version: '3.2.0' },
            storage: { files: [file('/etc/gw/broken', 'file:///etc/motd')] },
          },
        },
      },
    });
    await mco.tick();
    p = await get(cluster.client, path);
    expect(condition(p, 'RenderDegraded')?.message).toMatch(
      /could not generate rendered MachineConfig: parsing Ignition config spec v3 failed with error: config is not valid\nReport: error at \$\.storage\.files\.0\.contents\.source, line 1 col \d+: invalid url scheme\n$/,
    );
  });

  it('reports NodeDegraded when a node fails, and stops rolling past it', async () => {
    const { mco, path } = await setup();
    await mco.tick();
    await machineConfig(`99-${pool}-extra`, {
      ignition: { version: '3.2.0' },
      storage: { files: [file('/etc/gw/extra')] },
    });
    await mco.tick();
    mco.degradeNode(pool, 'failed to drain node: timed out');
    await mco.tick();
    await mco.tick();
    const p = await get(cluster.client, path);
    expect(condition(p, 'NodeDegraded')).toMatchObject({
      status: 'True',
      reason: '1 nodes are reporting degraded status on sync',
      message: `Node ${pool}-0 is reporting: "failed to drain node: timed out"`,
    });
    expect(statusOf(p)).toMatchObject({
      degradedMachineCount: 1,
      updatedMachineCount: 0,
      unavailableMachineCount: 1,
    });
    expect(machineConfigPoolHealth(p)).toMatchObject({ status: 'Degraded', reason: 'NodeDegraded' });

    mco.recoverNode(pool);
    await mco.tick();
    const recovered = await get(cluster.client, path);
    expect(condition(recovered, 'NodeDegraded')).toMatchObject({ status: 'False' });
    expect(statusOf(recovered)).toMatchObject({ degradedMachineCount: 0, updatedMachineCount: 1 });
    expect(
      (await list(cluster.client, PATHS.machineConfigs)).filter((mc) =>
        mc.metadata.name.startsWith(`rendered-${pool}-`),
      ),
    ).toHaveLength(2);
  });
});
