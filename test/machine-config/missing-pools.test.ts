import { describe, expect, it } from 'vitest';
import { idOf, refOf } from '../../src/core/object-id.js';
import type { K8sObject } from '../../src/core/object.js';
import { missingPools } from '../../src/machine-config/rollout-hook.js';
import type { PlanItem } from '../../src/plan/types.js';

const ROLE = 'machineconfiguration.openshift.io/role';
const MCO = 'machineconfiguration.openshift.io/v1';
const item = (desired: K8sObject): PlanItem => ({
  id: idOf(desired),
  ref: refOf(desired),
  stage: 'machine-configs',
  action: 'create',
  diff: [],
  policy: {} as PlanItem['policy'],
  desired,
});
const chrony = item({
  apiVersion: MCO,
  kind: 'MachineConfig',
  metadata: { name: '50-chrony', labels: { [ROLE]: 'worker' } },
});
const pool = (name: string): K8sObject => ({
  apiVersion: MCO,
  kind: 'MachineConfigPool',
  metadata: { name },
  spec: { machineConfigSelector: { matchLabels: { [ROLE]: name } } },
});

describe('missingPools: the machine-configs stage is not ready while a pool it needs is absent', () => {
  it('names the pool and the MachineConfigs that wait for it', () => {
    expect(missingPools([chrony], [pool('master')])).toEqual([
      'MachineConfigPool/worker: not in the cluster (MachineConfig 50-chrony waits for it)',
    ]);
  });

  it('is empty when the pool exists', () => {
    expect(missingPools([chrony], [pool('worker'), pool('master')])).toEqual([]);
  });

  it('counts a pool the platform declares but the cluster does not have yet', () => {
    const infra = item({
      apiVersion: MCO,
      kind: 'MachineConfig',
      metadata: { name: '50-infra', labels: { [ROLE]: 'infra' } },
    });
    expect(missingPools([infra, item(pool('infra'))], [pool('worker')])).toEqual([
      'MachineConfigPool/infra: not in the cluster (MachineConfig 50-infra waits for it)',
    ]);
  });
});
