import { CLUSTER_OPERATORS_4_14 } from '../../src/dev/simulators/cvo-install.js';
import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../src/core/object.js';
import { assessClusterUpdate } from '../../src/health/cluster-update.js';
import { assessHealth } from '../../src/health/index.js';
import type { HealthStatus } from '../../src/health/types.js';
import { scenario, variant } from './helpers.js';

/** `name → status/reason` of each object's own verdict. */
const own = (list: K8sObject[]) =>
  Object.fromEntries(
    list.map((o) => [o.metadata.name, `${assessHealth(o).status}/${assessHealth(o).reason}`]),
  );

/** Names of the objects whose update-view verdict is `status/reason`. */
const inView = (objects: { subject: string; status: HealthStatus; reason: string }[], key: string) =>
  objects.filter((o) => `${o.status}/${o.reason}` === key).map((o) => o.subject);

// The 33 ClusterOperators of the 4.14 dumps (cluster-state/*/co.yaml).
const ALL_OPERATORS = [...CLUSTER_OPERATORS_4_14];
const allHealthy = Object.fromEntries(ALL_OPERATORS.map((n) => [n, 'Healthy/OperatorAvailable']));
const co = (names: string[]) => names.map((n) => `ClusterOperator/${n}`);

// Read from the fixtures by hand: in the paused scenario only these four operators report 4.14.1.
const AT_4_14_1 = ['config-operator', 'etcd', 'kube-apiserver', 'kube-controller-manager'];

describe('cluster-state/not-upgrading', () => {
  const s = scenario('not-upgrading');

  it('judges each object on its own', () => {
    expect(assessHealth(s.clusterVersion)).toEqual({
      status: 'Healthy',
      reason: 'AtDesiredVersion',
      message: 'Cluster version is 4.14.1',
    });
    expect(own(s.clusterOperators)).toEqual(allHealthy);
    expect(own(s.machineConfigPools)).toEqual({ master: 'Healthy/Updated', worker: 'Healthy/Updated' });
    expect(new Set(s.machineConfigs.map((mc) => assessHealth(mc).status))).toEqual(new Set(['Healthy']));
  });

  it('is an idle, healthy cluster', () => {
    const u = assessClusterUpdate(s);
    expect([u.verdict.status, u.verdict.reason, u.target, u.from, u.updating]).toEqual([
      'Healthy',
      'AtDesiredVersion',
      '4.14.1',
      '4.14.1',
      false,
    ]);
    expect(u.verdict.message).toBe(
      'the cluster runs 4.14.1: 33 cluster operators available, 2 machine config pools updated',
    );
    expect(u.objects.every((o) => o.status === 'Healthy')).toBe(true);
    expect(u.objects).toHaveLength(36);
  });
});

describe('cluster-state/not-upgrading, with a pool that cannot be read', () => {
  const s = scenario('not-upgrading');
  const pools = s.machineConfigPools.map((p) =>
    p.metadata.name === 'worker'
      ? variant(p, (w) => ((w.status as Record<string, unknown>).machineCount = '3'))
      : p,
  );

  it('shows that pool as Unknown, naming the field, instead of reading its count as 0', () => {
    const u = assessClusterUpdate({ ...s, machineConfigPools: pools });
    expect(u.objects.find((o) => o.subject === 'MachineConfigPool/worker')).toMatchObject({
      status: 'Unknown',
      reason: 'InvalidObject',
      message: expect.stringContaining('status.machineCount'),
    });
    expect(u.verdict.status).not.toBe('Healthy');
    expect(u.updating).toBe(false);
  });
});

describe('cluster-state/4.14.1-paused-worker-pool', () => {
  const s = scenario('4.14.1-paused-worker-pool');

  it('judges each object on its own', () => {
    expect(assessHealth(s.clusterVersion)).toEqual({
      status: 'Progressing',
      reason: 'Updating',
      message:
        'ClusterOperatorUpdating: Working towards 4.14.1: 139 of 859 done (16% complete), waiting on kube-scheduler',
    });
    expect(own(s.clusterOperators)).toEqual(allHealthy);
    // The worker pool is paused but has nothing pending yet: the update has not reached the pools.
    expect(own(s.machineConfigPools)).toEqual({ master: 'Healthy/Updated', worker: 'Healthy/Updated' });
  });

  it('sees the operators and pools the update has not reached, and the paused pool', () => {
    const u = assessClusterUpdate(s);
    expect(inView(u.objects, 'Healthy/OperatorAvailable')).toEqual(co(AT_4_14_1));
    expect(inView(u.objects, 'Progressing/AwaitingUpdate')).toEqual([
      ...co(ALL_OPERATORS.filter((n) => !AT_4_14_1.includes(n))),
      'MachineConfigPool/master',
    ]);
    expect(inView(u.objects, 'Suspended/PoolPaused')).toEqual(['MachineConfigPool/worker']);
    expect(u.objects.find((o) => o.subject === 'MachineConfigPool/worker')?.message).toBe(
      'the pool is paused: its 3 machines (on 4.14.0) will not update to 4.14.1 until it is unpaused',
    );
  });

  it('is an incomplete update held by the paused worker pool, not a failed one', () => {
    const u = assessClusterUpdate(s);
    expect([u.verdict.status, u.verdict.reason, u.target, u.from, u.updating]).toEqual([
      'Progressing',
      'PoolsPaused',
      '4.14.1',
      '4.14.0',
      true,
    ]);
    expect(u.verdict.message).toBe(
      'the update to 4.14.1 from 4.14.0 is in progress: ' +
        'MachineConfigPool/worker: the pool is paused: its 3 machines (on 4.14.0) will not update to 4.14.1 until it is unpaused; ' +
        'ClusterVersion/version: ClusterOperatorUpdating: Working towards 4.14.1: 139 of 859 done (16% complete), waiting on kube-scheduler; ' +
        '29 of 33 cluster operators not yet at 4.14.1; ' +
        'MachineConfigPool/master: its 3 machines (on 4.14.0) wait for 4.14.1',
    );
  });

  it('reaches the same verdicts without MachineConfigs, from the machine-config operator version', () => {
    const u = assessClusterUpdate({ ...s, machineConfigs: undefined });
    expect([u.verdict.status, u.verdict.reason]).toEqual(['Progressing', 'PoolsPaused']);
    expect(inView(u.objects, 'Suspended/PoolPaused')).toEqual(['MachineConfigPool/worker']);
    expect(u.objects.find((o) => o.subject === 'MachineConfigPool/master')?.message).toBe(
      'its 3 machines (on an older configuration) wait for 4.14.1',
    );
  });

  it('is Suspended once the control plane is done and only the paused pool holds the update', () => {
    // Derived: the CVO finished 4.14.1 and every operator reports it; the master pool has 4.14.1.
    const done = variant(s, (d) => {
      const st = d.clusterVersion.status as {
        history: { state: string }[];
        conditions: { type: string; status: string }[];
      };
      st.history[0]!.state = 'Completed';
      st.conditions.find((c) => c.type === 'Progressing')!.status = 'False';
      for (const o of d.clusterOperators) {
        for (const v of (o.status as { versions: { version: string }[] }).versions) v.version = '4.14.1';
      }
      for (const mc of d.machineConfigs) {
        if (mc.metadata.name.startsWith('rendered-master')) {
          mc.metadata.annotations!['machineconfiguration.openshift.io/release-image-version'] = '4.14.1';
        }
      }
    });
    const u = assessClusterUpdate(done);
    expect([u.verdict.status, u.verdict.reason, u.updating]).toEqual(['Suspended', 'PoolsPaused', true]);
    // The last completed release is now the target itself, so the message has no "from".
    expect(u.verdict.message).toBe(
      'the update to 4.14.1 is held: MachineConfigPool/worker: the pool is paused: ' +
        'its 3 machines (on 4.14.0) will not update to 4.14.1 until it is unpaused',
    );
  });
});

describe('cluster-state/4.14.1-degraded', () => {
  const s = scenario('4.14.1-degraded');
  const DEGRADED = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler'];
  const PROGRESSING = ['machine-config', 'network'];

  it('judges each object on its own', () => {
    expect(assessHealth(s.clusterVersion)).toEqual({
      status: 'Degraded',
      reason: 'Failing',
      message: 'ClusterOperatorsDegraded: Cluster operators etcd, kube-apiserver are degraded',
    });
    expect(own(s.clusterOperators)).toEqual({
      ...allHealthy,
      ...Object.fromEntries(DEGRADED.map((n) => [n, 'Degraded/OperatorDegraded'])),
      'control-plane-machine-set': 'Degraded/OperatorUnavailable',
      ...Object.fromEntries(PROGRESSING.map((n) => [n, 'Progressing/OperatorProgressing'])),
    });
    expect(own(s.machineConfigPools)).toEqual({ master: 'Healthy/Updated', worker: 'Healthy/Updated' });
  });

  it('is a failing update naming the degraded and unavailable operators', () => {
    const u = assessClusterUpdate(s);
    expect([u.verdict.status, u.verdict.reason, u.target, u.from, u.updating]).toEqual([
      'Degraded',
      'ClusterOperatorsDegraded',
      '4.14.1',
      '4.14.0-rc.3',
      true,
    ]);
    expect(u.verdict.message).toBe(
      'the update to 4.14.1 from 4.14.0-rc.3 is failing: cluster operators control-plane-machine-set, etcd, ' +
        'kube-apiserver, kube-controller-manager, kube-scheduler are degraded or unavailable; ' +
        'ClusterVersion/version: ClusterOperatorsDegraded: Cluster operators etcd, kube-apiserver are degraded',
    );
    // Pools run configurations rendered for 4.14.0-rc.3: the update has not reached them yet.
    expect(inView(u.objects, 'Progressing/AwaitingUpdate')).toEqual([
      'MachineConfigPool/master',
      'MachineConfigPool/worker',
    ]);
    expect(inView(u.objects, 'Progressing/OperatorProgressing')).toEqual(co(PROGRESSING));
  });
});

describe('assessClusterUpdate on derived states', () => {
  const idle = scenario('not-upgrading');

  it('names a degraded pool', () => {
    const s = variant(idle, (d) => {
      const pool = d.machineConfigPools.find((p) => p.metadata.name === 'worker')!;
      (pool.status as { degradedMachineCount: number }).degradedMachineCount = 1;
    });
    const u = assessClusterUpdate(s);
    expect([u.verdict.status, u.verdict.reason]).toEqual(['Degraded', 'MachineConfigPoolsDegraded']);
    expect(u.verdict.message).toBe(
      'the cluster at 4.14.1 is degraded: machine config pools worker are degraded',
    );
  });

  it('falls back to the ClusterVersion when only it is degraded', () => {
    const s = variant(idle, (d) => {
      const st = d.clusterVersion.status as {
        conditions: { type: string; status: string; message?: string }[];
      };
      Object.assign(
        st.conditions.find((c) => c.type === 'Failing')!,
        { status: 'True', message: 'payload broken' },
      );
    });
    expect(assessClusterUpdate(s).verdict.reason).toBe('ClusterVersionDegraded');
  });

  it('cannot judge an operator without conditions', () => {
    const s = variant(idle, (d) => {
      (d.clusterOperators[0]!.status as { conditions: unknown[] }).conditions = [];
    });
    const u = assessClusterUpdate(s);
    expect([u.verdict.status, u.verdict.reason]).toEqual(['Unknown', 'StatusUnknown']);
    expect(u.verdict.message).toBe(
      'the cluster at 4.14.1 cannot be judged: ClusterOperator/authentication: the operator has not reported conditions yet',
    );
  });

  it('calls an operator settling outside an update Progressing, not Updating', () => {
    const s = variant(idle, (d) => {
      const st = d.clusterOperators[1]!.status as { conditions: { type: string; status: string }[] };
      st.conditions.find((c) => c.type === 'Progressing')!.status = 'True';
    });
    const u = assessClusterUpdate(s);
    expect([u.verdict.status, u.verdict.reason, u.updating]).toEqual(['Progressing', 'Progressing', false]);
    expect(u.verdict.message).toMatch(
      /^the cluster at 4\.14\.1 is in progress: cluster operators baremetal are progressing$/,
    );
  });

  it('calls an update with no paused pool Updating', () => {
    const s = variant(scenario('4.14.1-paused-worker-pool'), (d) => {
      (d.machineConfigPools[1]!.spec as { paused: boolean }).paused = false;
    });
    const u = assessClusterUpdate(s);
    expect([u.verdict.status, u.verdict.reason]).toEqual(['Progressing', 'Updating']);
  });
});
