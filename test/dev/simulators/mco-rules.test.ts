import { describe, expect, it } from 'vitest';
import { formatSelector, matchesLabelSelector } from '../../../src/core/label-selector.js';
import { validateMachineConfig } from '../../../src/dev/simulators/mco-ignition.js';
import {
  countMachines,
  maxUnavailable,
  stepNodes,
  type SimNode,
} from '../../../src/dev/simulators/mco-nodes.js';
import { setPoolCondition } from '../../../src/dev/simulators/mco-pool-status.js';

const VERSIONS = 'Supported spec versions: 2.2,3.0,3.1,3.2,3.3,3.4';
const v3 = (extra: object = {}) => ({ config: { ignition: { version: '3.2.0' }, ...extra } });

describe('validateMachineConfig', () => {
  it.each([
    ['no config', {}, undefined],
    [
      'a valid 3.2 config',
      v3({ storage: { files: [{ path: '/etc/a', mode: 420, contents: { source: 'data:,a' } }] } }),
      undefined,
    ],
    ['a 2.2 config', { config: { ignition: { version: '2.2.0' } } }, undefined],
    [
      'a missing version',
      { config: { storage: {} } },
      `parsing Ignition config failed: invalid version. ${VERSIONS}`,
    ],
    [
      'a version that is not semver',
      { config: { ignition: { version: '3.2' } } },
      `parsing Ignition config failed: invalid version. ${VERSIONS}`,
    ],
    [
      'an unsupported version',
      { config: { ignition: { version: '3.5.0' } } },
      `parsing Ignition config failed: unknown version. ${VERSIONS}`,
    ],
    ['a bad kernel type', { kernelType: 'rt' }, 'kernelType=rt is invalid'],
    [
      'a mode above 0777',
      v3({ storage: { files: [{ path: '/etc/a', mode: 0o4755, contents: { source: 'data:,a' } }] } }),
      'invalid mode 04755 for /etc/a, cannot exceed 0777',
    ],
  ])('%s', (_name, spec, want) => {
    expect(validateMachineConfig(spec)).toBe(want);
  });

  it('reports Ignition validation errors as an Ignition report', () => {
    const err = validateMachineConfig(
      v3({
        storage: { files: [{ path: 'etc/a', contents: { source: 'file:///etc/a' } }] },
        systemd: { units: [{ name: 'foo' }] },
      }),
    );
    expect(err?.split('\n')).toEqual([
      'parsing Ignition config spec v3 failed with error: config is not valid',
      expect.stringMatching(
        /^Report: error at \$\.storage\.files\.0\.path, line 1 col \d+: path not absolute$/,
      ),
      expect.stringMatching(
        /^error at \$\.storage\.files\.0\.contents\.source, line 1 col \d+: invalid url scheme$/,
      ),
      expect.stringMatching(
        /^error at \$\.systemd\.units\.0\.name, line 1 col \d+: invalid systemd unit extension$/,
      ),
      '',
    ]);
  });

  it('renders remote sources (nodes fail on them later)', () => {
    expect(
      validateMachineConfig(
        v3({ storage: { files: [{ path: '/etc/a', contents: { source: 'https://example.com/a' } }] } }),
      ),
    ).toBeUndefined();
  });
});

describe('label selectors', () => {
  const selector = {
    matchLabels: { role: 'worker' },
    matchExpressions: [
      { key: 'zone', operator: 'In', values: ['b', 'a'] },
      { key: 'legacy', operator: 'DoesNotExist' },
    ],
  };
  it('matches labels and expressions', () => {
    expect(matchesLabelSelector({ role: 'worker', zone: 'a' }, selector)).toBe(true);
    expect(matchesLabelSelector({ role: 'worker', zone: 'c' }, selector)).toBe(false);
    expect(matchesLabelSelector({ role: 'worker', zone: 'a', legacy: '' }, selector)).toBe(false);
  });
  it('prints like labels.Selector', () => {
    expect(formatSelector(selector)).toBe('!legacy,role=worker,zone in (a,b)');
  });
});

describe('node rollout', () => {
  const nodes = (n: number): SimNode[] =>
    Array.from({ length: n }, (_, i) => ({
      name: `w-${i}`,
      current: 'old',
      desired: 'old',
      state: 'Done' as const,
      workLeft: 0,
    }));

  it.each([
    [undefined, 5, 1],
    [2, 5, 2],
    ['40%', 5, 2],
    ['10%', 5, 1],
    ['3', 5, 3],
  ])('maxUnavailable %s of %i nodes is %i', (value, machines, want) => {
    expect(maxUnavailable(value, machines)).toBe(want);
  });

  it('moves at most maxUnavailable nodes per pass and none while paused', () => {
    const pool = nodes(4);
    const opts = {
      target: 'new',
      paused: false,
      maxUnavailable: 2,
      workTicks: 1,
      failures: new Map<string, string>(),
    };
    const trace: number[][] = [];
    for (let i = 0; i < 3; i++) {
      stepNodes(pool, opts);
      const c = countMachines(pool, 'new');
      trace.push([c.updatedMachineCount, c.unavailableMachineCount]);
    }
    expect(trace).toEqual([
      [0, 2],
      [2, 2],
      [4, 0],
    ]);
    const held = nodes(2);
    stepNodes(held, { ...opts, paused: true });
    expect(countMachines(held, 'new')).toMatchObject({ updatedMachineCount: 0, unavailableMachineCount: 0 });
  });

  it('degrades a node that cannot apply the config and stops there', () => {
    const pool = nodes(3);
    const opts = {
      target: 'new',
      paused: false,
      maxUnavailable: 1,
      workTicks: 1,
      failures: new Map([['new', 'could not decode file']]),
    };
    stepNodes(pool, opts);
    stepNodes(pool, opts);
    stepNodes(pool, opts);
    expect(countMachines(pool, 'new')).toMatchObject({
      updatedMachineCount: 0,
      unavailableMachineCount: 1,
      degradedMachineCount: 1,
    });
  });
});

describe('setPoolCondition', () => {
  const base = [
    { type: 'Updated', status: 'True', reason: '', message: 'm', lastTransitionTime: 't0' },
    { type: 'Updating', status: 'False', reason: '', message: '', lastTransitionTime: 't0' },
  ];
  it('keeps an unchanged condition in place and moves a changed one to the end', () => {
    expect(setPoolCondition(base, { type: 'Updated', status: 'True', reason: '', message: 'm' }, 't1')).toBe(
      base,
    );
    expect(
      setPoolCondition(base, { type: 'Updated', status: 'False', reason: '', message: '' }, 't1').map((c) => [
        c.type,
        c.lastTransitionTime,
      ]),
    ).toEqual([
      ['Updating', 't0'],
      ['Updated', 't1'],
    ]);
    expect(
      setPoolCondition(base, { type: 'Updating', status: 'False', reason: '', message: 'paused' }, 't1').at(
        -1,
      )?.lastTransitionTime,
    ).toBe('t0');
  });
});
