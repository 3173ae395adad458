import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { K8sObject } from '../../src/core/object.js';
import { lackingContent, poolRollout } from '../../src/machine-config/rollout-state.js';
import { fixturePath } from '../harness/fixtures.js';

/** The real worker pool of a 4.14.1 cluster at rest: 3 of 3 machines on its rendered config. */
function realWorker(): K8sObject {
  const list = parse(readFileSync(fixturePath('cluster-state/not-upgrading/mcp.yaml'), 'utf8')) as {
    items: K8sObject[];
  };
  return structuredClone(list.items.find((p) => p.metadata.name === 'worker')!);
}

const RENDERED = 'rendered-worker-4cec9ed3a634560e5c083a187c8f93a7';

function mc(name: string, spec: Record<string, unknown>): K8sObject {
  return {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfig',
    metadata: { name },
    spec,
  };
}

const motd = (text: string) =>
  mc('99-worker-ssh', {
    config: {
      ignition: { version: '3.2.0' },
      storage: { files: [{ path: '/etc/motd', mode: 420, contents: { source: `data:,${text}` } }] },
      systemd: { units: [{ name: 'hello.service', enabled: true, contents: '[Unit]\n' }] },
    },
    kernelArguments: ['nosmt'],
  });

/** The rendered config as the MCO writes it: empty fields added, other configs' content merged in. */
const rendered = (text: string): K8sObject =>
  mc(RENDERED, {
    config: {
      ignition: { version: '3.4.0' },
      storage: {
        files: [
          { path: '/etc/other', contents: { source: 'data:,x', verification: {} }, overwrite: true },
          {
            path: '/etc/motd',
            mode: 420,
            overwrite: true,
            contents: { source: `data:,${text}`, verification: {} },
          },
        ],
      },
      systemd: { units: [{ name: 'hello.service', enabled: true, contents: '[Unit]\n' }] },
    },
    kernelArguments: ['systemd.unified_cgroup_hierarchy=1', 'nosmt'],
  });

describe('poolRollout', () => {
  it('is done for the real pool at rest when its rendered config holds the declared content', () => {
    expect(poolRollout(realWorker(), [motd('hi')], rendered('hi'))).toEqual({ state: 'done' });
  });

  it('is done without a new rendered name when the change renders to the same content', () => {
    // A change the MCO merges to identical content keeps the name: nothing to wait for.
    expect(poolRollout(realWorker(), [motd('hi')], rendered('hi')).state).toBe('done');
  });

  it('waits while the rendered config the pool targets lacks the declared content (not rendered yet)', () => {
    const r = poolRollout(realWorker(), [motd('new')], rendered('old'));
    expect(r).toEqual({
      state: 'waiting',
      message: `MachineConfigPool/worker: waiting for the MCO to render MachineConfig/99-worker-ssh: ${RENDERED} does not have file /etc/motd as declared yet`,
    });
  });

  it('waits while a declared MachineConfig is not among the sources of the target configuration', () => {
    const r = poolRollout(realWorker(), [mc('50-new', {})], undefined);
    expect(r.state).toBe('waiting');
    expect(r.state === 'waiting' && r.message).toMatch(/render MachineConfig\/50-new into rendered-worker-/);
  });

  it('waits while the controller has not observed the pool spec', () => {
    const pool = realWorker();
    pool.metadata.generation = 4;
    expect(poolRollout(pool, [], undefined)).toEqual({
      state: 'waiting',
      message: 'MachineConfigPool/worker: waiting for the MCO to observe the pool',
    });
  });

  it('waits while machines move to the target, and says how far they are', () => {
    const pool = realWorker();
    (pool.spec as { configuration: { name: string } }).configuration.name = 'rendered-worker-new';
    (pool.status as { updatedMachineCount: number }).updatedMachineCount = 1;
    expect(poolRollout(pool, [], undefined)).toEqual({
      state: 'waiting',
      message: 'MachineConfigPool/worker: updating 1/3 to rendered-worker-new',
    });
  });

  it('is paused (not waiting) when a paused pool holds the target back', () => {
    const pool = realWorker();
    (pool.spec as { paused: boolean; configuration: { name: string } }).paused = true;
    (pool.spec as { configuration: { name: string } }).configuration.name = 'rendered-worker-new';
    expect(poolRollout(pool, [], undefined).state).toBe('paused');
  });

  it('is done for a paused pool with nothing pending', () => {
    const pool = realWorker();
    (pool.spec as { paused: boolean }).paused = true;
    expect(poolRollout(pool, [], undefined).state).toBe('done');
  });

  it.each(['RenderDegraded', 'NodeDegraded', 'Degraded'])(
    'is degraded on %s with the MCO message',
    (type) => {
      const pool = realWorker();
      const conditions = (pool.status as { conditions: { type: string; status: string; message: string }[] })
        .conditions;
      const c = conditions.find((x) => x.type === type)!;
      c.status = 'True';
      c.message = 'Node worker-0 is reporting: "failed to drain"';
      expect(poolRollout(pool, [], undefined)).toEqual({
        state: 'degraded',
        message: `MachineConfigPool/worker ${type}: Node worker-0 is reporting: "failed to drain"`,
      });
    },
  );
});

describe('lackingContent', () => {
  it('names a unit whose contents differ, and a missing kernel argument', () => {
    const declared = motd('hi');
    const r = rendered('hi');
    (r.spec as { config: { systemd: { units: { contents: string }[] } } }).config.systemd.units[0]!.contents =
      '[Unit]\nDescription=x\n';
    expect(lackingContent(declared, r)).toBe('unit hello.service');
    const noArg = rendered('hi');
    (noArg.spec as { kernelArguments: string[] }).kernelArguments = [];
    expect(lackingContent(declared, noArg)).toBe('kernel argument nosmt');
  });

  it('does not compare fields the declaration leaves out', () => {
    const declared = mc('x', {
      config: { storage: { files: [{ path: '/etc/other', contents: { source: 'data:,x' } }] } },
    });
    expect(lackingContent(declared, rendered('hi'))).toBeUndefined();
  });
});
