import { describe, expect, it } from 'vitest';
import {
  decideApprovals,
  wantedCSVs,
  type InstallPlanLike,
  type SubscriptionLike,
} from '../../src/olm/index.js';
import { dependencyLookup } from '../../src/olm/dependencies.js';
import { expectGolden, loadCatalogFixture } from './helpers.js';

const NS = 'ops';
const ECR = 'ecr-secret-operator';

function sub(
  name: string,
  pkg: string,
  installedCSV: string,
  currentCSV: string,
  plan?: string,
): SubscriptionLike {
  return {
    metadata: { name, namespace: NS },
    spec: { name: pkg, channel: 'alpha', installPlanApproval: 'Manual' },
    status: { installedCSV, currentCSV, ...(plan ? { installPlanRef: { name: plan, namespace: NS } } : {}) },
  };
}

function plan(
  name: string,
  csvs: string[],
  more: { phase?: string; approved?: boolean; approval?: string; namespace?: string } = {},
): InstallPlanLike {
  return {
    metadata: { name, namespace: more.namespace ?? NS },
    spec: {
      clusterServiceVersionNames: csvs,
      approval: more.approval ?? 'Manual',
      approved: more.approved ?? false,
    },
    status: { phase: more.phase ?? 'RequiresApproval' },
  };
}

describe('decideApprovals', async () => {
  const latest = await loadCatalogFixture('registry-testdata-latest');
  const ecrCatalog = await loadCatalogFixture('ecr-secret-operator');
  // foo: installed foo.v0.1.0, pinned at foo.v0.2.0 (foo.v0.2.0 replaces foo.v0.1.0): wants {foo.v0.2.0}.
  const foo = wantedCSVs(
    latest,
    { package: 'foo', channel: 'beta', installed: 'foo.v0.1.0', pin: 'foo.v0.2.0' },
    'foo',
  );
  // ecr: installed and pinned at v0.3.2; OLM offers v0.5.0 (skips v0.3.2): wants nothing.
  const ecr = wantedCSVs(
    ecrCatalog,
    { package: ECR, channel: 'alpha', installed: `${ECR}.v0.3.2`, pin: `${ECR}.v0.3.2` },
    'ecr',
  );
  if (!foo.ok || !ecr.ok) throw new Error('fixture pins must be reachable');
  const wanted = new Map([
    ['foo', foo.wanted],
    ['ecr', ecr.wanted],
    ['baz', new Set(['baz.v1.1.0'])],
  ]);
  const subscriptions = [
    sub('foo', 'foo', 'foo.v0.1.0', 'foo.v0.2.0', 'install-batch'),
    sub('ecr', ECR, `${ECR}.v0.3.2`, `${ECR}.v0.5.0`, 'install-batch'),
    sub('baz', 'baz', 'baz.v1.0.0', 'baz.v1.1.0'),
    // Not managed by Groundwork: no wanted entry.
    sub('bar', 'bar', 'bar.v0.2.0', 'bar.v1.0.0'),
  ];
  const decide = (p: InstallPlanLike) => {
    const [v] = decideApprovals({ namespace: NS, installPlans: [p], subscriptions, wanted }).verdicts;
    if (!v) throw new Error('no verdict');
    return v;
  };

  it.each([
    {
      title: 'every CSV wanted by its operator',
      p: plan('p', ['foo.v0.2.0']),
      want: ['approve', 'AllWanted'],
    },
    {
      title: 'two operators batched, both wanted',
      p: plan('p', ['foo.v0.2.0', 'baz.v1.1.0']),
      want: ['approve', 'AllWanted'],
    },
    {
      title: 'the next hop of an operator at its pin',
      p: plan('p', [`${ECR}.v0.5.0`]),
      want: ['wait', 'BeyondPin'],
    },
    {
      title: 'a wanted CSV batched with a pinned operator past its pin',
      p: plan('p', ['foo.v0.2.0', `${ECR}.v0.5.0`]),
      want: ['blocked', 'BatchedBeyondPin'],
    },
    {
      title: 'a wanted CSV batched with an unmanaged operator',
      p: plan('p', ['foo.v0.2.0', 'bar.v1.0.0']),
      want: ['blocked', 'BatchedUnmanaged'],
    },
    {
      title: 'a wanted CSV batched with a dependency nobody subscribes to',
      p: plan('p', ['foo.v0.2.0', 'dep.v1.0.0']),
      want: ['blocked', 'BatchedUnmanaged'],
    },
    { title: 'only an unmanaged operator', p: plan('p', ['bar.v1.0.0']), want: ['wait', 'Unmanaged'] },
    {
      title: 'wanted but still planning',
      p: plan('p', ['foo.v0.2.0'], { phase: 'Planning' }),
      want: ['wait', 'NotReady'],
    },
    { title: 'no CSVs yet', p: plan('p', [], { phase: 'RequiresApproval' }), want: ['wait', 'NotReady'] },
    {
      title: 'approved already',
      p: plan('p', ['foo.v0.2.0'], { approved: true, phase: 'Installing' }),
      want: ['already-approved', 'Approved'],
    },
    {
      title: 'Automatic approval runs past a pin',
      p: plan('p', [`${ECR}.v0.5.0`], { approval: 'Automatic', approved: true, phase: 'Installing' }),
      want: ['already-approved', 'ApprovedBeyondPin'],
    },
    {
      title: 'complete',
      p: plan('p', ['foo.v0.2.0'], { approved: true, phase: 'Complete' }),
      want: ['complete', 'Complete'],
    },
    {
      title: 'failed',
      p: plan('p', ['foo.v0.2.0'], { approved: true, phase: 'Failed' }),
      want: ['failed', 'Failed'],
    },
  ])('$title: $want', ({ p, want }) => {
    const v = decide(p);
    expect([v.decision, v.reason]).toEqual(want);
  });

  it('never approves a plan with a CSV nobody wants, whatever else is in it', () => {
    for (const extra of [`${ECR}.v0.5.0`, 'bar.v1.0.0', 'dep.v1.0.0', 'foo.v0.3.1']) {
      expect(decide(plan('p', ['foo.v0.2.0', 'baz.v1.1.0', extra])).decision).not.toBe('approve');
    }
  });

  it('the batched plan names the pinned operator and the fix is its own namespace', () => {
    const v = decide(plan('install-batch', ['foo.v0.2.0', `${ECR}.v0.5.0`]));
    expect(v.csvs).toEqual([
      { csv: 'foo.v0.2.0', owner: 'foo', wanted: true },
      { csv: `${ECR}.v0.5.0`, owner: 'ecr', wanted: false },
    ]);
    expect(v.message).toBe(
      'OLM batched foo.v0.2.0 (foo) with ecr-secret-operator.v0.5.0 (ecr), which is past its pin; approving would install both',
    );
    expect(v.fix).toBe(
      'give the pinned operator ecr its own namespace (with its own OperatorGroup) so OLM resolves it apart from foo',
    );
  });

  it('blocks the plan OLM made Manual for a pin when it carries only an Automatic operator, and says how to fix it', () => {
    const auto: SubscriptionLike = {
      metadata: { name: 'other', namespace: NS },
      spec: { name: 'other-operator' },
      status: { currentCSV: 'other-operator.v1.0.0', installPlanRef: { name: 'p', namespace: NS } },
    };
    const decideWith = (p: InstallPlanLike, subs: SubscriptionLike[], w: typeof wanted = wanted) => {
      const [v] = decideApprovals({
        namespace: NS,
        installPlans: [p],
        subscriptions: subs,
        wanted: w,
      }).verdicts;
      return v!;
    };
    const v = decideWith(plan('p', ['other-operator.v1.0.0']), [...subscriptions, auto]);
    expect([v.decision, v.reason]).toEqual(['blocked', 'ManualForPin']);
    expect(v.message).toBe(
      'OLM made this InstallPlan Manual because the pinned operators baz, ecr, foo share the namespace; other-operator.v1.0.0 (other) asks for Automatic approval and nobody approves it',
    );
    expect(v.fix).toBe(
      'give the pinned operators baz, ecr, foo a namespace (with its own OperatorGroup), or pin other too',
    );
    // Any spelling but `Manual` is Automatic, as in OLM.
    const spelled = { ...auto, spec: { ...auto.spec, installPlanApproval: 'manual' } };
    expect(decideWith(plan('p', ['other-operator.v1.0.0']), [...subscriptions, spelled]).reason).toBe(
      'ManualForPin',
    );
    // Not when the operator asked for Manual itself, nor for an Automatic plan, nor without a pin in
    // the namespace, nor for a CSV no Subscription names.
    expect(decideWith(plan('p', ['bar.v1.0.0']), [...subscriptions, auto]).reason).toBe('Unmanaged');
    expect(
      decideWith(plan('p', ['other-operator.v1.0.0'], { approval: 'Automatic' }), [...subscriptions, auto])
        .reason,
    ).toBe('Unmanaged');
    expect(decideWith(plan('p', ['other-operator.v1.0.0']), [...subscriptions, auto], new Map()).reason).toBe(
      'Unmanaged',
    );
    expect(decideWith(plan('p', ['stray.v1.0.0']), [...subscriptions, auto]).reason).toBe('Unmanaged');
    // Nor before OLM has planned it.
    expect(
      decideWith(plan('p', ['other-operator.v1.0.0'], { phase: 'Planning' }), [...subscriptions, auto])
        .reason,
    ).toBe('Unmanaged');
    // One pin: its own namespace.
    const one = decideWith(plan('p', ['other-operator.v1.0.0']), [subscriptions[0]!, auto]);
    expect(one.fix).toBe(
      'give the pinned operator foo its own namespace (with its own OperatorGroup), or pin other too',
    );
  });

  it('a report for the namespace: sorted, other namespaces ignored, what to approve and the worst', async () => {
    const report = decideApprovals({
      namespace: NS,
      subscriptions,
      wanted,
      installPlans: [
        plan('install-b9x2k', ['foo.v0.2.0', `${ECR}.v0.5.0`]),
        plan('install-4hq7p', ['baz.v1.1.0']),
        plan('install-0old0', ['foo.v0.1.0'], { approved: true, phase: 'Complete' }),
        plan('install-zz999', ['foo.v0.2.0'], { namespace: 'elsewhere' }),
      ],
    });
    expect(report.verdicts.map((v) => v.installPlan)).toEqual([
      'install-0old0',
      'install-4hq7p',
      'install-b9x2k',
    ]);
    expect(report.toApprove).toEqual(['install-4hq7p']);
    expect(report.worst).toBe('blocked');
    expect(String(report).split('\n')[1]).toBe(
      "InstallPlan/ops/install-4hq7p: approve (AllWanted): every CSV is on its operator's path to the pin: baz.v1.1.0 (baz)",
    );
    await expectGolden('approval-report.md', report.toMarkdown());
    expect(decideApprovals({ namespace: NS, subscriptions, wanted, installPlans: [] }).worst).toBe(
      'complete',
    );
  });
});

describe('decideApprovals with declared dependencies (catalog dependencies.yaml)', async () => {
  const deps = await loadCatalogFixture('dependencies');
  const latest = await loadCatalogFixture('registry-testdata-latest');
  const dependencies = dependencyLookup([deps, latest]);
  const wanted = new Map([['app', new Set(['etcd-app.v1.0.0', 'etcd-app.v1.1.0'])]]);
  const subscriptions = [
    sub('app', 'etcd-app', '', 'etcd-app.v1.0.0', 'p'),
    sub('bar', 'bar', 'bar.v0.2.0', 'bar.v1.0.0'),
  ];
  const decide = (csvs: string[]) => {
    const [v] = decideApprovals({
      namespace: NS,
      installPlans: [plan('p', csvs)],
      subscriptions,
      wanted,
      dependencies,
    }).verdicts;
    if (!v) throw new Error('no verdict');
    return v;
  };

  it('approves a wanted CSV with the operator its olm.gvk.required names', () => {
    const v = decide(['etcd-app.v1.0.0', 'etcdoperator.v0.9.4']);
    expect([v.decision, v.reason]).toEqual(['approve', 'WantedWithDependencies']);
    expect(v.csvs.find((c) => c.csv === 'etcdoperator.v0.9.4')?.dependencyOf).toBe('etcd-app.v1.0.0');
    expect(v.message).toContain('etcdoperator.v0.9.4 (required by etcd-app.v1.0.0)');
  });

  it('approves the package its olm.package.required names only inside the range', () => {
    expect(decide(['etcd-app.v1.1.0', 'etcdoperator.v0.9.2']).reason).toBe('WantedWithDependencies');
  });

  it('still blocks an unrelated CSV batched with the wanted one and its dependency', () => {
    const v = decide(['etcd-app.v1.0.0', 'etcdoperator.v0.9.4', 'baz.v1.1.0']);
    expect([v.decision, v.reason]).toEqual(['blocked', 'BatchedUnmanaged']);
    expect(v.message).toContain('baz.v1.1.0');
    expect(v.message).not.toContain('etcdoperator');
  });

  it('does not take a CSV outside the declared range, nor one without a declaring wanted CSV', () => {
    // lonely requires missing-operator; etcd-app.v1.1.0 requires etcd >=0.9.0 <0.10.0.
    expect(decide(['etcd-app.v1.1.0', 'lonely.v1.0.0']).reason).toBe('BatchedUnmanaged');
    expect(decide(['etcdoperator.v0.9.4']).reason).toBe('Unmanaged');
  });

  it('does not approve a CSV that provides the required API but fails the required range (registry testdata)', () => {
    // foo.v0.2.0 requires the Bar API and package bar in <0.1.0; bar.v1.0.0 provides Bar, is 1.0.0.
    const [v] = decideApprovals({
      namespace: NS,
      installPlans: [plan('p', ['foo.v0.2.0', 'bar.v1.0.0'])],
      subscriptions: [sub('foo', 'foo', '', 'foo.v0.2.0', 'p')],
      wanted: new Map([['foo', new Set(['foo.v0.2.0'])]]),
      dependencies,
    }).verdicts;
    expect([v?.decision, v?.reason]).toEqual(['blocked', 'BatchedUnmanaged']);
  });

  it('without a lookup, a dependency blocks as before', () => {
    const [v] = decideApprovals({
      namespace: NS,
      installPlans: [plan('p', ['etcd-app.v1.0.0', 'etcdoperator.v0.9.4'])],
      subscriptions,
      wanted,
    }).verdicts;
    expect(v?.reason).toBe('BatchedUnmanaged');
  });
});

describe('dependencyLookup', async () => {
  const lookup = dependencyLookup([await loadCatalogFixture('dependencies')]);
  it('answers by package range and by provided API, and knows nothing of CSVs in no catalog', () => {
    expect(lookup('etcdoperator.v0.9.2', ['etcd-app.v1.1.0'])).toBe('etcd-app.v1.1.0');
    expect(lookup('etcdoperator.v0.9.2', ['etcd-app.v1.0.0'])).toBe('etcd-app.v1.0.0');
    expect(lookup('etcdoperator.v0.9.2', ['lonely.v1.0.0'])).toBeUndefined();
    expect(lookup('not-in-catalog.v1', ['etcd-app.v1.0.0'])).toBeUndefined();
  });
});
