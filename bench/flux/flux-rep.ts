// One repetition of Flux's side of `bench flux`: kustomize-controller in one configuration, on one
// workload, in a fresh namespace: first sync, no-op, one-object change and (when asked) drift.
import type { KubeClient } from '../../src/cluster/client.js';
import type { K8sObject } from '../../src/core/object.js';
import { changeFirstConfigMap } from '../objects.js';
import type { FluxConfig } from './configs.js';
import {
  createKustomization,
  kustomizationApplied,
  kustomizationSettled,
  patchKustomization,
  publishGitRepository,
  type ArtifactServer,
  type RunningFlux,
} from './flux.js';
import { auditOffset, cpuMs, memoryMb, requestsSince } from './proc-stats.js';

const KUSTOMIZE_API = '/apis/kustomize.toolkit.fluxcd.io/v1';

/** What the repetitions share: the control plane's client, the artifact server, the apiserver. */
export interface FluxBench {
  readonly client: KubeClient;
  readonly artifacts: ArtifactServer;
  readonly apiserverPid: number;
  readonly auditLog: string;
}

/** One repetition's figures (milliseconds, requests, MB). */
export interface FluxRep {
  readonly first: number;
  readonly change: number;
  readonly noop: number;
  readonly noopCpu: number;
  readonly noopApi: number;
  readonly noopReq: number;
  /** Out-of-band edit to corrected, when `driftInterval` was given. */
  readonly drift?: number;
  readonly peakMb: number;
}

/**
 * Measures one repetition with `flux` (a controller started for `config`). Resolves to
 * `{ unfinishedMs }` when the first sync is not done within `timeoutMs`; the Kustomization is then
 * suspended, and the caller should replace the controller (its reconcile may still be running).
 * Every Kustomization it creates is suspended before it returns, so no reconcile of it runs
 * during the next measurements.
 */
export async function measureFluxRep(
  bench: FluxBench,
  flux: RunningFlux,
  opts: {
    config: FluxConfig;
    namespace: string;
    objects: readonly K8sObject[];
    rep: number;
    timeoutMs: number;
    driftInterval?: string;
  },
): Promise<FluxRep | { unfinishedMs: number }> {
  const { client, artifacts } = bench;
  const ns = opts.namespace;
  await client.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } });
  const a1 = artifacts.publish(ns, 'platform', opts.objects, `${opts.rep}${'1'.repeat(39)}`);
  let t = performance.now();
  await publishGitRepository(client, ns, 'platform', a1);
  await createKustomization(client, ns, 'platform', { interval: '60m', config: opts.config });
  const applied = await kustomizationApplied(client, ns, 'platform', a1.revision, opts.timeoutMs).then(
    () => true,
    () => false,
  );
  if (!applied) {
    const unfinishedMs = performance.now() - t;
    await patchKustomization(client, ns, 'platform', { suspend: true });
    return { unfinishedMs };
  }
  const first = performance.now() - t;

  const before = {
    flux: cpuMs(flux.process.pid),
    api: cpuMs(bench.apiserverPid),
    at: auditOffset(bench.auditLog),
  };
  t = performance.now();
  await requestReconcile(client, ns, 'platform');
  const noop = performance.now() - t;
  const noopCpu = cpuMs(flux.process.pid) - before.flux;
  const noopApi = cpuMs(bench.apiserverPid) - before.api;
  const noopReq = requestsSince(bench.auditLog, before.at, 'kustomize-controller').total;

  const changed = changeFirstConfigMap(opts.objects, String(opts.rep));
  const a2 = artifacts.publish(ns, 'platform', changed, `${opts.rep}${'2'.repeat(39)}`);
  t = performance.now();
  await publishGitRepository(client, ns, 'platform', a2);
  await kustomizationApplied(client, ns, 'platform', a2.revision, 1_800_000);
  const change = performance.now() - t;
  const drift = opts.driftInterval ? await fluxDrift(client, ns, changed, opts.driftInterval) : undefined;
  await patchKustomization(client, ns, 'platform', { suspend: true });
  return {
    first,
    change,
    noop,
    noopCpu,
    noopApi,
    noopReq,
    ...(drift !== undefined ? { drift } : {}),
    peakMb: memoryMb(flux.process.pid).peak,
  };
}

/** Asks for a reconcile (`reconcile.fluxcd.io/requestedAt`) and resolves once it was handled. */
async function requestReconcile(client: KubeClient, ns: string, name: string): Promise<void> {
  const path = `${KUSTOMIZE_API}/namespaces/${ns}/kustomizations/${name}`;
  const requestedAt = new Date().toISOString();
  await client.request('PATCH', path, {
    body: { metadata: { annotations: { 'reconcile.fluxcd.io/requestedAt': requestedAt } } },
    contentType: 'application/merge-patch+json',
  });
  for (;;) {
    const k = await client.request<{ status?: { lastHandledReconcileAt?: string } }>('GET', path);
    if (k.status?.lastHandledReconcileAt === requestedAt) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Flux's drift correction: with the Kustomization's interval set to `interval`, an out-of-band
 * edit of one managed ConfigMap, until kustomize-controller has put it back. Flux reports nothing
 * in between: the next interval's apply corrects it (and names it in its change-set event).
 */
async function fluxDrift(
  client: KubeClient,
  ns: string,
  objects: readonly { kind: string; metadata: { name: string } }[],
  interval: string,
): Promise<number> {
  await patchKustomization(client, ns, 'platform', { interval });
  await kustomizationSettled(client, ns, 'platform');
  const name = objects.find((o) => o.kind === 'ConfigMap')!.metadata.name;
  const path = `/api/v1/namespaces/${ns}/configmaps/${name}`;
  const before = await client.request<{ data: Record<string, string> }>('GET', path);
  const t = performance.now();
  await client.request('PATCH', path, {
    body: { data: Object.fromEntries(Object.keys(before.data).map((k) => [k, 'drifted'])) },
    contentType: 'application/merge-patch+json',
    query: { fieldManager: 'kubectl-edit' },
  });
  for (;;) {
    const now = await client.request<{ data: Record<string, string> }>('GET', path);
    if (JSON.stringify(now.data) === JSON.stringify(before.data)) return performance.now() - t;
    if (performance.now() - t > 1_800_000) throw new Error(`Flux did not correct ${ns}/${name}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
