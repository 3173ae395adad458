import { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import { errorMessage } from '../core/errors.js';
import type { ClusterObservation, ObservedSync } from '../fleet/gates.js';
import type { FleetMember } from '../project/fleet-file.js';
import { SyncStatus } from '../report/sync-status.js';
import { z } from 'zod';
import { KubeClient } from './client.js';
import { kubeconfigSource } from './kubeconfig-source.js';
import { isOperatorKubeconfig } from './kubeconfig-trust.js';
import { PLATFORM_SYNC_API_VERSION, platformSyncSchema } from './sync-status-store.js';

/**
 * Every context of a kubeconfig (`--kubeconfig`, else $KUBECONFIG, else ~/.kube/config) as a fleet
 * member. The members name no kubeconfig: `observeFleet` reaches them through the operator's own.
 */
export function membersFromKubeconfig(kubeconfig: string | undefined): FleetMember[] {
  const source = kubeconfigSource(kubeconfig);
  const kc = new KubeConfig();
  if (source.kind === 'in-cluster') return [];
  if (source.paths.length === 1) kc.loadFromFile(source.paths[0]!);
  else kc.loadFromDefault();
  return kc.getContexts().map((c) => ({ name: c.name, context: c.name }));
}

/**
 * Reads the PlatformSync objects of every member, at most `concurrency` at a time, each bounded by
 * `timeoutMs`. A cluster that cannot be read (unreachable, unauthorized, no PlatformSync CRD) is an
 * observation with an `error`, never left out.
 */
export async function observeFleet(
  members: readonly FleetMember[],
  opts: { timeoutMs?: number; concurrency?: number; kubeconfig?: string } = {},
): Promise<ClusterObservation[]> {
  const out: ClusterObservation[] = new Array(members.length);
  let next = 0;
  const worker = async () => {
    while (next < members.length) {
      const i = next++;
      out[i] = await observeOne(members[i]!, opts.timeoutMs ?? 10_000, opts.kubeconfig);
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? 8, members.length) }, worker));
  return out;
}

/** PlatformSyncs of every namespace (list items may leave out apiVersion and kind). */
const platformSyncListSchema = z.looseObject({
  items: z.array(platformSyncSchema.partial({ apiVersion: true, kind: true })),
});

async function observeOne(
  m: FleetMember,
  timeoutMs: number,
  kubeconfig?: string,
): Promise<ClusterObservation> {
  let client: KubeClient | undefined;
  try {
    const file = m.kubeconfig ?? kubeconfig;
    // A kubeconfig a fleet file named runs no credential plugin unless the operator names it too.
    const namedBy =
      m.kubeconfig && m.kubeconfigNamedBy && !isOperatorKubeconfig(m.kubeconfig, kubeconfig)
        ? m.kubeconfigNamedBy
        : undefined;
    client = await KubeClient.load({
      ...(file ? { kubeconfig: file } : {}),
      ...(namedBy ? { namedBy } : {}),
      context: m.context,
      userAgent: 'groundwork-fleet',
      retries: 1,
    });
    const list = await client.request('GET', `/apis/${PLATFORM_SYNC_API_VERSION}/platformsyncs`, {
      signal: AbortSignal.timeout(timeoutMs),
      noRetry: true,
      schema: platformSyncListSchema,
    });
    const syncs: ObservedSync[] = list.items.map((p) => {
      // One status this version cannot read (another agent's version) spoils that sync, not the cluster.
      let status: ObservedSync['status'];
      let statusProblem: string | undefined;
      try {
        status = p.status === undefined ? undefined : SyncStatus.parse(p.status).value;
      } catch (err) {
        statusProblem = firstLine(errorMessage(err));
      }
      return {
        name: p.metadata.name,
        namespace: p.metadata.namespace ?? '',
        overlay: p.spec.overlay,
        repository: {
          url: p.spec.repository.url,
          ...(p.spec.repository.ref.branch ? { branch: p.spec.repository.ref.branch } : {}),
          ...(p.spec.repository.path ? { path: p.spec.repository.path } : {}),
        },
        status,
        ...(statusProblem ? { statusProblem } : {}),
      };
    });
    return { cluster: m.name, context: m.context, syncs };
  } catch (err) {
    return { cluster: m.name, context: m.context, error: firstLine(errorMessage(err)), syncs: [] };
  } finally {
    client?.close();
  }
}

function firstLine(s: string): string {
  const line = s.split('\n')[0] ?? s;
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
