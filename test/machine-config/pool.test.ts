import { describe, expect, it } from 'vitest';
import { ANNOTATIONS } from '../../src/core/annotations.js';
import { MachineConfigPool, type MachineConfigPoolProps } from '../../src/machine-config/index.js';
import { crdErrors, issueAt, MCP_CRD, ofKind, synth } from './helpers.js';

function pool(props: MachineConfigPoolProps | Record<string, unknown>) {
  return synth((p) => new MachineConfigPool(p, 'pool', props as MachineConfigPoolProps));
}

function rejected(props: Record<string, unknown>, field: string) {
  const s = pool(props);
  expect(ofKind(s.objects, 'MachineConfigPool')).toEqual([]);
  return issueAt(s.errors, 'p/pool', field);
}

describe('MachineConfigPool: custom pools', () => {
  it('inherits worker configs and selects its node role by default', () => {
    const { objects, issues } = pool({ name: 'infra' });
    expect(issues).toEqual([]);
    expect(objects).toEqual([
      {
        apiVersion: 'machineconfiguration.openshift.io/v1',
        kind: 'MachineConfigPool',
        metadata: { name: 'infra', labels: { 'pools.operator.machineconfiguration.openshift.io/infra': '' } },
        spec: {
          machineConfigSelector: {
            matchExpressions: [
              { key: 'machineconfiguration.openshift.io/role', operator: 'In', values: ['worker', 'infra'] },
            ],
          },
          nodeSelector: { matchLabels: { 'node-role.kubernetes.io/infra': '' } },
        },
      },
    ]);
    expect(crdErrors(MCP_CRD, objects[0])).toEqual([]);
  });

  it('takes its own role only with inheritsWorker: false, and warns', () => {
    const s = pool({
      name: 'edge',
      inheritsWorker: false,
      nodeSelector: { 'example.com/edge': 'true' },
      maxUnavailable: 3,
      paused: true,
    });
    expect(s.objects[0]!.spec).toEqual({
      machineConfigSelector: { matchLabels: { 'machineconfiguration.openshift.io/role': 'edge' } },
      nodeSelector: { matchLabels: { 'example.com/edge': 'true' } },
      maxUnavailable: 3,
      paused: true,
    });
    expect(issueAt(s.warnings, 'p/pool', 'inheritsWorker').message).toMatch(
      /^pool edge does not take the worker MachineConfigs/,
    );
    expect(crdErrors(MCP_CRD, s.objects[0])).toEqual([]);
  });

  it('writes windows and pause management as annotations, and ignores spec.paused drift', () => {
    const s = pool({
      name: 'infra',
      maintenanceWindows: [{ days: ['Sat'], start: '01:00', duration: '3h', timezone: 'America/New_York' }],
    });
    expect(s.objects[0]!.metadata.annotations).toEqual({
      [ANNOTATIONS.maintenanceWindows]:
        '[{"days":["Sat"],"start":"01:00","duration":"3h","timezone":"America/New_York"}]',
      [ANNOTATIONS.managePause]: 'true',
      [ANNOTATIONS.ignoreDifferences]: '["/spec/paused"]',
    });
    expect(s.objects[0]!.spec).not.toHaveProperty('paused');
  });
});

describe('MachineConfigPool: built-in pools', () => {
  it('emits nothing for a bare reference', () => {
    expect(pool({ name: 'worker' }).objects).toEqual([]);
    expect(pool({ name: 'master' }).objects).toEqual([]);
  });

  it('emits only the declared settings, kept on prune', () => {
    const s = pool({ name: 'worker', maxUnavailable: '10%' });
    expect(s.objects).toEqual([
      {
        apiVersion: 'machineconfiguration.openshift.io/v1',
        kind: 'MachineConfigPool',
        metadata: {
          name: 'worker',
          annotations: { [ANNOTATIONS.prune]: 'keep', [ANNOTATIONS.conflicts]: 'force' },
        },
        spec: { maxUnavailable: '10%' },
      },
    ]);
    expect(crdErrors(MCP_CRD, s.objects[0])).toEqual([]);
  });

  it("never writes master's spec.paused, even with managed windows", () => {
    const s = pool({
      name: 'master',
      managePause: true,
      maintenanceWindows: [{ start: '23:00', duration: '2h' }],
    });
    expect(s.issues).toEqual([]);
    expect(s.objects[0]!.spec).toEqual({});
    expect(s.objects[0]!.metadata.annotations).toMatchObject({
      [ANNOTATIONS.managePause]: 'true',
      [ANNOTATIONS.prune]: 'keep',
    });
    expect(crdErrors(MCP_CRD, s.objects[0])).toEqual([]);
  });

  it('writes master paused only with managePause: true', () => {
    expect(pool({ name: 'master', paused: true, managePause: true }).objects[0]!.spec).toEqual({
      paused: true,
    });
    expect(rejected({ name: 'master', paused: false }, 'paused')).toMatchObject({
      message: "Groundwork never touches master's spec.paused unless managePause: true is declared",
      fix: 'add managePause: true, or remove paused',
    });
  });

  it('needs managePause: true for windows on master', () => {
    expect(
      rejected({ name: 'master', maintenanceWindows: [{ start: '23:00', duration: '2h' }] }, 'managePause')
        .message,
    ).toBe('maintenance windows on master pause the control plane pool, which needs managePause: true');
  });

  it('warns about maxUnavailable on master', () => {
    expect(
      issueAt(pool({ name: 'master', maxUnavailable: 2 }).warnings, 'p/pool', 'maxUnavailable').message,
    ).toBe('the etcd quorum guard lets only one control plane node update at a time');
  });

  it.each([
    [{ name: 'worker', inheritsWorker: true }, 'inheritsWorker'],
    [{ name: 'master', nodeSelector: { a: 'b' } }, 'nodeSelector'],
  ])('refuses selectors on built-in pools (%o)', (props, field) => {
    expect(rejected(props, field).message).toMatch(/^the built-in (worker|master) pool has fixed selectors$/);
  });
});

describe('MachineConfigPool validation', () => {
  it('rejects windows with managePause: false', () => {
    expect(
      rejected(
        { name: 'infra', managePause: false, maintenanceWindows: [{ start: '01:00', duration: '1h' }] },
        'managePause',
      ).message,
    ).toBe('maintenance windows work by pausing the pool outside them');
  });

  it('rejects paused together with windows', () => {
    expect(
      rejected(
        { name: 'infra', paused: true, maintenanceWindows: [{ start: '01:00', duration: '1h' }] },
        'paused',
      ).message,
    ).toBe('paused conflicts with maintenanceWindows: with windows, Groundwork pauses and unpauses the pool');
  });

  it('rejects an empty nodeSelector', () => {
    expect(rejected({ name: 'infra', nodeSelector: {} }, 'nodeSelector').message).toBe(
      'an empty nodeSelector selects every node, control plane included',
    );
  });

  it.each([0, -1, 1.5, '0%', '101%', '10'])('rejects maxUnavailable %s', (maxUnavailable) => {
    expect(rejected({ name: 'infra', maxUnavailable }, 'maxUnavailable').fix).toBe("e.g. 1 or '10%'");
  });

  it('rejects a name that is not a DNS label', () => {
    expect(rejected({ name: 'Infra_Nodes' }, 'name').message).toBe(
      'a role must be a DNS label: lowercase letters, digits and "-"',
    );
  });

  it.each([
    [{ start: '25:00', duration: '1h' }, 'maintenanceWindows[0].start', 'start must be HH:MM (24-hour)'],
    [{ start: '2:00', duration: '1h' }, 'maintenanceWindows[0].start', 'start must be HH:MM (24-hour)'],
    [
      { start: '02:00', duration: '0m' },
      'maintenanceWindows[0].duration',
      'duration must be hours and/or minutes from 1m to 168h',
    ],
    [
      { start: '02:00', duration: '2d' },
      'maintenanceWindows[0].duration',
      'duration must be hours and/or minutes from 1m to 168h',
    ],
    [
      { start: '02:00', duration: '169h' },
      'maintenanceWindows[0].duration',
      'duration must be hours and/or minutes from 1m to 168h',
    ],
    [
      { start: '02:00', duration: '1h', timezone: 'Mars/Olympus' },
      'maintenanceWindows[0].timezone',
      'unknown time zone "Mars/Olympus"',
    ],
    [
      { start: '02:00', duration: '1h', days: ['Monday'] },
      'maintenanceWindows[0].days[0]',
      'days are Mon, Tue, Wed, Thu, Fri, Sat, Sun',
    ],
    [
      { start: '02:00', duration: '1h', days: [] },
      'maintenanceWindows[0].days',
      'list at least one day, or omit days for every day',
    ],
  ])('rejects the window %o', (window, field, message) => {
    expect(rejected({ name: 'infra', maintenanceWindows: [window] }, field).message).toBe(message);
  });
});
