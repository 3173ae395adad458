import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { environmentsSchema, reach, soakMs, toEnvironments } from '../../src/project/environments.js';
import { parseFleetFile } from '../../src/project/fleet-file.js';
import { loadProjectConfig } from '../../src/project/config.js';

const ENVS = [
  { name: 'dev', overlays: ['dev'], ref: 'main' },
  { name: 'staging', overlays: ['staging'], ref: 'env/staging', promotedFrom: 'dev', soak: '30m' },
  {
    name: 'prod',
    overlays: ['prod', 'clusters/prod-eu-1'],
    ref: 'env/prod',
    promotedFrom: 'staging',
    soak: '2h',
    windows: [{ days: ['Sat'], start: '02:00', duration: '4h' }],
  },
];

const problems = (input: unknown) => {
  const r = environmentsSchema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('environments in groundwork.yaml', () => {
  it('reads a chain dev -> staging -> prod with soak times and windows', () => {
    const envs = toEnvironments(environmentsSchema.parse(ENVS));
    expect(envs.map((e) => [e.name, e.ref, e.promotedFrom, e.soakMs])).toEqual([
      ['dev', 'main', undefined, 0],
      ['staging', 'env/staging', 'dev', 30 * 60_000],
      ['prod', 'env/prod', 'staging', 2 * 3_600_000],
    ]);
    expect(envs[2]!.windows).toHaveLength(1);
  });

  it.each([
    [
      'an unknown source',
      [{ name: 'a', overlays: ['a'], ref: 'main', promotedFrom: 'nope' }],
      '0.promotedFrom: no environment nope',
    ],
    [
      'a promotion cycle',
      [
        { name: 'a', overlays: ['a'], ref: 'x', promotedFrom: 'b' },
        { name: 'b', overlays: ['b'], ref: 'y', promotedFrom: 'a' },
      ],
      'promotion cycle',
    ],
    [
      'an overlay in two environments',
      [
        { name: 'a', overlays: ['dev'], ref: 'x' },
        { name: 'b', overlays: ['dev'], ref: 'y' },
      ],
      '1.overlays.0: overlay dev is already in environment a',
    ],
    [
      'two environments on one ref',
      [
        { name: 'a', overlays: ['a'], ref: 'main' },
        { name: 'b', overlays: ['b'], ref: 'main' },
      ],
      '1.ref: ref main is already followed by environment a',
    ],
    [
      'a soak that is not a duration',
      [{ name: 'a', overlays: ['a'], ref: 'main', soak: '2 hours' }],
      '0.soak: must be a duration',
    ],
    [
      'a ref that is not a branch name',
      [{ name: 'a', overlays: ['a'], ref: 'env..prod' }],
      '0.ref: must be a branch name',
    ],
    [
      'a window with a bad start',
      [{ name: 'a', overlays: ['a'], ref: 'm', windows: [{ start: '25:00', duration: '1h' }] }],
      'start must be HH:MM',
    ],
  ])('refuses %s', (_what, input, message) => {
    expect(problems(input).join('\n')).toContain(message);
  });

  it('says where each problem is in groundwork.yaml, by line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-env-'));
    writeFileSync(
      join(dir, 'groundwork.yaml'),
      'name: p\nenvironments:\n  - name: dev\n    overlays: [dev]\n    ref: main\n  - name: prod\n    overlays: [prod]\n    ref: env/prod\n    promotedFrom: staging\n',
    );
    const err = await loadProjectConfig(dir).catch((e: unknown) => e);
    expect(String(err)).toContain('groundwork.yaml:9: environments[1].promotedFrom: no environment staging');
  });

  it('computes which environments a change on a branch reaches now and by promotion', () => {
    const envs = toEnvironments(environmentsSchema.parse(ENVS));
    const r = reach(envs, 'main');
    expect(r.now.map((e) => e.name)).toEqual(['dev']);
    expect(r.byPromotion.map((e) => e.name)).toEqual(['staging', 'prod']);
    expect(reach(envs, 'env/prod').byPromotion).toEqual([]);
    expect(reach(envs, 'feature').now).toEqual([]);
  });

  it('reads soak durations in h, m and s', () => {
    expect(soakMs('1h30m')).toBe(5_400_000);
    expect(soakMs('45s')).toBe(45_000);
    expect(soakMs('0s')).toBe(0);
    expect(soakMs('1d')).toBeNaN();
  });
});

describe('fleet file', () => {
  it('reads clusters with their contexts, the name defaulting to the context', () => {
    expect(
      parseFleetFile(
        'clusters:\n  - context: dev-1\n  - name: prod\n    context: prod-ctx\n    kubeconfig: /k\n',
        'fleet.yaml',
      ),
    ).toEqual([
      { name: 'dev-1', context: 'dev-1' },
      { name: 'prod', context: 'prod-ctx', kubeconfig: '/k', kubeconfigNamedBy: 'fleet.yaml' },
    ]);
  });

  it('names the file and line of a problem', () => {
    expect(() => parseFleetFile('clusters:\n  - name: a\n    contxt: b\n', 'fleet.yaml')).toThrow(
      /fleet\.yaml:2/,
    );
    expect(() => parseFleetFile('clusters:\n  - context: a\n  - context: a\n', 'fleet.yaml')).toThrow(
      /listed twice/,
    );
  });
});
