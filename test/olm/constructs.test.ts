import { App } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { CatalogSource } from '../../src/olm/constructs/catalog-source.js';
import { PlatformOperator, type PlatformOperatorProps } from '../../src/olm/constructs/platform-operator.js';
import { Platform } from '../../src/render/synth/platform.js';
import { Validation } from '../../src/render/synth/validation.js';
import type { K8sObject } from '../../src/core/object.js';

function build(fn: (p: Platform) => void): {
  objects: K8sObject[];
  issues: ReturnType<typeof Validation.all>;
} {
  const app = new App();
  const platform = new Platform(app, 'p', { openshiftVersion: '4.16' });
  fn(platform);
  platform.finalize();
  return { objects: platform.toJson() as K8sObject[], issues: Validation.all(app) };
}

const op = (p: Platform, id: string, props: Partial<PlatformOperatorProps> = {}) =>
  new PlatformOperator(p, id, {
    package: 'pkg',
    channel: 'stable',
    namespace: 'ops',
    ...props,
  } as PlatformOperatorProps);

describe('PlatformOperator', () => {
  it('emits Namespace, one OperatorGroup and a Subscription with OpenShift defaults', () => {
    const { objects, issues } = build((p) => op(p, 'a'));
    expect(issues).toEqual([]);
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual([
      'Namespace/ops',
      'OperatorGroup/ops',
      'Subscription/pkg',
    ]);
    const sub = objects.find((o) => o.kind === 'Subscription')!;
    expect(sub.spec).toEqual({
      name: 'pkg',
      channel: 'stable',
      source: 'redhat-operators',
      sourceNamespace: 'openshift-marketplace',
      installPlanApproval: 'Automatic',
    });
    expect(objects.find((o) => o.kind === 'OperatorGroup')!.spec).toEqual({ targetNamespaces: ['ops'] });
  });

  it.each(['manual', 'automatic', 'MANUAL', 'Manuel'])(
    'refuses approval %j: the CRD has no enum and OLM would read it as Automatic',
    (approval) => {
      const { issues } = build((p) => op(p, 'a', { approval: approval as 'Manual' }));
      expect(issues).toEqual([
        expect.objectContaining({
          path: 'p/a',
          field: 'approval',
          severity: 'error',
          message: expect.stringContaining('case-sensitive'),
        }),
      ]);
    },
  );

  it('turns a pin into startingCSV with Manual approval, and refuses a pin with Automatic', () => {
    const pinned = build((p) => op(p, 'a', { pin: 'pkg.v1.2.3' }));
    expect(pinned.objects.find((o) => o.kind === 'Subscription')!.spec).toMatchObject({
      startingCSV: 'pkg.v1.2.3',
      installPlanApproval: 'Manual',
    });
    const bad = build((p) => op(p, 'a', { pin: 'pkg.v1.2.3', approval: 'Automatic' }));
    expect(bad.issues.map((i) => i.field)).toEqual(['approval']);
  });

  it('shares one OperatorGroup between operators of one namespace and refuses conflicting install modes', () => {
    const shared = build((p) => {
      op(p, 'a', { package: 'one' });
      op(p, 'b', { package: 'two' });
    });
    expect(shared.objects.filter((o) => o.kind === 'OperatorGroup')).toHaveLength(1);
    const conflict = build((p) => {
      op(p, 'a', { package: 'one', installMode: 'OwnNamespace' });
      op(p, 'b', { package: 'two', installMode: 'AllNamespaces' });
    });
    expect(conflict.issues).toEqual([
      expect.objectContaining({ path: 'p/b', field: 'installMode', severity: 'error' }),
    ]);
  });

  it('warns about InstallPlan batching when a Manual operator shares its namespace', () => {
    const { issues } = build((p) => {
      op(p, 'a', { package: 'one', pin: 'one.v1.0.0' });
      op(p, 'b', { package: 'two' });
    });
    expect(issues).toEqual([
      expect.objectContaining({
        path: 'p/a',
        severity: 'warning',
        message: expect.stringContaining('batch'),
        fix: 'give one its own namespace',
      }),
    ]);
  });

  it.each([
    ['SingleNamespace', ['team'], { targetNamespaces: ['team'] }],
    ['MultiNamespace', ['b', 'a'], { targetNamespaces: ['a', 'b'] }],
    ['AllNamespaces', [], {}],
  ] as const)('emits the OperatorGroup of %s', (installMode, targets, spec) => {
    const { objects, issues } = build((p) => op(p, 'a', { installMode, targetNamespaces: [...targets] }));
    expect(issues).toEqual([]);
    expect(objects.find((o) => o.kind === 'OperatorGroup')!.spec).toEqual(spec);
  });

  it('uses the existing global-operators OperatorGroup in openshift-operators, and only with AllNamespaces', () => {
    const ok = build((p) => op(p, 'a', { namespace: 'openshift-operators' }));
    expect(ok.objects.map((o) => o.kind)).toEqual(['Subscription']);
    const bad = build((p) => op(p, 'a', { namespace: 'openshift-operators', installMode: 'OwnNamespace' }));
    expect(bad.issues.map((i) => i.field)).toEqual(['installMode']);
  });

  it('marks operands with the operator they wait for and passes the subscription config', () => {
    const { objects } = build((p) =>
      op(p, 'a', {
        config: {
          env: [{ name: 'X', value: '1' }],
          nodeSelector: { infra: '' },
          tolerations: [{ key: 'infra', operator: 'Exists', effect: 'NoSchedule' }],
          resources: { requests: { cpu: '100m' } },
        },
        operands: [
          { apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 't' }, spec: { size: 1 } },
        ],
      }),
    );
    const operand = objects.find((o) => o.kind === 'Thing')!;
    expect(operand.metadata).toMatchObject({
      namespace: 'ops',
      annotations: { 'groundwork.io/operator': 'ops/pkg' },
    });
    expect(
      (objects.find((o) => o.kind === 'Subscription')!.spec as { config: unknown }).config,
    ).toMatchObject({ nodeSelector: { infra: '' } });
  });
});

describe('CatalogSource', () => {
  it('emits a grpc CatalogSource and validates the poll interval as a Go duration', () => {
    const ok = build(
      (p) =>
        new CatalogSource(p, 'internal', {
          image: 'registry.example.com/index@sha256:abc',
          pollInterval: '1h30m',
          priority: 10,
          displayName: 'Internal',
        }),
    );
    expect(ok.objects[0]).toMatchObject({
      kind: 'CatalogSource',
      metadata: { name: 'internal', namespace: 'openshift-marketplace' },
      spec: { sourceType: 'grpc', priority: 10, updateStrategy: { registryPoll: { interval: '1h30m' } } },
    });
    for (const bad of ['10 minutes', '1d', '5']) {
      const r = build((p) => new CatalogSource(p, 'c', { image: 'x', pollInterval: bad }));
      expect(r.issues.map((i) => `${i.path} ${i.field}`)).toEqual(['p/c pollInterval']);
    }
  });
});
