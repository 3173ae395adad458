import type { ApplyTarget } from '../apply/target.js';
import { describe } from '../core/object-id.js';
import type { K8sObject } from '../core/object.js';
import { assessHealth, rollUp } from '../health/index.js';
import type { HealthVerdict } from '../health/types.js';
import type { SynthResult } from '../render/synth/synthesize.js';

/**
 * Health of a revision's desired objects, rolled up: from what the cycle observed, re-reading only
 * the objects the cycle wrote (their status is what changed) or did not see, so a no-op cycle reads
 * nothing more. An object absent from the cluster is `Missing`. Throws when a read fails.
 */
export async function desiredHealth(
  target: ApplyTarget,
  synth: SynthResult,
  observed: ReadonlyMap<string, K8sObject>,
  written: ReadonlySet<string>,
): Promise<HealthVerdict> {
  const reread = synth.manifests.filter((m) => written.has(m.id) || !observed.has(m.id));
  const fresh = reread.length
    ? await target.fetch(
        reread.map((m) => ({
          id: m.id,
          apiVersion: m.object.apiVersion,
          kind: m.object.kind,
          group: m.id.split('_')[2]!,
          namespace: m.object.metadata.namespace ?? '',
        })),
      )
    : new Map<string, K8sObject>();
  const live = (id: string) => fresh.get(id) ?? (written.has(id) ? undefined : observed.get(id));
  return rollUp(
    synth.manifests.map((m) => {
      const obj = live(m.id);
      return {
        subject: describe(m.object),
        ...(obj
          ? assessHealth(obj)
          : { status: 'Missing' as const, reason: 'NotFound', message: 'not in the cluster' }),
      };
    }),
  );
}
