import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/cluster/api-error.js';
import { listCrds } from '../../../src/cluster/crds.js';
import { readObjects } from '../../../src/core/yaml-files.js';
import { writeStatus } from '../../../src/dev/simulators/status.js';
import { eventually, ssa, useCluster } from '../../harness/cluster.js';
import { asNew, fixtureObject, fixturePath } from '../../harness/fixtures.js';
import { runControlPlane } from '../../harness/run-control-plane.js';

const cluster = useCluster();
const SUBS = '/apis/operators.coreos.com/v1alpha1';

describe('local control plane', () => {
  it('serves Kubernetes >= 1.35 with every fixture CRD Established', async () => {
    const version = await cluster.client.request<{ major: string; minor: string; gitVersion: string }>(
      'GET',
      '/version',
    );
    expect(Number(version.major)).toBe(1);
    expect(Number(version.minor)).toBeGreaterThanOrEqual(35);
    const fixtureNames = (await readObjects(fixturePath('crds'))).map((c) => c.metadata.name).sort();
    expect(fixtureNames.length).toBe(10);
    const installed = await listCrds(cluster.client);
    for (const name of fixtureNames) {
      expect(
        installed.find((c) => c.name === name),
        name,
      ).toEqual({ name, established: true });
    }
  });

  it('accepts a Subscription by server-side apply and rejects a wrong field type by the CRD schema', async () => {
    const ns = cluster.namespace;
    const path = `${SUBS}/namespaces/${ns}/subscriptions/argocd`;
    const sub = {
      apiVersion: 'operators.coreos.com/v1alpha1',
      kind: 'Subscription',
      metadata: { name: 'argocd', namespace: ns },
      spec: {
        name: 'argocd-operator',
        channel: 'alpha',
        source: 'community-operators',
        sourceNamespace: 'openshift-marketplace',
      },
    };
    const applied = await ssa<{
      spec: { channel: string };
      metadata: { managedFields: { manager: string }[] };
    }>(cluster.client, path, sub);
    expect(applied.spec.channel).toBe('alpha');
    expect(applied.metadata.managedFields.map((m) => m.manager)).toContain('groundwork-test');

    const bad = { ...sub, metadata: { name: 'bad', namespace: ns }, spec: { ...sub.spec, channel: 42 } };
    const created = await cluster.client
      .request('POST', `${SUBS}/namespaces/${ns}/subscriptions`, { body: bad })
      .catch((e: unknown) => e);
    expect(created).toBeInstanceOf(ApiError);
    expect((created as ApiError).status).toBe(422);
    expect((created as ApiError).message).toContain('spec.channel in body must be of type string');

    // Server-side apply meets the same schema earlier, in structured-merge-diff, which answers 500;
    // the adapter classifies it as Invalid so callers treat it as bad input, not a server fault.
    const applied2 = await ssa(cluster.client, `${SUBS}/namespaces/${ns}/subscriptions/bad`, bad).catch(
      (e: unknown) => e,
    );
    expect((applied2 as ApiError).reason).toBe('Invalid');
    expect((applied2 as ApiError).message).toContain('.spec.channel: expected string');
  });

  it('rejects a ClusterVersion with both desiredUpdate.architecture and image (CEL rule)', async () => {
    const name = `cel-${cluster.namespace}`;
    const cv = {
      apiVersion: 'config.openshift.io/v1',
      kind: 'ClusterVersion',
      metadata: { name },
      spec: {
        clusterID: '3ba11aa4-3a62-47d1-9158-ec54d4c49e1d',
        channel: 'stable-4.14',
        desiredUpdate: {
          architecture: 'Multi',
          image: 'quay.io/openshift-release-dev/ocp-release@sha256:abc',
          version: '4.14.2',
        },
      },
    };
    const err = await ssa(cluster.client, `/apis/config.openshift.io/v1/clusterversions/${name}`, cv).catch(
      (e: unknown) => e,
    );
    expect((err as ApiError).status).toBe(422);
    expect((err as ApiError).message).toContain('cannot set both Architecture and Image');
  });

  it('deletes a namespace that still holds objects', async () => {
    const ns = `gw-del-${cluster.namespace.slice(-6)}`;
    await cluster.client.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } });
    await cluster.client.request('POST', `/api/v1/namespaces/${ns}/configmaps`, {
      body: { metadata: { name: 'cm' }, data: { a: '1' } },
    });
    await ssa(cluster.client, `${SUBS}/namespaces/${ns}/subscriptions/s`, {
      apiVersion: 'operators.coreos.com/v1alpha1',
      kind: 'Subscription',
      metadata: { name: 's', namespace: ns },
      spec: { name: 'p', channel: 'c', source: 'src', sourceNamespace: 'openshift-marketplace' },
    });
    await cluster.client.request('DELETE', `/api/v1/namespaces/${ns}`);
    await eventually(
      () =>
        cluster.client.request('GET', `/api/v1/namespaces/${ns}`).then(
          () => undefined,
          (e: unknown) => ((e as ApiError).status === 404 ? true : undefined),
        ),
      60_000,
      'namespace deletion',
    );
  });

  it('garbage-collects an owner-referenced object when its owner is deleted', async () => {
    const ns = cluster.namespace;
    const owner = await cluster.client.request<{ metadata: { uid: string } }>(
      'POST',
      `/api/v1/namespaces/${ns}/configmaps`,
      {
        body: { metadata: { name: 'owner' } },
      },
    );
    await cluster.client.request('POST', `/api/v1/namespaces/${ns}/configmaps`, {
      body: {
        metadata: {
          name: 'child',
          ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid }],
        },
      },
    });
    await cluster.client.request('DELETE', `/api/v1/namespaces/${ns}/configmaps/owner`);
    await eventually(
      () =>
        cluster.client.request('GET', `/api/v1/namespaces/${ns}/configmaps/child`).then(
          () => undefined,
          (e: unknown) => ((e as ApiError).status === 404 ? true : undefined),
        ),
      30_000,
      'garbage collection of the child',
    );
  });

  it('rolls a Deployment out to a ReplicaSet and pods (deployment and replicaset controllers run)', async () => {
    const ns = cluster.namespace;
    await ssa(cluster.client, `/apis/apps/v1/namespaces/${ns}/deployments/web`, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: ns },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'c', image: 'nginx' }] },
        },
      },
    });
    const pods = await eventually(
      async () => {
        const list = await cluster.client.request<{ items: unknown[] }>(
          'GET',
          `/api/v1/namespaces/${ns}/pods`,
        );
        return list.items.length === 2 ? list.items : undefined;
      },
      30_000,
      'two pods',
    );
    expect(pods).toHaveLength(2);
  });

  it('keeps real status shapes written through the status subresource (playing OLM and the CVO)', async () => {
    const ns = cluster.namespace;
    const fixture = fixtureObject('health/subscription/healthy.yaml');
    const sub = asNew(fixture, { name: 'gitops', namespace: ns });
    const path = `${SUBS}/namespaces/${ns}/subscriptions/gitops`;
    await ssa(cluster.client, path, sub);
    const stored = await writeStatus(cluster.client, path, fixture.status);
    expect(stored.status).toEqual(fixture.status);

    const cvFixture = fixtureObject('cluster-state/4.14.1-paused-worker-pool/cv.yaml');
    const cvName = `cv-${ns}`;
    const cvPath = `/apis/config.openshift.io/v1/clusterversions/${cvName}`;
    await ssa(cluster.client, cvPath, asNew(cvFixture, { name: cvName }));
    const storedCv = await writeStatus(cluster.client, cvPath, cvFixture.status);
    expect(storedCv.status).toEqual(cvFixture.status);
  });

  it('exposes the run kubeconfig to tests', () => {
    expect(runControlPlane().kubeconfig).toMatch(/kubeconfig$/);
  });
});
