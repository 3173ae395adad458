import { describe, expect, it } from 'vitest';
import { machineConfigPoolHealth, poolProgress } from '../../src/health/machine-config-pool.js';
import { obj } from './helpers.js';

const pool = (spec: string, status: string) =>
  obj(`apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfigPool
metadata: {name: worker, generation: 4}
spec: {configuration: {name: rendered-worker-new}${spec}}
${status}`);

/** A pool status: counts are machine, updated, ready, unavailable, degraded. */
const status = (opts: {
  current?: string;
  counts?: number[];
  conditions?: Record<string, string>;
  generation?: number;
}) => {
  const [machines, updated, ready, unavailable, degraded] = opts.counts ?? [3, 3, 3, 0, 0];
  const conditions = {
    Updated: 'True',
    Updating: 'False',
    Degraded: 'False',
    NodeDegraded: 'False',
    RenderDegraded: 'False',
    ...opts.conditions,
  };
  return `status:
  observedGeneration: ${opts.generation ?? 4}
  configuration: {name: ${opts.current ?? 'rendered-worker-new'}}
  machineCount: ${machines}
  updatedMachineCount: ${updated}
  readyMachineCount: ${ready}
  unavailableMachineCount: ${unavailable}
  degradedMachineCount: ${degraded}
  conditions:
${Object.entries(conditions)
  .map(([type, s]) => `  - {type: ${type}, status: "${s}", reason: '', message: '${type} is ${s}'}`)
  .join('\n')}`;
};

const updating = status({
  current: 'rendered-worker-old',
  counts: [3, 1, 1, 1, 0],
  conditions: { Updated: 'False', Updating: 'True' },
});

const cases = [
  { name: 'mcp-no-status', spec: '', yaml: '', status: 'Unknown', reason: 'NoStatus' },
  {
    name: 'mcp-generation-outdated',
    spec: '',
    yaml: status({ generation: 3 }),
    status: 'Progressing',
    reason: 'ObservedGenerationOutdated',
  },
  {
    name: 'mcp-render-degraded',
    spec: '',
    yaml: status({ conditions: { RenderDegraded: 'True', Degraded: 'True' } }),
    status: 'Degraded',
    reason: 'RenderDegraded',
  },
  {
    name: 'mcp-node-degraded',
    spec: '',
    yaml: status({ conditions: { NodeDegraded: 'True', Degraded: 'True' } }),
    status: 'Degraded',
    reason: 'NodeDegraded',
  },
  {
    name: 'mcp-degraded',
    spec: '',
    yaml: status({ conditions: { Degraded: 'True' } }),
    status: 'Degraded',
    reason: 'Degraded',
  },
  {
    name: 'mcp-machines-degraded',
    spec: '',
    yaml: status({ counts: [3, 3, 2, 1, 1] }),
    status: 'Degraded',
    reason: 'MachinesDegraded',
  },
  {
    name: 'mcp-paused-pending',
    spec: ', paused: true',
    yaml: updating,
    status: 'Suspended',
    reason: 'Paused',
  },
  {
    name: 'mcp-paused-new-config',
    spec: ', paused: true',
    yaml: status({ current: 'rendered-worker-old', conditions: { Updated: 'False' } }),
    status: 'Suspended',
    reason: 'Paused',
  },
  {
    name: 'mcp-paused-up-to-date',
    spec: ', paused: true',
    yaml: status({}),
    status: 'Healthy',
    reason: 'Updated',
  },
  { name: 'mcp-updating', spec: '', yaml: updating, status: 'Progressing', reason: 'Updating' },
  {
    name: 'mcp-config-mismatch',
    spec: '',
    yaml: status({ current: 'rendered-worker-old' }),
    status: 'Progressing',
    reason: 'Updating',
  },
  {
    name: 'mcp-machines-not-ready',
    spec: '',
    yaml: status({ counts: [3, 3, 2, 1, 0] }),
    status: 'Progressing',
    reason: 'MachinesNotReady',
  },
  { name: 'mcp-healthy', spec: '', yaml: status({}), status: 'Healthy', reason: 'Updated' },
] as const;

describe('machineConfigPoolHealth', () => {
  it.each(cases)('$name is $status ($reason)', ({ spec, yaml, status: expected, reason }) => {
    const v = machineConfigPoolHealth(pool(spec, yaml));
    expect([v.status, v.reason]).toEqual([expected, reason]);
  });

  it('counts machines in its messages', () => {
    expect(machineConfigPoolHealth(pool('', updating)).message).toBe(
      'updating to rendered-worker-new (1 of 3 machines updated, 1 ready, 1 unavailable)',
    );
    expect(machineConfigPoolHealth(pool(', paused: true', status({}))).message).toBe(
      'all 3 machines run rendered-worker-new; the pool is paused, so new configurations will wait',
    );
  });

  it('reads progress from status and spec', () => {
    expect(poolProgress(pool(', paused: true', updating))).toEqual({
      machines: 3,
      updated: 1,
      ready: 1,
      unavailable: 1,
      degraded: 0,
      current: 'rendered-worker-old',
      target: 'rendered-worker-new',
      pending: true,
      paused: true,
    });
  });
});
