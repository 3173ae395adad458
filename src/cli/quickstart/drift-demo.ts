import { z } from 'zod';
import { waitFor } from '../../apply/wait.js';
import type { KubeClient } from '../../cluster/client.js';
import { objectSchema } from '../../core/cluster-object.js';
import { hasCode } from '../../core/errors.js';

/** The demo's ConfigMap, and the Events the agent writes about it, as read back. */
const configMapSchema = objectSchema.extend({ data: z.record(z.string(), z.string()) });
const eventListSchema = z.looseObject({
  items: z.array(
    z.looseObject({
      reason: z.string().optional(),
      note: z.string().optional(),
      regarding: z.looseObject({ name: z.string().optional() }).optional(),
    }),
  ),
});

/** How the agent answered an out-of-band edit. */
export interface DriftAnswer {
  /** Edit to the agent's `DriftDetected` Event; undefined when none came within the wait. */
  detected?: { afterMs: number; note: string };
  /** Edit to the field holding git's value again, with the `DriftCorrected` Event's note if seen. */
  restored?: { afterMs: number; note: string | undefined };
}

export interface DriftDemoOptions {
  namespace: string;
  configMap: string;
  key: string;
  /** The value the edit writes. */
  value: string;
  /** How long to wait for each answer. @default 10_000 */
  timeoutMs?: number;
}

/**
 * Edits one key of a ConfigMap the platform manages, as `kubectl edit` would (field manager
 * `kubectl-edit`), then waits for the agent's answers in the cluster: the `DriftDetected` Event on
 * the object, then the field back at its value from git (self-heal) and the `DriftCorrected` Event.
 * Waits on what the agent writes to the cluster, never on the agent's memory.
 */
export async function editAndWatch(client: KubeClient, opts: DriftDemoOptions): Promise<DriftAnswer> {
  const path = `/api/v1/namespaces/${opts.namespace}/configmaps/${opts.configMap}`;
  const before = await client.request('GET', path, { schema: configMapSchema });
  const gitValue = before.data[opts.key];
  await client.request('PUT', path, {
    body: { ...before, data: { ...before.data, [opts.key]: opts.value } },
    query: { fieldManager: 'kubectl-edit' },
  });
  const editedAt = Date.now();
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const event = (reason: string) => async () =>
    (
      await client.request('GET', `/apis/events.k8s.io/v1/namespaces/${opts.namespace}/events`, {
        schema: eventListSchema,
      })
    ).items.find((e) => e.reason === reason && e.regarding?.name === opts.configMap);

  const answer: DriftAnswer = {};
  const detected = await until(event('DriftDetected'), timeoutMs, 'DriftDetected');
  if (detected) answer.detected = { afterMs: Date.now() - editedAt, note: detected.note ?? '' };
  const restored = await until(
    async () => (await client.request('GET', path, { schema: configMapSchema })).data[opts.key] === gitValue,
    timeoutMs,
    `${opts.configMap} restored`,
  );
  if (restored)
    answer.restored = {
      afterMs: Date.now() - editedAt,
      note: (await until(event('DriftCorrected'), timeoutMs, 'DriftCorrected'))?.note,
    };
  return answer;
}

/** `check`'s first truthy value, polled with `waitFor`; undefined after `timeoutMs`. */
async function until<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs: number,
  what: string,
): Promise<T | undefined> {
  let found: T | undefined;
  try {
    await waitFor(
      async () => {
        const v = await check();
        if (v) found = v;
        return { done: Boolean(v), pending: [what] };
      },
      { what, timeoutMs, intervalMs: 100 },
    );
  } catch (err) {
    if (hasCode(err, 'WaitTimeout')) return undefined;
    throw err;
  }
  return found;
}
