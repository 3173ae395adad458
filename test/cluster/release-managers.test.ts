import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/cluster/api-error.js';
import { ClusterApplyTarget } from '../../src/cluster/apply-target.js';
import type { KubeClient } from '../../src/cluster/client.js';
import type { Discovery } from '../../src/cluster/discovery.js';
import type { K8sObject } from '../../src/core/object.js';

/**
 * Releasing kubectl's managers after an adoption (`ClusterApplyTarget.releaseManagers`) when a
 * controller writes the object between the apply and the release: fault injection of the
 * resourceVersion test's 422 (the real apiserver's answer, seen in CI on an ingress-nginx Deployment).
 */
const info = { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true };
const discovery = { resolve: async () => info, tryResolve: async () => info } as unknown as Discovery;

const deployment = (rv: string, managers: string[]): K8sObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'web',
    namespace: 'ns',
    resourceVersion: rv,
    managedFields: managers.map((manager) => ({ manager, operation: 'Apply' })),
  },
});

const moved = () =>
  new ApiError({
    status: 422,
    method: 'PATCH',
    path: '/apis/apps/v1/namespaces/ns/deployments/web',
    body: {
      kind: 'Status',
      reason: 'Invalid',
      message: 'the server rejected our request due to an error in our request',
    },
    text: '',
  });

/** A client whose PATCHes fail with `failures` first, and whose GET returns `reads` in turn. */
function client(failures: Error[], reads: K8sObject[]) {
  const calls: { method: string; body?: unknown }[] = [];
  const fake = {
    request: async (method: string, _path: string, opts: { body?: unknown } = {}) => {
      calls.push({ method, body: opts.body });
      if (method === 'GET') return reads.shift();
      const failure = failures.shift();
      if (failure) throw failure;
      return {};
    },
  } as unknown as KubeClient;
  return { fake, calls };
}

describe('releaseManagers', () => {
  it('reads the object again and retries when it moved since the apply', async () => {
    const { fake, calls } = client(
      [moved()],
      [deployment('12', ['groundwork', 'kubectl-client-side-apply', 'kube-controller-manager'])],
    );
    await new ClusterApplyTarget(fake, discovery).releaseManagers(
      deployment('11', ['groundwork', 'kubectl-client-side-apply']),
      ['kubectl-client-side-apply'],
    );
    expect(calls.map((c) => c.method)).toEqual(['PATCH', 'GET', 'PATCH']);
    expect(calls[2]!.body).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '12' },
      {
        op: 'replace',
        path: '/metadata/managedFields',
        value: [
          { manager: 'groundwork', operation: 'Apply' },
          { manager: 'kube-controller-manager', operation: 'Apply' },
        ],
      },
    ]);
  });

  it('stops when the object read again holds none of those managers', async () => {
    const { fake, calls } = client([moved()], [deployment('12', ['groundwork'])]);
    await new ClusterApplyTarget(fake, discovery).releaseManagers(
      deployment('11', ['groundwork', 'kubectl-client-side-apply']),
      ['kubectl-client-side-apply'],
    );
    expect(calls.map((c) => c.method)).toEqual(['PATCH', 'GET']);
  });

  it('gives up after five attempts, and at once on another failure', async () => {
    const obj = deployment('11', ['groundwork', 'kubectl']);
    const always = client(
      Array.from({ length: 5 }, moved),
      Array.from({ length: 5 }, (_, i) => deployment(String(12 + i), ['groundwork', 'kubectl'])),
    );
    await expect(
      new ClusterApplyTarget(always.fake, discovery).releaseManagers(obj, ['kubectl']),
    ).rejects.toThrow(/rejected our request/);
    expect(always.calls.filter((c) => c.method === 'PATCH')).toHaveLength(5);
    const other = client([new Error('connection reset')], []);
    await expect(
      new ClusterApplyTarget(other.fake, discovery).releaseManagers(obj, ['kubectl']),
    ).rejects.toThrow('connection reset');
    expect(other.calls.map((c) => c.method)).toEqual(['PATCH']);
  });
});
