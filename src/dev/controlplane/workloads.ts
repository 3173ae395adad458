import { ApiError } from '../../cluster/api-error.js';
import type { KubeClient } from '../../cluster/client.js';
import type { Progress } from '../../core/progress.js';
import type { ControlPlaneCredentials } from './credentials.js';
import { startKwok } from './kwok.js';
import { nodeListSchema, nodeObject, nodeReady, type NodeSpec } from './nodes.js';
import type { ManagedProcess } from './process.js';
import { waitUntil } from './readiness.js';
import { startScheduler, type ApiserverEndpoint } from './scheduler.js';
import type { WorkloadBinaries } from './workload-binaries.js';

/**
 * kube-controller-manager controllers that make nodes and workloads behave as on a cluster once pods
 * can run: `node-lifecycle-controller` lifts the `not-ready` taint the apiserver puts on a new node
 * once KWOK reports it Ready (and marks it NotReady if KWOK's lease heartbeat stops); the StatefulSet,
 * DaemonSet, Job and CronJob controllers make and report pods; `disruption-controller` keeps
 * PodDisruptionBudgets current (drains respect them); pod GC and TTL-after-finished clean up;
 * `endpointslice-controller` lists a Service's ready pods.
 */
export const WORKLOAD_CONTROLLERS = [
  'node-lifecycle-controller',
  'statefulset-controller',
  'daemonset-controller',
  'job-controller',
  'cronjob-controller',
  'ttl-after-finished-controller',
  'disruption-controller',
  'pod-garbage-collector-controller',
  'endpointslice-controller',
] as const;

/**
 * Makes pods run on the local control plane: starts kube-scheduler (ready when its `/readyz` is),
 * then KWOK, then registers `nodes` as kubelets would (`nodeObject`; an existing node is left as
 * it is) and resolves once KWOK has turned every one of them Ready. Returns the processes started,
 * scheduler first; the caller stops them (in reverse) with the rest of the control plane. On a
 * failure it stops what it started and rejects with the failing process's log tail.
 */
export async function startWorkloads(opts: {
  binaries: WorkloadBinaries;
  apiserver: ApiserverEndpoint;
  credentials: ControlPlaneCredentials;
  admin: KubeClient;
  nodes: readonly NodeSpec[];
  workDir: string;
  detached?: boolean;
  progress: Progress;
}): Promise<ManagedProcess[]> {
  const started: ManagedProcess[] = [];
  try {
    opts.progress.start('starting kube-scheduler');
    started.push(
      await startScheduler({
        binary: opts.binaries.kubeScheduler,
        apiserver: opts.apiserver,
        token: opts.credentials.schedulerToken,
        workDir: opts.workDir,
        detached: opts.detached,
      }),
    );
    opts.progress.start(`starting KWOK with ${opts.nodes.length} nodes`);
    started.push(
      await startKwok({
        binary: opts.binaries.kwok,
        apiserver: opts.apiserver,
        token: opts.credentials.kwokToken,
        admin: opts.admin,
        workDir: opts.workDir,
        detached: opts.detached,
      }),
    );
    await registerNodes(opts.admin, opts.nodes);
    await waitUntil({
      subject: 'KWOK nodes',
      processes: started,
      timeoutMs: 60_000,
      check: async () => {
        const notReady = await nodesNotReady(opts.admin, opts.nodes);
        return notReady.length === 0 ? true : `not Ready: ${notReady.join(', ')}`;
      },
    });
    return started;
  } catch (err) {
    for (const p of started.reverse()) await p.stop(2000);
    throw err;
  }
}

async function registerNodes(admin: KubeClient, nodes: readonly NodeSpec[]): Promise<void> {
  for (const [index, spec] of nodes.entries()) {
    await admin.request('POST', '/api/v1/nodes', { body: nodeObject(spec, index) }).catch((err: unknown) => {
      if (!(err instanceof ApiError && err.status === 409)) throw err;
    });
  }
}

/** The names of `nodes` whose Ready condition is not True (yet). */
async function nodesNotReady(admin: KubeClient, nodes: readonly NodeSpec[]): Promise<string[]> {
  const list = await admin.request('GET', '/api/v1/nodes', { schema: nodeListSchema });
  const ready = new Set(list.items.filter(nodeReady).map((n) => n.metadata.name));
  return nodes.map((n) => n.name).filter((name) => !ready.has(name));
}
