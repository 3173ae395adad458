import { describe, expect, it } from 'vitest';
import { ClusterObjectInvalidError } from '../../src/core/cluster-object.js';
import type { K8sObject } from '../../src/core/object.js';
import { machineConfigPoolHealth } from '../../src/health/machine-config-pool.js';
import { readMachineConfigPool } from '../../src/health/machine-config-pool-schema.js';
import { fixtureObjects } from '../harness/fixtures.js';

/** Every pool of the real 4.14 cluster dumps (test/fixtures/cluster-state, see PROVENANCE.md). */
const SCENARIOS = ['not-upgrading', '4.14.1-paused-worker-pool', '4.14.1-degraded'];
const realPools = SCENARIOS.flatMap((s) =>
  fixtureObjects(`cluster-state/${s}/mcp.yaml`).map((pool) => ({ scenario: s, pool })),
);

const worker = (): K8sObject =>
  structuredClone(
    fixtureObjects('cluster-state/4.14.1-paused-worker-pool/mcp.yaml').find(
      (p) => p.metadata.name === 'worker',
    )!,
  );

/** The real paused worker pool with one field replaced (`path` is dotted, `value` undefined deletes). */
function variant(path: string, value: unknown): K8sObject {
  const pool = worker();
  const keys = path.split('.');
  let at = pool as Record<string, unknown>;
  for (const k of keys.slice(0, -1)) at = at[k] as Record<string, unknown>;
  if (value === undefined) delete at[keys.at(-1)!];
  else at[keys.at(-1)!] = value;
  return pool;
}

describe('the MachineConfigPool schema', () => {
  it.each(realPools.map((r) => [`${r.scenario} ${r.pool.metadata.name}`, r.pool] as const))(
    'reads the real pool %s, keeping every field',
    (_, pool) => {
      const parsed = readMachineConfigPool(pool);
      expect(parsed).toEqual(pool); // nothing dropped, nothing added
      expect(parsed.status?.machineCount).toBe(3);
      expect(parsed.spec?.configuration?.name).toMatch(/^rendered-/);
    },
  );

  it('reads what the paused worker pool says', () => {
    const parsed = readMachineConfigPool(worker());
    expect(parsed.spec?.paused).toBe(true);
    expect(parsed.spec?.configuration?.source?.map((s) => s.name)).toContain('00-worker');
    expect(parsed.status?.conditions?.find((c) => c.type === 'Updated')?.status).toBeDefined();
  });

  const lenient: [string, string, unknown][] = [
    ['a new pool without status', 'status', undefined],
    ['null conditions (a Go nil slice)', 'status.conditions', null],
    ['null configuration sources', 'spec.configuration.source', null],
    ['maxUnavailable as a percentage', 'spec.maxUnavailable', '10%'],
    ['maxUnavailable as a count', 'spec.maxUnavailable', 2],
    ['a field Groundwork does not know', 'status.certExpirys', [{ bundle: 'x' }]],
  ];
  it.each(lenient)('accepts %s', (_, path, value) => {
    expect(() => readMachineConfigPool(variant(path, value))).not.toThrow();
  });

  const malformed: [string, string, unknown, RegExp][] = [
    ['a machine count as a string', 'status.machineCount', '3', /status\.machineCount: .*expected number/],
    ['a negative machine count', 'status.updatedMachineCount', -1, /status\.updatedMachineCount: /],
    ['paused as a string', 'spec.paused', 'yes', /spec\.paused: .*expected boolean/],
    [
      'a configuration name that is not a string',
      'spec.configuration.name',
      7,
      /spec\.configuration\.name: /,
    ],
    [
      'a condition without a type',
      'status.conditions',
      [{ status: 'True' }],
      /status\.conditions\[0\]\.type: /,
    ],
    ['sources that are not a list', 'spec.configuration.source', 'all', /spec\.configuration\.source: /],
  ];
  it.each(malformed)('refuses %s, naming the pool and the field', (_, path, value, problem) => {
    const bad = variant(path, value);
    expect(() => readMachineConfigPool(bad)).toThrow(ClusterObjectInvalidError);
    try {
      readMachineConfigPool(bad);
    } catch (err) {
      const e = err as ClusterObjectInvalidError;
      expect(e.code).toBe('ClusterObjectInvalid');
      expect(e.subject).toBe('MachineConfigPool/worker');
      expect(e.message).toMatch(problem);
      expect(e.fix).toBeTruthy();
    }
  });

  it('never echoes the value it refuses', () => {
    const secret = 'hunter2-do-not-print';
    try {
      readMachineConfigPool(variant('spec.paused', secret));
      expect.unreachable();
    } catch (err) {
      expect(String(err)).not.toContain(secret);
    }
  });

  it('names a pool whose name is not a plausible object name with ?, never the name', () => {
    const bad = variant('spec.paused', 'yes');
    bad.metadata.name = `worker\n${'x'.repeat(300)}`;
    expect(() => readMachineConfigPool(bad)).toThrow(
      /^MachineConfigPool\/\?: unexpected shape: spec\.paused: /,
    );
  });

  it('gives health an Unknown verdict naming the field instead of a guess', () => {
    expect(machineConfigPoolHealth(worker()).status).not.toBe('Unknown');
    expect(machineConfigPoolHealth(variant('status.machineCount', '3'))).toMatchObject({
      status: 'Unknown',
      reason: 'InvalidObject',
      message: expect.stringMatching(/^unexpected shape: status\.machineCount: /),
    });
  });
});
