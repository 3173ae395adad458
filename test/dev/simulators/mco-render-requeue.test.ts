import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../../src/core/object.js';
import type { SimNode } from '../../../src/dev/simulators/mco-nodes.js';
import { poolStatus } from '../../../src/dev/simulators/mco-pool-status.js';
import { renderPool } from '../../../src/dev/simulators/mco-render.js';

const ROLE = 'machineconfiguration.openshift.io/role';

const pool: K8sObject = {
  apiVersion: 'machineconfiguration.openshift.io/v1',
  kind: 'MachineConfigPool',
  metadata: { name: 'infra', uid: 'u1', generation: 1 },
  spec: { machineConfigSelector: { matchLabels: { [ROLE]: 'infra' } } },
};

const motd: K8sObject = {
  apiVersion: 'machineconfiguration.openshift.io/v1',
  kind: 'MachineConfig',
  metadata: { name: '50-motd', labels: { [ROLE]: 'infra' } },
  spec: { config: { ignition: { version: '3.2.0' } } },
};

const condition = (status: ReturnType<typeof poolStatus>, type: string) =>
  status.conditions.find((c) => c.type === type);

/**
 * The render controller (`render_controller.go`, `syncMachineConfigPool`) sets RenderDegraded when
 * its informer holds no MachineConfig for a pool (`syncFailingStatus`) and returns the error, so the
 * pool is requeued; adding a MachineConfig the pool selects enqueues the pool too. The next sync that
 * renders sets RenderDegraded False (`syncAvailableStatus`), and the node controller's Degraded,
 * derived from it, follows. The simulator re-renders every pool on every pass, which is that requeue.
 */
describe('MCO simulator: a pool rendered before its MachineConfigs were seen', () => {
  it('reports RenderDegraded on the pass without them and clears it on the next pass with them', () => {
    const first = renderPool(pool, [], '4.14.1');
    expect(first).toEqual({
      ok: false,
      message: `Failed to render configuration for pool infra: no MachineConfigs found matching selector ${ROLE}=infra`,
    });
    const failing = poolStatus({
      previous: undefined,
      generation: 1,
      target: undefined,
      nodes: [],
      paused: false,
      renderError: first.ok ? undefined : first.message,
      now: 't0',
    });
    expect(condition(failing, 'RenderDegraded')).toMatchObject({
      status: 'True',
      message: first.ok ? '' : first.message,
    });
    expect(condition(failing, 'Degraded')).toMatchObject({ status: 'True', message: '' });

    const second = renderPool(pool, [motd], '4.14.1');
    expect(second.ok).toBe(true);
    const target = second.ok ? second.name : '';
    const nodes: SimNode[] = ['infra-0', 'infra-1'].map((name) => ({
      name,
      current: target,
      desired: target,
      state: 'Done',
      workLeft: 0,
    }));
    const cleared = poolStatus({
      previous: failing,
      generation: 1,
      target,
      nodes,
      paused: false,
      renderError: undefined,
      now: 't1',
    });
    expect(condition(cleared, 'RenderDegraded')).toEqual({
      type: 'RenderDegraded',
      status: 'False',
      reason: '',
      message: '',
      lastTransitionTime: 't1',
    });
    expect(condition(cleared, 'Degraded')).toMatchObject({ status: 'False', lastTransitionTime: 't1' });
    expect(condition(cleared, 'Updated')).toMatchObject({ status: 'True' });
    expect(cleared.configuration).toEqual({ name: target });
  });

  it('keeps RenderDegraded, with its first transition time, while a pass still finds nothing', () => {
    const failing = (previous: ReturnType<typeof poolStatus> | undefined, now: string) => {
      const r = renderPool(
        pool,
        [{ ...motd, metadata: { name: '50-motd', labels: { [ROLE]: 'worker' } } }],
        undefined,
      );
      return poolStatus({
        previous,
        generation: 1,
        target: undefined,
        nodes: [],
        paused: false,
        renderError: r.ok ? undefined : r.message,
        now,
      });
    };
    const again = failing(failing(undefined, 't0'), 't1');
    expect(condition(again, 'RenderDegraded')).toMatchObject({ status: 'True', lastTransitionTime: 't0' });
  });
});
