import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { ClusterSession } from '../../src/reconcile/cluster-session.js';
import { observeAndPlan } from '../../src/reconcile/observe-and-plan.js';
import { applyObserved } from '../../src/reconcile/apply-observed.js';
import { driftOf } from '../../src/reconcile/drift-of.js';
import { KubeClient } from '../../src/cluster/client.js';
import type { K8sObject } from '../../src/core/object.js';
import { parseObjects } from '../../src/core/yaml-files.js';
import { auditedWrites, auditOffset, useCluster, useDedicatedControlPlane } from '../harness/cluster.js';
import { synthOf } from '../harness/engine.js';
import { renderStream } from '../../src/render/output/write.js';
import { inNamespace as inArgoNamespace } from '../../bench/namespaced.js';
import { waitFor } from '../../src/apply/wait.js';
import { assessHealth } from '../../src/health/index.js';
import { configMap } from '../harness/engine.js';

// A control plane of its own: these sets install cluster-wide CRDs, RBAC, webhooks and an APIService
// that stays unavailable (metrics-server without a pod), which other tests must not see.
const dedicated = useDedicatedControlPlane();
const cluster = useCluster({ namespacePrefix: 'gw-real', controlPlane: dedicated });
const REV = 'main@sha1:0000000000000000000000000000000000000005';

function fixture(file: string): K8sObject[] {
  const text = readFileSync(new URL(`../fixtures/real-manifests/${file}`, import.meta.url), 'utf8');
  return parseObjects(text, file);
}

/** Argo CD's install.yaml leaves the namespace to `kubectl apply -n argocd`; a platform states it. */
const inNamespace = (objects: K8sObject[], namespace: string) =>
  inArgoNamespace(objects, namespace) as K8sObject[];

// A Secret declared with stringData, as Argo CD's and many charts' are.
const extraSecret = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'ingress-nginx-extra', namespace: 'ingress-nginx' },
  stringData: { token: 's3cr3t', 'config.yaml': 'a: 1\n' },
} as K8sObject;

// metrics-server first: its APIService stays unavailable, and every later set is planned with it there.
const SETS: [string, () => K8sObject[], string][] = [
  [
    'metrics-server v0.8.0 (an APIService with no pod behind it)',
    () => fixture('metrics-server-v0.8.0-components.yaml'),
    'metrics-server',
  ],
  [
    'ingress-nginx v1.5.2 (minReadySeconds: 0, defaulted protocol, healthCheckNodePort, stringData)',
    () => [...fixture('ingress-nginx-v1.5.2.yaml'), extraSecret],
    'ingress',
  ],
  [
    'Argo CD v3.1.8 (large CRDs, quoted "no" strings, NetworkPolicies, a StatefulSet)',
    () => inNamespace(fixture('argo-cd-v3.1.8-install.yaml'), 'argocd'),
    'argocd',
  ],
  [
    'prometheus-operator v0.85.0 (CRDs of up to 450 KB, bare "=" enum values)',
    () => fixture('prometheus-operator-v0.85.0-bundle.yaml'),
    'prometheus-operator',
  ],
];

/** kubectl prints one JSON document per object, one after another. */
function jsonStream(text: string): K8sObject[] {
  const out: K8sObject[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') {
      if (depth++ === 0) start = i;
    } else if (c === '}' && --depth === 0) out.push(JSON.parse(text.slice(start, i + 1)) as K8sObject);
  }
  return out;
}

async function session(): Promise<ClusterSession> {
  const client = await KubeClient.load({ kubeconfig: cluster.kubeconfig, userAgent: 'groundwork-e2e-real' });
  return new ClusterSession(client, { inventoryNamespace: cluster.namespace });
}

describe('real third-party manifests', () => {
  it.each(SETS)(
    '%s: applies them, re-plans and re-applies with zero dry-runs, zero writes and no drift, and kubectl reads the synth output as the same objects',
    async (_name, load, overlay) => {
      const s = await session();
      const objects = load();
      const synth = synthOf(objects, { platform: overlay, overlay });
      const first = await observeAndPlan(s, synth, { revision: REV });
      expect(first.plan.problems.map((i) => `${i.id}: ${i.message ?? ''}`)).toEqual([]);
      const applied = await applyObserved(s, first, { revision: REV, wait: false });
      expect(applied.error).toBeUndefined();
      expect(applied.counts.created).toBe(objects.length);

      const offset = auditOffset(dedicated.auditLog);
      const again = await observeAndPlan(s, synth, { revision: REV });
      expect(again.plan.items.filter((i) => i.action !== 'unchanged').map((i) => i.id)).toEqual([]);
      expect(driftOf(again)).toEqual([]);
      const changes = await applyObserved(s, again, { revision: REV, wait: false });
      expect(changes.error).toBeUndefined();
      expect(changes.counts.unchanged).toBe(objects.length);
      // The audit log is the referee: not one dry-run (nor any other write) for the re-plan and re-apply.
      expect(
        auditedWrites(offset, 'groundwork-e2e-real', { includeDryRuns: true, log: dedicated.auditLog }),
      ).toEqual([]);
      s.client.close();

      // kubectl (a YAML 1.1 reader) reads Groundwork's synth output as the same objects.
      const file = join(mkdtempSync(join(tmpdir(), 'gw-real-')), 'out.yaml');
      writeFileSync(file, renderStream(synth, 'yaml'));
      const read = jsonStream(
        execFileSync(
          inject('kubectl'),
          ['--kubeconfig', cluster.kubeconfig, 'create', '--dry-run=client', '-o', 'json', '-f', file],
          { encoding: 'utf8', maxBuffer: 1 << 28 },
        ),
      );
      const key = (o: K8sObject) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
      const byKey = (list: K8sObject[]) => Object.fromEntries(list.map((o) => [key(o), o]));
      expect(byKey(read)).toEqual(byKey(objects));
    },
    180_000,
  );
});

/** The namespaced objects of ingress-nginx v1.5.2 (its controller's own), moved into `namespace`. */
function ingressObjects(namespace: string): K8sObject[] {
  const kinds = new Set(['ServiceAccount', 'Role', 'RoleBinding', 'ConfigMap', 'Service', 'Deployment']);
  return fixture('ingress-nginx-v1.5.2.yaml')
    .filter((o) => kinds.has(o.kind))
    .map((o) => {
      const moved = JSON.parse(
        JSON.stringify(o).replaceAll('"ingress-nginx"', `"${namespace}"`),
      ) as K8sObject;
      return { ...moved, metadata: { ...moved.metadata, namespace } };
    });
}

describe('objects installed first with kubectl', () => {
  it('are adopted on the first apply (an SSA even where the values match, kubectl released), so a key removed from git leaves the cluster', async () => {
    const s = await session();
    const objects = ingressObjects(cluster.namespace);
    const file = join(mkdtempSync(join(tmpdir(), 'gw-adopt-')), 'ingress.yaml');
    writeFileSync(file, renderStream(synthOf(objects, { overlay: 'adopt' }), 'yaml'));
    execFileSync(inject('kubectl'), ['--kubeconfig', cluster.kubeconfig, 'apply', '-f', file], {
      encoding: 'utf8',
    });

    const synth = synthOf(objects, { platform: `adopt-${cluster.namespace}`, overlay: 'adopt' });
    const first = await observeAndPlan(s, synth, { revision: REV });
    expect(first.plan.problems).toEqual([]);
    expect(first.plan.items).toHaveLength(objects.length);
    expect(new Set(first.plan.items.map((i) => i.action))).toEqual(new Set(['adopt']));
    expect(first.plan.toString()).toContain('to adopt');
    const applied = await applyObserved(s, first, { revision: REV, wait: false });
    expect(applied.error).toBeUndefined();
    expect(applied.entries.map((e) => e.message)).toEqual(
      objects.map(() => 'adopted: Groundwork now owns its fields (released kubectl-client-side-apply)'),
    );
    const again = await observeAndPlan(s, synth, { revision: REV });
    expect(again.plan.items.filter((i) => i.action !== 'unchanged').map((i) => i.id)).toEqual([]);

    // A key git no longer declares goes: Groundwork was its only manager.
    const configMap = objects.find((o) => o.kind === 'ConfigMap')!;
    const without = objects.map((o) =>
      o === configMap ? { ...o, data: { 'use-forwarded-headers': 'true' } } : o,
    ) as K8sObject[];
    const next = synthOf(without, { platform: `adopt-${cluster.namespace}`, overlay: 'adopt' });
    const changes = await applyObserved(s, await observeAndPlan(s, next, { revision: REV }), {
      revision: REV,
      wait: false,
    });
    expect(changes.error).toBeUndefined();
    const live = await s.client.request<{ data: Record<string, string> }>(
      'GET',
      `/api/v1/namespaces/${cluster.namespace}/configmaps/${configMap.metadata.name}`,
    );
    expect(live.data).toEqual({ 'use-forwarded-headers': 'true' });
    s.client.close();
  }, 120_000);
});

describe('a Namespace stuck Terminating', () => {
  it('plan, drift and health name the finalizer that holds it, and nothing is created in it', async () => {
    const s = await session();
    const name = `${cluster.namespace}-held`;
    const guarded = `/api/v1/namespaces/${name}/configmaps/guarded`;
    await s.client.request('POST', '/api/v1/namespaces', { body: { metadata: { name } } });
    await s.client.request('POST', `/api/v1/namespaces/${name}/configmaps`, {
      body: { metadata: { name: 'guarded', finalizers: ['example.com/guard'] } },
    });
    await s.client.request('DELETE', `/api/v1/namespaces/${name}`);
    try {
      // The namespace controller reports the finalizer nobody removes.
      await waitFor(
        async () => {
          const ns = await s.client.request<K8sObject>('GET', `/api/v1/namespaces/${name}`);
          const held = JSON.stringify(ns.status ?? {}).includes('NamespaceFinalizersRemaining');
          return { done: held, pending: held ? [] : ['no NamespaceFinalizersRemaining yet'] };
        },
        { what: 'namespace held', timeoutMs: 60_000, intervalMs: 200 },
      );
      const objects = [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } as K8sObject,
        configMap(name, 'settings', { a: '1' }),
      ];
      const synth = synthOf(objects, { platform: `held-${cluster.namespace}`, overlay: 'held' });
      const observed = await observeAndPlan(s, synth, { revision: REV });
      const [nsItem, cmItem] = ['Namespace', 'ConfigMap'].map((k) =>
        observed.plan.items.find((i) => i.ref.kind === k)!,
      );
      expect([nsItem!.action, nsItem!.reason]).toEqual(['skip', 'NamespaceTerminating']);
      expect(nsItem!.message).toMatch(/held by .*NamespaceFinalizersRemaining: .*example\.com\/guard/);
      expect([cmItem!.action, cmItem!.problem?.code]).toEqual(['create', 'NamespaceTerminating']);
      expect(observed.plan.toString()).toContain('! Namespace');

      const drift = driftOf(observed).find((d) => d.ref.kind === 'Namespace')!;
      expect(drift.fields.map((f) => f.path)).toEqual(['/metadata/deletionTimestamp', '/status/conditions']);
      expect(String(drift.fields[1]!.actual)).toContain('example.com/guard');
      const health = assessHealth(observed.observed.live.get(nsItem!.id)!);
      expect([health.status, health.reason]).toEqual(['Degraded', 'NamespaceFinalizersRemaining']);

      const changes = await applyObserved(s, observed, { revision: REV, wait: false });
      expect(changes.entries.find((e) => e.ref.kind === 'ConfigMap')).toMatchObject({
        action: 'failed',
        code: 'NamespaceTerminating',
      });
    } finally {
      await s.client.request('PATCH', guarded, {
        body: [{ op: 'remove', path: '/metadata/finalizers' }],
        contentType: 'application/json-patch+json',
      });
      s.client.close();
    }
  }, 120_000);
});

describe('an admission webhook whose pods are not running', () => {
  it('plan dry-runs the create it refuses and names the configuration, failurePolicy, Service and unready workload; apply says the same', async () => {
    const s = await session();
    const ns = cluster.namespace;
    // ingress-nginx's webhook, its Service and Deployment (no pod ever runs here), limited to this namespace.
    const objects = ingressObjects(ns).filter((o) => o.kind === 'Service' || o.kind === 'Deployment');
    const hook = fixture('ingress-nginx-v1.5.2.yaml').find(
      (o) => o.kind === 'ValidatingWebhookConfiguration',
    )!;
    const moved = JSON.parse(JSON.stringify(hook).replaceAll('"ingress-nginx"', `"${ns}"`)) as K8sObject & {
      webhooks: Record<string, unknown>[];
    };
    const config = `${ns}-admission`;
    const webhook = {
      ...moved,
      metadata: { ...moved.metadata, name: config },
      webhooks: moved.webhooks.map((w) => ({
        ...w,
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ns } },
      })),
    } as K8sObject;
    const installed = synthOf([...objects, webhook], { platform: `hook-${ns}`, overlay: 'hook' });
    expect(
      (
        await applyObserved(s, await observeAndPlan(s, installed, { revision: REV }), {
          revision: REV,
          wait: false,
        })
      ).error,
    ).toBeUndefined();

    const ingress = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'shop', namespace: ns },
      spec: { defaultBackend: { service: { name: 'shop', port: { number: 80 } } } },
    } as K8sObject;
    const synth = synthOf([...objects, webhook, ingress], { platform: `hook-${ns}`, overlay: 'hook' });
    try {
      const observed = await observeAndPlan(s, synth, { revision: REV });
      const item = observed.plan.items.find((i) => i.ref.kind === 'Ingress')!;
      expect(item.action).toBe('create');
      const named = [
        `admission webhook validate.nginx.ingress.kubernetes.io of ValidatingWebhookConfiguration/${config} (failurePolicy Fail)`,
        `calls Service ${ns}/ingress-nginx-controller-admission`,
        `served by Deployment/${ns}/ingress-nginx-controller (0/1 ready)`,
      ];
      for (const part of named) expect(item.problem?.message).toContain(part);

      const changes = await applyObserved(s, observed, { revision: REV, wait: false });
      const failed = changes.entries.find((e) => e.ref.kind === 'Ingress')!;
      expect(failed.action).toBe('failed');
      for (const part of named) expect(failed.message).toContain(part);
    } finally {
      await s.client.request(
        'DELETE',
        `/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/${config}`,
      );
      s.client.close();
    }
  }, 120_000);
});
