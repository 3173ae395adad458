import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { KubeClient } from '../../src/cluster/client.js';
import type { K8sObject } from '../../src/core/object.js';
import { installCrds } from '../../src/cluster/crds.js';
import { LocalControlPlane } from '../../src/dev/controlplane/control-plane.js';
import { defaultCrdDirs } from '../../src/core/crd-dirs.js';
import { readObjects } from '../../src/core/yaml-files.js';
import type { NodeSpec } from '../../src/dev/controlplane/nodes.js';
import { runControlPlane } from './run-control-plane.js';
import { useWorkloadBinaries } from './workload-binaries.js';

/** Handles a test gets from `useCluster()`; valid inside tests and hooks. */
export interface ClusterContext {
  /** Admin client on the run's control plane. */
  readonly client: KubeClient;
  /** A fresh namespace created for the current test and deleted after it. */
  readonly namespace: string;
  readonly kubeconfig: string;
}

/**
 * Registers hooks that give each test a fresh namespace on the run's real control plane.
 * @example
 * const cluster = useCluster();
 * it('applies', async () => { await ssa(cluster.client, {...metadata: {namespace: cluster.namespace}}) });
 */
export function useCluster(
  opts: { namespacePrefix?: string; controlPlane?: DedicatedControlPlane } = {},
): ClusterContext {
  let client: KubeClient | undefined;
  let namespace = '';
  const kubeconfigOf = () => opts.controlPlane?.kubeconfig ?? runControlPlane().kubeconfig;
  beforeAll(async () => {
    client = await KubeClient.load({ kubeconfig: kubeconfigOf() });
  });
  beforeEach(async () => {
    namespace = `${opts.namespacePrefix ?? 'gw-test'}-${randomBytes(3).toString('hex')}`;
    await client!.request('POST', '/api/v1/namespaces', { body: { metadata: { name: namespace } } });
  });
  afterEach(async () => {
    // Background deletion: kube-controller-manager's namespace controller empties it.
    await client!.request('DELETE', `/api/v1/namespaces/${namespace}`).catch(() => undefined);
  });
  afterAll(() => client?.close());
  return {
    get client() {
      if (!client) throw new Error('useCluster: client used outside a test');
      return client;
    },
    get namespace() {
      return namespace;
    },
    get kubeconfig() {
      return kubeconfigOf();
    },
  };
}

/** A control plane of a test file's own (see `useDedicatedControlPlane`). */
export interface DedicatedControlPlane {
  readonly kubeconfig: string;
  /** Its apiserver audit log (for `auditOffset`/`auditedWrites`). */
  readonly auditLog: string;
  readonly controlPlane: LocalControlPlane;
}

/**
 * Starts a control plane of the test file's own, with the fixture CRDs, for tests that create
 * cluster-wide state an OpenShift cluster has once (ClusterVersion `version`, ClusterOperators, the
 * master/worker pools) or that restart the apiserver. Stopped after the file. Register it before
 * `useCluster({ controlPlane })`. With `nodes`, pods run (kube-scheduler, KWOK and these nodes;
 * their binaries found or built first, `useWorkloadBinaries`).
 */
export function useDedicatedControlPlane(opts: { nodes?: readonly NodeSpec[] } = {}): DedicatedControlPlane {
  let cp: LocalControlPlane | undefined;
  if (opts.nodes) useWorkloadBinaries();
  beforeAll(async () => {
    cp = await LocalControlPlane.start({
      auditLog: true,
      requireControllerManager: true,
      ...(opts.nodes ? { nodes: opts.nodes } : {}),
    });
    const client = await KubeClient.load({ kubeconfig: cp.info.kubeconfig });
    await installCrds(client, (await Promise.all(defaultCrdDirs().map((d) => readObjects(d)))).flat());
    client.close();
  }, 180_000);
  afterAll(async () => {
    await cp?.stop();
  });
  return {
    get kubeconfig() {
      if (!cp) throw new Error('useDedicatedControlPlane: used before it started');
      return cp.info.kubeconfig;
    },
    get controlPlane() {
      if (!cp) throw new Error('useDedicatedControlPlane: used before it started');
      return cp;
    },
    get auditLog() {
      if (!cp?.info.auditLog) throw new Error('useDedicatedControlPlane: used before it started');
      return cp.info.auditLog;
    },
  };
}

/** Server-side apply of one object at `path` (the object URL) with a field manager. */
export function ssa<T = K8sObject>(
  client: KubeClient,
  path: string,
  obj: unknown,
  opts: { fieldManager?: string; force?: boolean; dryRun?: boolean } = {},
): Promise<T> {
  return client.request<T>('PATCH', path, {
    body: obj,
    contentType: 'application/apply-patch+yaml',
    query: {
      fieldManager: opts.fieldManager ?? 'groundwork-test',
      force: opts.force,
      dryRun: opts.dryRun ? 'All' : undefined,
    },
  });
}

/** Polls `check` until it returns a non-undefined value or `timeoutMs` passes. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 30_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastErr: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      lastErr = err;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${lastErr ? `: ${String(lastErr)}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A write (create/update/patch/delete) recorded in the apiserver's audit log. */
export interface AuditedWrite {
  verb: string;
  user: string;
  userAgent: string;
  uri: string;
  dryRun: boolean;
}

/**
 * Writes the apiserver recorded (from its audit log) after byte `offset`, optionally filtered by user
 * agent. Server-side dry-runs persist nothing and are left out unless `includeDryRuns` is set.
 * Take the offset with `auditOffset()` before the action under test.
 */
export function auditedWrites(
  offset: number,
  userAgentPrefix?: string,
  opts: { includeDryRuns?: boolean; log?: string } = {},
): AuditedWrite[] {
  const text = readFileSync(opts.log ?? runControlPlane().auditLog, 'utf8').slice(offset);
  return text
    .split('\n')
    .filter(Boolean)
    .map(
      (line) =>
        JSON.parse(line) as {
          verb: string;
          user: { username: string };
          userAgent?: string;
          requestURI: string;
          stage: string;
        },
    )
    .filter(
      (e) =>
        e.stage === 'ResponseComplete' &&
        ['create', 'update', 'patch', 'delete', 'deletecollection'].includes(e.verb),
    )
    .map((e) => ({
      verb: e.verb,
      user: e.user.username,
      userAgent: e.userAgent ?? '',
      uri: e.requestURI,
      dryRun: /[?&]dryRun=/.test(e.requestURI),
    }))
    .filter((w) => !userAgentPrefix || w.userAgent.startsWith(userAgentPrefix))
    .filter((w) => opts.includeDryRuns || !w.dryRun);
}

/** Current end of the audit log, to pass to `auditedWrites`. */
export function auditOffset(log: string = runControlPlane().auditLog): number {
  return readFileSync(log, 'utf8').length;
}
