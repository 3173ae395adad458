import { lookup } from 'node:dns/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChangeSet } from '../apply/changeset.js';
import { packageRoot } from '../controlplane/crd-dirs.js';
import type { K8sObject } from '../core/object.js';
import { readObjects } from '../core/yaml-files.js';
import type { GitAuth } from '../source/credentials.js';
import { checkoutRoot } from '../source/checkouts.js';
import { fetchRevision, type SourceRef } from '../source/fetch-revision.js';
import { environmentOf } from '../synth/environments.js';
import { loadProjectConfig } from '../synth/config.js';
import { synthesizeInChild } from '../synth/child/run-in-child.js';
import { compareManifests, setHash, toManifest } from '../synth/manifest.js';
import type { SynthResult } from '../synth/synthesize.js';
import { bootstrapObjects, type BootstrapSpec } from './bootstrap-objects.js';
import { repositoryPort, type AgentEgress } from './network-policy.js';
import { platformRules } from './rbac.js';
import { applyObserved, observeAndPlan, type ClusterSession } from '../engine/reconcile.js';

export interface BootstrapOptions {
  repository: { url: string; ref: SourceRef; path?: string };
  /**
   * When the overlay belongs to an environment of groundwork.yaml (read from `ref`), follow that
   * environment's branch instead of `ref`. Set when no branch, tag or commit was asked for.
   */
  followEnvironment?: boolean;
  overlay: string;
  namespace: string;
  mode: BootstrapSpec['mode'];
  interval: string;
  image: string;
  replicas: number;
  auth?: GitAuth;
  webhookSecret?: string;
  /**
   * The agent's NetworkPolicy: egress to DNS, the apiserver, the git host and `extraCidrs` only.
   * `false` installs none. @default { extraCidrs: [] }
   */
  networkPolicy?: false | { extraCidrs: string[] };
}

/** The agent's objects for a repository, and the platform they were computed from. */
export interface BootstrapPlan {
  platform: SynthResult;
  objects: K8sObject[];
  /** The agent's own inventory: platform `groundwork-agent`, overlay `<platform>-<overlay>`. */
  inventory: SynthResult;
}

/**
 * Computes what installs the agent for a repository: fetches it (the same way the agent will),
 * synthesizes the overlay in a child process, derives least-privilege RBAC from the kinds it
 * manages, and returns Groundwork's CRDs plus `bootstrapObjects`, as the synth result of the
 * agent's own inventory (`groundwork-agent/<platform>-<overlay>`), so re-running bootstrap updates
 * and prunes the agent's objects and never touches the platform's.
 */
export async function planBootstrap(session: ClusterSession, opts: BootstrapOptions): Promise<BootstrapPlan> {
  const cacheDir = await mkdtemp(join(tmpdir(), 'groundwork-bootstrap-'));
  try {
    const fetch = (ref: SourceRef) =>
      fetchRevision({
        url: opts.repository.url,
        ref,
        cacheDir,
        ...(opts.repository.path ? { path: opts.repository.path } : {}),
        ...(opts.auth ? { auth: opts.auth } : {}),
      });
    let ref = opts.repository.ref;
    let fetched = await fetch(ref);
    const environment = opts.followEnvironment
      ? environmentOf((await loadProjectConfig(fetched.dir)).environments ?? [], opts.overlay)
      : undefined;
    // The overlay's environment names the branch its agents follow (promotion moves it).
    if (environment && !('branch' in ref && ref.branch === environment.ref && !('commit' in ref))) {
      ref = { branch: environment.ref };
      fetched = await fetch(ref);
    }
    const [platform] = await synthesizeInChild({
      dir: fetched.dir,
      treeRoot: checkoutRoot(fetched.dir, opts.repository.path ?? '.'),
      overlay: opts.overlay,
    });
    const served = new Map(
      (await session.discovery.all()).map((r) => [
        `${r.group ? `${r.group}/` : ''}${r.version}/${r.kind}`,
        r,
      ]),
    );
    const clusterRules = platformRules(
      platform!.manifests.map((m) => m.object),
      (apiVersion, kind) => served.get(`${apiVersion}/${kind}`),
    );
    const crds = (await readObjects(join(packageRoot, 'crds'))).filter(
      (o) => o.kind === 'CustomResourceDefinition',
    );
    const objects = [
      ...crds,
      ...bootstrapObjects({
        platform: platform!.platform,
        overlay: opts.overlay,
        namespace: opts.namespace,
        repository: {
          url: stripUserinfo(opts.repository.url),
          ref: ref as BootstrapSpec['repository']['ref'],
          ...(opts.repository.path ? { path: opts.repository.path } : {}),
        },
        mode: opts.mode,
        interval: opts.interval,
        image: opts.image,
        replicas: opts.replicas,
        clusterRules,
        ...(opts.auth ? { credentials: opts.auth } : {}),
        ...(opts.webhookSecret ? { webhookSecret: opts.webhookSecret } : {}),
        ...(opts.networkPolicy === false
          ? {}
          : {
              egress: await agentEgress(session, opts.repository.url, opts.networkPolicy?.extraCidrs ?? []),
            }),
      }),
    ];
    const manifests = objects
      .map((o) => toManifest(o, `bootstrap/${o.kind}/${o.metadata.name}`))
      .sort(compareManifests);
    const inventory: SynthResult = {
      platform: 'groundwork-agent',
      overlay: `${platform!.platform}-${opts.overlay}`,
      manifests,
      hash: setHash(manifests),
      warnings: [],
    };
    return { platform: platform!, objects, inventory };
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
  }
}

/**
 * What the agent must reach: the apiserver (the `default/kubernetes` Service's cluster IP on 443,
 * for CNIs that match before DNAT, and its endpoints from the EndpointSlices, for those that match
 * after; or, where the apiserver publishes no endpoints, the address this session connects to) and
 * the git host's current addresses.
 */
async function agentEgress(
  session: ClusterSession,
  repoUrl: string,
  extraCidrs: string[],
): Promise<AgentEgress> {
  const [service, slices] = await Promise.all([
    session.client
      .request<{ spec?: { clusterIP?: string; ports?: { port?: number }[] } }>(
        'GET',
        '/api/v1/namespaces/default/services/kubernetes',
      )
      .catch(() => undefined),
    session.client.request<{
      items: { endpoints?: { addresses?: string[] }[]; ports?: { port?: number }[] }[];
    }>('GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', {
      query: { labelSelector: 'kubernetes.io/service-name=kubernetes' },
    }),
  ]);
  const addresses = slices.items.flatMap((s) => (s.endpoints ?? []).flatMap((e) => e.addresses ?? []));
  const ports = slices.items.flatMap((s) => (s.ports ?? []).map((p) => p.port ?? 443));
  if (addresses.length === 0) {
    const server = new URL(session.client.server);
    addresses.push(...(await addressesOf(server.hostname)));
    ports.push(repositoryPort(server.href));
  }
  const clusterIP = service?.spec?.clusterIP;
  if (clusterIP && clusterIP !== 'None') {
    addresses.push(clusterIP);
    ports.push(...(service?.spec?.ports ?? []).map((p) => p.port ?? 443));
  }
  return {
    apiserver: { addresses, ports },
    git: { addresses: await addressesOf(new URL(repoUrl).hostname), port: repositoryPort(repoUrl) },
    extraCidrs,
  };
}

/** The addresses a host name resolves to now (an IP literal is its own address). */
async function addressesOf(hostname: string): Promise<string[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
}

/** Applies a bootstrap plan (pruning agent objects a previous bootstrap made that are gone now). */
export async function applyBootstrap(
  session: ClusterSession,
  plan: BootstrapPlan,
  revision: string,
): Promise<ChangeSet> {
  const observed = await observeAndPlan(session, plan.inventory, { revision });
  return applyObserved(session, observed, { revision, wait: false, prune: true, allowMassPrune: true });
}

function stripUserinfo(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//');
}
