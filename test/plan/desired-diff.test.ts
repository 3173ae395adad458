import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../src/core/object.js';
import { desiredDiff, redactDesired } from '../../src/plan/desired-diff.js';
import { redactSecret } from '../../src/core/redact.js';

const M = { manager: 'groundwork' };

/** A live Deployment as the apiserver returns it: defaults, status, server metadata, managers. */
function liveDeployment(
  over: { replicas?: number; image?: string; extraContainer?: boolean } = {},
): K8sObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      namespace: 'shop',
      uid: 'u1',
      resourceVersion: '42',
      generation: 3,
      annotations: { 'deployment.kubernetes.io/revision': '3', 'groundwork.io/owning-inventory': 'x/y' },
      managedFields: [
        {
          manager: 'groundwork',
          operation: 'Apply',
          fieldsV1: { 'f:spec': { 'f:replicas': {}, 'f:minReadySeconds': {}, 'f:template': {} } },
        },
        { manager: 'kubectl-edit', operation: 'Update', fieldsV1: { 'f:spec': { 'f:replicas': {} } } },
      ],
    },
    spec: {
      replicas: over.replicas ?? 2,
      revisionHistoryLimit: 10,
      template: {
        spec: {
          containers: [
            {
              name: 'web',
              image: over.image ?? 'nginx:1.27',
              imagePullPolicy: 'IfNotPresent',
              resources: { limits: { memory: '1Gi' } },
            },
            ...(over.extraContainer ? [{ name: 'sidecar', image: 'busybox' }] : []),
          ],
        },
      },
    },
    status: { replicas: 2 },
  };
}

const desired: K8sObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop' },
  spec: {
    replicas: 2,
    minReadySeconds: 0,
    template: {
      spec: {
        containers: [{ name: 'web', image: 'nginx:1.27', resources: { limits: { memory: '1024Mi' } } }],
      },
    },
  },
};

describe('desiredDiff: the fields git sets, as the plan compares them', () => {
  it('finds nothing when live holds what git sets (defaults, status, metadata, other annotations, quantities written otherwise, a dropped zero value the applier owns)', () => {
    expect(desiredDiff(desired, liveDeployment(), M)).toEqual([]);
  });

  it("gives each changed field git's and the live value and who wrote the live one", () => {
    expect(desiredDiff(desired, liveDeployment({ replicas: 5, image: 'nginx:evil' }), M)).toEqual([
      { path: '/spec/replicas', op: 'replace', before: 5, after: 2, owners: ['groundwork', 'kubectl-edit'] },
      {
        path: '/spec/template/spec/containers/0/image',
        op: 'replace',
        before: 'nginx:evil',
        after: 'nginx:1.27',
        owners: ['groundwork'],
      },
    ]);
  });

  it('shows a list element live has beyond what git sets, and a field live lacks', () => {
    const d = desiredDiff(
      { ...desired, metadata: { ...desired.metadata, labels: { app: 'web' } } },
      liveDeployment({ extraContainer: true }),
      M,
    );
    expect(d.map((x) => [x.path, x.op])).toEqual([
      ['/metadata/labels', 'add'],
      ['/spec/template/spec/containers/1', 'remove'],
    ]);
  });

  it('counts a dropped zero value when another manager owns the field (the applier never applied it)', () => {
    const live = liveDeployment();
    live.metadata.managedFields = [];
    expect(desiredDiff(desired, live, M).map((x) => x.path)).toEqual(['/spec/minReadySeconds']);
  });

  it('leaves out the fields groundwork.io/ignore-differences names', () => {
    const ignoring = {
      ...desired,
      metadata: {
        ...desired.metadata,
        annotations: { 'groundwork.io/ignore-differences': '["/spec/replicas"]' },
      },
    };
    const live = liveDeployment({ replicas: 7 });
    live.metadata.annotations = {
      ...live.metadata.annotations,
      'groundwork.io/ignore-differences': '["/spec/replicas"]',
    };
    expect(desiredDiff(ignoring, live, M)).toEqual([]);
  });
});

describe('desiredDiff over Secrets: keyed hashes on both sides, never values', () => {
  const PLANTED = 'planted-desired-value-7f3a';
  const desiredSecret: K8sObject = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'db', namespace: 'shop' },
    stringData: { password: PLANTED },
  } as K8sObject;
  const liveSecret = (value: string): K8sObject =>
    ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'db', namespace: 'shop' },
      data: { password: Buffer.from(value).toString('base64') },
      type: 'Opaque',
    }) as K8sObject;

  it('redactDesired folds stringData into data and tags it as the live Secret is tagged; other kinds pass through as they are', () => {
    const r = redactDesired(desiredSecret) as K8sObject & { data: Record<string, string> };
    expect(r).not.toHaveProperty('stringData');
    expect(r.data.password).toBe((redactSecret(liveSecret(PLANTED)) as typeof r).data.password);
    expect(JSON.stringify(r)).not.toContain(PLANTED);
    expect(JSON.stringify(r)).not.toContain(Buffer.from(PLANTED).toString('base64'));
    expect(redactDesired(desired)).toBe(desired);
  });

  it('equal values are no difference; a changed value shows two different tags', () => {
    const d = redactDesired(desiredSecret);
    expect(desiredDiff(d, redactSecret(liveSecret(PLANTED)), M)).toEqual([]);
    const changed = desiredDiff(d, redactSecret(liveSecret('planted-live-value-91c2')), M);
    expect(changed).toHaveLength(1);
    expect(changed[0]!.path).toBe('/data/password');
    expect(String(changed[0]!.before)).toMatch(/^<redacted hmac:[0-9a-f]{8}>$/);
    expect(changed[0]!.before).not.toBe(changed[0]!.after);
    expect(JSON.stringify(changed)).not.toMatch(/planted|cGxhbnRlZ/);
  });
});
