import { describe, expect, it } from 'vitest';
import { groundwork } from '../harness/cli.js';
import { fixturePath } from '../harness/fixtures.js';

describe('groundwork catalog path', () => {
  it("uses the package's default channel when --channel is not given, and says which", async () => {
    const file = fixturePath('catalogs/kepler-operator.yaml');
    const r = await groundwork([
      'catalog',
      'path',
      'kepler-operator',
      '-f',
      file,
      '--to',
      'kepler-operator.v0.24.0',
      '-o',
      'json',
    ]);
    expect(r.stderr).toBe('channel: alpha (the default channel of kepler-operator)\n');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { request: { channel: string } }).request.channel).toBe('alpha');
    const explicit = await groundwork([
      'catalog',
      'path',
      'kepler-operator',
      '-f',
      file,
      '--channel',
      'alpha',
      '--to',
      'kepler-operator.v0.24.0',
    ]);
    expect(explicit.stderr).toBe('');
    expect(explicit.code).toBe(0);
  });

  it('names the packages when the package is unknown', async () => {
    const r = await groundwork([
      'catalog',
      'path',
      'nope',
      '-f',
      fixturePath('catalogs/kepler-operator.yaml'),
      '--to',
      'x',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nope: not in the catalog (fix: use one of: kepler-operator)');
  });

  it('lists per hop the dependency bundles that join the InstallPlan and the requirements nothing meets', async () => {
    const deps = fixturePath('catalogs/dependencies.yaml');
    const r = await groundwork([
      'catalog',
      'path',
      'etcd-app',
      '-f',
      deps,
      '--to',
      'etcd-app.v1.1.0',
      '-o',
      'json',
    ]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      dependencies: { csv: string; joins: unknown[]; unmet: unknown[] }[];
    };
    expect(out.dependencies).toEqual([
      {
        csv: 'etcd-app.v1.1.0',
        joins: [
          {
            csv: 'etcdoperator.v0.9.4',
            package: 'etcd',
            version: '0.9.4',
            channel: 'singlenamespace-alpha',
            catalog: deps,
            requiredBy: 'etcd-app.v1.1.0',
            requirement: { type: 'package', packageName: 'etcd', versionRange: '>=0.9.0 <0.10.0' },
          },
        ],
        unmet: [],
      },
    ]);
    // Real registry testdata: foo requires package bar in <0.1.0, which no bar on a channel's chain is.
    const testdata = fixturePath('catalogs/registry-testdata-latest.yaml');
    const text = await groundwork([
      'catalog',
      'path',
      'foo',
      '-f',
      testdata,
      '--from',
      'foo.v0.1.0',
      '--to',
      'foo.v0.2.0',
    ]);
    expect(text.stdout).toBe(
      [
        'foo/beta: foo.v0.1.0 -> foo.v0.2.0 (replaces, skipRange): 1 InstallPlan',
        '  foo.v0.2.0 cannot be planned: bundle foo.v0.2.0 requires an operator with package: bar and with version in range: <0.1.0, and no bundle of the catalogs satisfies it',
        '',
      ].join('\n'),
    );
  });
});
