// What the simulated CVO writes on ClusterOperators during an update: their versions, one by one,
// and a transient Degraded condition when the simulator plays a failure.
import type { KubeClient } from '../../cluster/client.js';
import type { K8sObject } from '../../core/object.js';
import { PATHS, objectPath } from './api.js';
import type { StatusCondition } from './cvo-updates.js';
import { sameJson } from './json.js';
import { writeStatus } from './status.js';

/** `Degraded=True` on the failing operator, `False` again on the others the simulator degraded. */
export async function markDegraded(
  client: KubeClient,
  operators: readonly K8sObject[],
  failing: string | undefined,
  now: string,
): Promise<void> {
  for (const co of operators) {
    const status = structuredClone((co.status ?? {}) as { conditions?: StatusCondition[] });
    const conditions = status.conditions ?? [];
    const degraded = conditions.find((c) => c.type === 'Degraded');
    const want = co.metadata.name === failing ? 'True' : 'False';
    if ((degraded?.status ?? 'False') === want) continue;
    const next: StatusCondition = {
      type: 'Degraded',
      status: want,
      lastTransitionTime: now,
      ...(want === 'True'
        ? {
            reason: 'RolloutDegraded',
            message: `${co.metadata.name} is rolling out a new revision and a pod is not ready`,
          }
        : { reason: 'AsExpected' }),
    };
    status.conditions = [...conditions.filter((c) => c.type !== 'Degraded'), next];
    await writeStatus(client, objectPath(PATHS.clusterOperators, co.metadata.name), status);
  }
}

/** The first `count` owned ClusterOperators (by name) report the new version; all of them at the end. */
export async function moveOperators(
  client: KubeClient,
  operators: readonly K8sObject[],
  from: string,
  to: string,
  count: number,
): Promise<void> {
  const sorted = [...operators].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
  for (const co of sorted.slice(0, count)) {
    const status = structuredClone((co.status ?? {}) as { versions?: { name: string; version: string }[] });
    const versions = status.versions?.map((v) => ({
      name: v.name,
      version: v.version.startsWith(from) ? to + v.version.slice(from.length) : v.version,
    }));
    if (!versions || sameJson(versions, status.versions)) continue;
    await writeStatus(client, objectPath(PATHS.clusterOperators, co.metadata.name), {
      ...status,
      versions,
    });
  }
}
