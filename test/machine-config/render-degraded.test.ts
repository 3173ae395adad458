import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../src/core/object.js';
import {
  readMachineConfigPool,
  type MachineConfigPool,
} from '../../src/health/machine-config-pool-schema.js';
import {
  RENDER_GRACE_MS,
  awaitsMachineConfigs,
  readRenderDegraded,
} from '../../src/machine-config/render-degraded.js';
import { poolRollout } from '../../src/machine-config/rollout-state.js';

const ROLE = 'machineconfiguration.openshift.io/role';
const NONE_FOUND = `Failed to render configuration for pool infra: no MachineConfigs found matching selector ${ROLE}=infra`;
const CREATED = '2026-11-28T10:00:00Z';
const at = (seconds: number) => new Date(Date.parse(CREATED) + seconds * 1000);

function mc(name: string, role = 'infra'): K8sObject {
  return {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfig',
    metadata: { name, labels: { [ROLE]: role } },
    spec: { config: { ignition: { version: '3.2.0' } } },
  };
}

/** A new pool as the MCO writes it when its first render found nothing (the simulator's conditions). */
function pool(
  render: { status: string; message: string; lastTransitionTime?: string },
  more: { nodeDegraded?: string } = {},
): MachineConfigPool {
  const condition = (type: string, status: string, message = '') => ({
    type,
    status,
    reason: '',
    message,
    lastTransitionTime: render.lastTransitionTime ?? CREATED,
  });
  return readMachineConfigPool({
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfigPool',
    metadata: { name: 'infra', generation: 1 },
    spec: { machineConfigSelector: { matchLabels: { [ROLE]: 'infra' } } },
    status: {
      observedGeneration: 1,
      machineCount: 0,
      updatedMachineCount: 0,
      conditions: [
        condition('RenderDegraded', render.status, render.message),
        condition('NodeDegraded', more.nodeDegraded ? 'True' : 'False', more.nodeDegraded ?? ''),
        condition('Degraded', render.status === 'True' || more.nodeDegraded ? 'True' : 'False'),
        condition('Updated', 'False'),
        condition('Updating', 'False'),
      ],
    },
  });
}

const noneFound = (lastTransitionTime?: string) =>
  pool({ status: 'True', message: NONE_FOUND, ...(lastTransitionTime ? { lastTransitionTime } : {}) });
const created = new Map([['50-motd', CREATED]]);
/** `readRenderDegraded` of the pool's RenderDegraded condition. */
const read = (
  p: MachineConfigPool,
  declared: K8sObject[],
  now: Date,
  times: ReadonlyMap<string, string> = created,
) => readRenderDegraded({ pool: p, condition: p.status!.conditions![0]!, declared, created: times, now });

describe('readRenderDegraded', () => {
  it('waits out "no MachineConfigs found" while a declared MachineConfig matching the pool is new', () => {
    const p = noneFound();
    expect(awaitsMachineConfigs(p)).toBe(true);
    expect(read(p, [mc('50-motd')], at(3))).toEqual({
      transient: true,
      message: `MachineConfigPool/infra: waiting for the MCO to see MachineConfig/50-motd (created 3s ago; RenderDegraded until then: ${NONE_FOUND})`,
    });
  });

  it('fails once the matching MachineConfig has existed past the grace, saying the MCO does not see it', () => {
    const p = noneFound();
    const r = read(p, [mc('50-motd')], at(RENDER_GRACE_MS / 1000 + 1));
    expect(r).toEqual({
      transient: false,
      message: `MachineConfigPool/infra RenderDegraded: ${NONE_FOUND} (MachineConfig/50-motd matches the selector and has existed for 61s: the machine-config controller does not see it; look at its logs in openshift-machine-config-operator)`,
    });
  });

  it('counts from the oldest matching MachineConfig, not the newest', () => {
    const p = noneFound();
    const both = new Map([
      ['50-motd', CREATED],
      ['60-late', at(55).toISOString()],
    ]);
    const r = read(p, [mc('50-motd'), mc('60-late')], at(61), both);
    expect(r.transient).toBe(false);
  });

  it('fails at once on a real render failure (an invalid MachineConfig), however new', () => {
    const message =
      'Failed to render configuration for pool infra: could not generate rendered MachineConfig: kernelType=rt is invalid';
    const p = pool({ status: 'True', message });
    expect(awaitsMachineConfigs(p)).toBe(false);
    expect(read(p, [mc('50-motd')], at(1))).toEqual({
      transient: false,
      message: `MachineConfigPool/infra RenderDegraded: ${message}`,
    });
  });

  it('fails at once when no declared MachineConfig matches the live selector (the MCO is right)', () => {
    const p = noneFound();
    const r = read(p, [mc('50-motd', 'worker')], at(1));
    expect(r.transient).toBe(false);
    expect(r.message).toMatch(/no declared MachineConfig matches the live pool's machineConfigSelector/);
    const none = read(p, [], at(1));
    expect(none).toEqual({
      transient: false,
      message: `MachineConfigPool/infra RenderDegraded: ${NONE_FOUND}`,
    });
  });

  it('falls back to the condition time without a live creation time, and fails without either', () => {
    const recent = noneFound(at(10).toISOString());
    const none = new Map<string, string>();
    expect(read(recent, [mc('50-motd')], at(20), none).transient).toBe(true);
    const old = noneFound(at(-120).toISOString());
    expect(read(old, [mc('50-motd')], at(20), none).transient).toBe(false);
    const condition = { message: NONE_FOUND };
    const args = { declared: [mc('50-motd')], created: none, now: at(20) };
    expect(readRenderDegraded({ pool: recent, condition, ...args })).toMatchObject({
      transient: false,
      message: expect.stringMatching(/no time to tell a late render by/),
    });
  });
});

describe('poolRollout with a late render', () => {
  it('waits (not degraded) for a new pool whose MachineConfigs the MCO has not seen yet', () => {
    expect(poolRollout(noneFound(), [mc('50-motd')], undefined, { now: at(2), created })).toMatchObject({
      state: 'waiting',
      message: expect.stringMatching(
        /^MachineConfigPool\/infra: waiting for the MCO to see MachineConfig\/50-motd/,
      ),
    });
  });

  it('is degraded for the same pool past the grace, and without a time to judge by', () => {
    expect(poolRollout(noneFound(), [mc('50-motd')], undefined, { now: at(90), created }).state).toBe(
      'degraded',
    );
    expect(poolRollout(noneFound(), [mc('50-motd')], undefined)).toEqual({
      state: 'degraded',
      message: `MachineConfigPool/infra RenderDegraded: ${NONE_FOUND}`,
    });
  });

  it('is degraded with the node message when a node is degraded too', () => {
    const p = pool(
      { status: 'True', message: NONE_FOUND },
      { nodeDegraded: 'Node infra-0 is reporting: "boom"' },
    );
    expect(poolRollout(p, [mc('50-motd')], undefined, { now: at(2), created })).toEqual({
      state: 'degraded',
      message: 'MachineConfigPool/infra NodeDegraded: Node infra-0 is reporting: "boom"',
    });
  });

  it('goes on to the usual checks once the MCO cleared RenderDegraded', () => {
    const p = pool({ status: 'False', message: '' });
    expect(poolRollout(p, [mc('50-motd')], undefined, { now: at(2), created })).toEqual({
      state: 'waiting',
      message:
        'MachineConfigPool/infra: waiting for the MCO to render MachineConfig/50-motd into a configuration',
    });
  });
});
