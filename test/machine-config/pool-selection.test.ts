import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../src/core/object.js';
import { poolsSelecting, ROLE_LABEL } from '../../src/machine-config/pool-selection.js';
import { machineConfig, pool } from '../report/preview/helpers.js';

const role = (r: string): Record<string, string> => ({ [ROLE_LABEL]: r });
const infra = pool('infra', {
  machineConfigSelector: {
    matchExpressions: [{ key: ROLE_LABEL, operator: 'In', values: ['worker', 'infra'] }],
  },
  nodeSelector: { matchLabels: { 'node-role.kubernetes.io/infra': '' } },
  maxUnavailable: 2,
});

describe('poolsSelecting', () => {
  const cases: { name: string; labels: Record<string, string>; pools: K8sObject[]; want: string[] }[] = [
    {
      name: 'worker role, no declared pools: the built-in worker pool',
      labels: role('worker'),
      pools: [],
      want: ['worker'],
    },
    {
      name: 'master role, no declared pools: the built-in master pool',
      labels: role('master'),
      pools: [],
      want: ['master'],
    },
    { name: 'no labels: no pool', labels: {}, pools: [], want: [] },
    { name: 'unknown role: no pool', labels: role('gpu'), pools: [], want: [] },
    {
      name: 'matchExpressions In: a custom pool that also takes worker configs',
      labels: role('worker'),
      pools: [infra],
      want: ['infra', 'worker'],
    },
    {
      name: 'matchExpressions In: an infra-only config',
      labels: role('infra'),
      pools: [infra],
      want: ['infra'],
    },
    {
      name: 'matchExpressions NotIn matches an absent key',
      labels: { team: 'a' },
      pools: [
        pool('p', {
          machineConfigSelector: {
            matchExpressions: [{ key: ROLE_LABEL, operator: 'NotIn', values: ['master'] }],
          },
        }),
      ],
      want: ['p'],
    },
    {
      name: 'matchExpressions NotIn excludes a listed value',
      labels: role('master'),
      pools: [
        pool('p', {
          machineConfigSelector: {
            matchExpressions: [{ key: ROLE_LABEL, operator: 'NotIn', values: ['master'] }],
          },
        }),
      ],
      want: ['master'],
    },
    {
      name: 'Exists and DoesNotExist',
      labels: { a: '1' },
      pools: [
        pool('has-a', { machineConfigSelector: { matchExpressions: [{ key: 'a', operator: 'Exists' }] } }),
        pool('no-b', {
          machineConfigSelector: { matchExpressions: [{ key: 'b', operator: 'DoesNotExist' }] },
        }),
        pool('no-a', {
          machineConfigSelector: { matchExpressions: [{ key: 'a', operator: 'DoesNotExist' }] },
        }),
      ],
      want: ['has-a', 'no-b'],
    },
    {
      name: 'matchLabels and matchExpressions are ANDed',
      labels: { ...role('worker'), zone: 'a' },
      pools: [
        pool('a', {
          machineConfigSelector: {
            matchLabels: role('worker'),
            matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }],
          },
        }),
        pool('b', {
          machineConfigSelector: {
            matchLabels: role('worker'),
            matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }],
          },
        }),
      ],
      want: ['a', 'worker'],
    },
    {
      name: 'an empty selector selects every config',
      labels: { x: 'y' },
      pools: [pool('all', { machineConfigSelector: {} })],
      want: ['all'],
    },
    {
      name: 'a pool without a selector selects nothing',
      labels: role('worker'),
      pools: [pool('none', {})],
      want: ['worker'],
    },
    {
      name: 'malformed expressions select nothing (In without values, unknown operator)',
      labels: role('worker'),
      pools: [
        pool('empty-in', {
          machineConfigSelector: { matchExpressions: [{ key: ROLE_LABEL, operator: 'In', values: [] }] },
        }),
        pool('bad-op', {
          machineConfigSelector: { matchExpressions: [{ key: ROLE_LABEL, operator: 'Gt', values: ['1'] }] },
        }),
      ],
      want: ['worker'],
    },
    {
      name: 'a declared worker pool replaces the built-in one',
      labels: role('worker'),
      pools: [pool('worker', { machineConfigSelector: { matchLabels: { custom: 'x' } } })],
      want: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(poolsSelecting(machineConfig('mc', c.labels), c.pools).map((p) => p.name)).toEqual(c.want);
    });
  }

  it('reports maxUnavailable, pause and windows; built-in pools default to maxUnavailable 1', () => {
    const paused = pool(
      'infra',
      { ...(infra.spec as object), paused: true, maxUnavailable: '10%' },
      { 'groundwork.io/maintenance-windows': '[]' },
    );
    expect(poolsSelecting(machineConfig('mc', role('worker')), [paused])).toEqual([
      { name: 'infra', maxUnavailable: '10%', paused: true, declared: true, maintenanceWindows: '[]' },
      { name: 'worker', maxUnavailable: 1, paused: false, declared: false },
    ]);
  });
});
