import { z } from 'zod';
import type { K8sObject } from '../core/object.js';
import { redactText } from '../core/redact.js';
import type { EventRow } from './snapshot.js';

/** The fields of a core/v1 Event the object page reads (events.k8s.io writes them too). */
const eventSchema = z.looseObject({
  metadata: z.looseObject({ namespace: z.string().optional() }).optional(),
  type: z.string().optional(),
  reason: z.string().optional(),
  message: z.string().optional(),
  count: z.number().optional(),
  lastTimestamp: z.string().nullish(),
  eventTime: z.string().nullish(),
  firstTimestamp: z.string().nullish(),
  involvedObject: z.looseObject({
    kind: z.string().optional(),
    name: z.string().optional(),
    namespace: z.string().optional(),
    uid: z.string().optional(),
  }),
  source: z.looseObject({ component: z.string().optional() }).optional(),
  reportingComponent: z.string().optional(),
});

/**
 * The Events about `obj` (by uid, else kind, namespace and name), newest first, at most `limit`;
 * each message through `redactText` (an Event note can quote anything). Events that do not parse
 * are skipped. Pure.
 */
export function eventsFor(
  obj: Pick<K8sObject, 'kind' | 'metadata'>,
  events: readonly unknown[],
  limit = 50,
): EventRow[] {
  const rows: EventRow[] = [];
  for (const raw of events) {
    const parsed = eventSchema.safeParse(raw);
    if (!parsed.success) continue;
    const e = parsed.data;
    const io = e.involvedObject;
    const same =
      obj.metadata.uid && io.uid
        ? io.uid === obj.metadata.uid
        : io.kind === obj.kind &&
          io.name === obj.metadata.name &&
          (io.namespace ?? '') === (obj.metadata.namespace ?? '');
    if (!same) continue;
    rows.push({
      namespace: e.metadata?.namespace ?? '',
      type: e.type ?? '',
      reason: e.reason ?? '',
      note: redactText(e.message ?? ''),
      count: e.count ?? 1,
      last: e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? '',
      source: e.reportingComponent || e.source?.component || '',
    });
  }
  return rows.sort((a, b) => b.last.localeCompare(a.last)).slice(0, limit);
}
