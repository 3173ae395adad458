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
  }, 60_000);

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
    // Real registry testdata: foo requires package bar in <0.1.0, which no bar on a channel's chain
    // is. A fresh install of foo.v0.2.0 cannot be planned: exit 2, as the help says.
    const testdata = fixturePath('catalogs/registry-testdata-latest.yaml');
    const text = await groundwork(['catalog', 'path', 'foo', '-f', testdata, '--to', 'foo.v0.2.0']);
    expect(text.stdout).toBe(
      [
        'foo/beta: (fresh install) -> foo.v0.2.0 (startingCSV): 1 InstallPlan',
        '  foo.v0.2.0 cannot be planned: bundle foo.v0.2.0 requires an operator with package: bar and with version in range: <0.1.0, and no bundle of the catalogs satisfies it',
        '',
      ].join('\n'),
    );
    expect(text.code).toBe(2);
  }, 60_000);

  it('counts what the installed CSV required as there: alloydb-omni-operator v1.3.0 needed cert-manager', async () => {
    const r = await groundwork([
      'catalog',
      'path',
      'alloydb-omni-operator',
      '-f',
      fixturePath('catalogs/alloydb-omni-operator.yaml'),
      '--from',
      'alloydb-omni-operator.v1.3.0',
      '--to',
      'alloydb-omni-operator.v1.4.1',
      '-o',
      'json',
    ]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { ok: boolean; dependencies: { csv: string; unmet: unknown[] }[] };
    expect(out.ok).toBe(true);
    expect(out.dependencies.map((h) => [h.csv, h.unmet.length])).toEqual([
      ['alloydb-omni-operator.v1.4.0', 0],
      ['alloydb-omni-operator.v1.4.1', 0],
    ]);
  }, 60_000);

  it('keeps a dependency no Subscription references, and says no (exit 2, "ok": false) when a hop needs it moved', async () => {
    const rabbitmq = fixturePath('catalogs/rabbitmq-operators.yaml');
    const base = [
      'catalog',
      'path',
      'rabbitmq-messaging-topology-operator',
      '-f',
      rabbitmq,
      '--channel',
      'stable',
    ];
    const hop = [
      '--from',
      'rabbitmq-messaging-topology-operator.v1.14.2',
      '--to',
      'rabbitmq-messaging-topology-operator.v1.15.0',
    ];
    const r = await groundwork([
      ...base,
      ...hop,
      '--unsubscribed',
      'rabbitmq-cluster-operator.v2.0.0',
      '-o',
      'json',
    ]);
    expect(r.code).toBe(2);
    const out = JSON.parse(r.stdout) as {
      ok: boolean;
      reason: string;
      dependencies: { unmet: { heldBack: string }[] }[];
    };
    expect([out.ok, out.reason]).toEqual([false, 'dependency-unresolvable']);
    expect(out.dependencies[0]?.unmet[0]?.heldBack).toBe(
      'rabbitmq-cluster-operator.v2.0.0 is installed and no Subscription references it, so OLM keeps it',
    );
    const bad = await groundwork([...base, ...hop, '--installed', 'rabbitmq-cluster-operator.v9.9.9']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      '--installed rabbitmq-cluster-operator.v9.9.9: no bundle rabbitmq-cluster-operator.v9.9.9 in the catalog',
    );
  }, 60_000);
});
