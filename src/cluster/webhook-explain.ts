import { z } from 'zod';
import { ApiError } from './api-error.js';
import type { KubeClient } from './client.js';

const webhookConfigs = z.object({
  items: z.array(
    z.object({
      metadata: z.object({ name: z.string() }),
      webhooks: z
        .array(
          z.object({
            name: z.string(),
            failurePolicy: z.string().optional(),
            clientConfig: z.object({
              service: z.object({ namespace: z.string(), name: z.string() }).optional(),
              url: z.string().optional(),
            }),
          }),
        )
        .default([]),
    }),
  ),
});
const serviceSchema = z.object({ spec: z.object({ selector: z.record(z.string(), z.string()).optional() }) });
const workloads = z.object({
  items: z.array(
    z.object({
      metadata: z.object({ name: z.string() }),
      spec: z.object({
        replicas: z.number().optional(),
        template: z.object({
          metadata: z.object({ labels: z.record(z.string(), z.string()).optional() }).optional(),
        }),
      }),
      status: z
        .object({ readyReplicas: z.number().optional(), numberReady: z.number().optional() })
        .optional(),
    }),
  ),
});

/** The webhook a server message says it failed calling (`failed calling webhook "<name>"`), if any. */
export function failedWebhook(message: string): string | undefined {
  return /failed calling webhook "([^"]{1,253})"/.exec(message)?.[1];
}

/**
 * Why an admission webhook cannot be called, as the cluster shows it: its configuration (kind and
 * name), its failurePolicy (Fail refuses every write it matches while it is down), its Service, and
 * the workloads the Service selects with their ready replicas. Reads webhook configurations, the
 * Service and Deployments, StatefulSets and DaemonSets of its namespace; returns undefined when no
 * configuration declares the webhook. Never throws for a read it is not allowed (says less instead).
 */
export async function explainWebhook(client: KubeClient, webhook: string): Promise<string | undefined> {
  for (const kind of ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration']) {
    const list = await read(
      client,
      `/apis/admissionregistration.k8s.io/v1/${kind.toLowerCase()}s`,
      webhookConfigs,
    );
    for (const config of list?.items ?? []) {
      const hook = config.webhooks.find((w) => w.name === webhook);
      if (!hook) continue;
      const head = `admission webhook ${webhook} of ${kind}/${config.metadata.name} (failurePolicy ${hook.failurePolicy ?? 'Fail'})`;
      const svc = hook.clientConfig.service;
      if (!svc) return `${head} calls ${hook.clientConfig.url ?? 'a URL'}, which does not answer`;
      return `${head} calls Service ${svc.namespace}/${svc.name}: ${await behind(client, svc)}`;
    }
  }
  return undefined;
}

/** What serves a Service: its selected workloads and how many of their replicas are ready. */
async function behind(client: KubeClient, svc: { namespace: string; name: string }): Promise<string> {
  const service = await read(
    client,
    `/api/v1/namespaces/${svc.namespace}/services/${svc.name}`,
    serviceSchema,
  );
  if (service === null) return 'the Service does not exist';
  if (service === undefined) return 'the Service could not be read';
  const selector = service.spec.selector ?? {};
  const found: string[] = [];
  for (const [kind, path] of [
    ['Deployment', 'deployments'],
    ['StatefulSet', 'statefulsets'],
    ['DaemonSet', 'daemonsets'],
  ] as const) {
    const list = await read(client, `/apis/apps/v1/namespaces/${svc.namespace}/${path}`, workloads);
    for (const w of list?.items ?? []) {
      const labels = w.spec.template.metadata?.labels ?? {};
      if (Object.keys(selector).length === 0 || !Object.entries(selector).every(([k, v]) => labels[k] === v))
        continue;
      const ready = w.status?.readyReplicas ?? w.status?.numberReady ?? 0;
      found.push(`${kind}/${svc.namespace}/${w.metadata.name} (${ready}/${w.spec.replicas ?? 1} ready)`);
    }
  }
  return found.length > 0
    ? `served by ${found.join(', ')}; the writes it checks are refused until it runs`
    : 'no Deployment, StatefulSet or DaemonSet in its namespace runs the pods it selects';
}

/** A parsed read; null when the object does not exist, undefined when it cannot be read. */
async function read<T>(
  client: KubeClient,
  path: string,
  schema: z.ZodType<T>,
): Promise<T | null | undefined> {
  try {
    return schema.parse(await client.request('GET', path, { noRetry: true }));
  } catch (err) {
    return err instanceof ApiError && err.status === 404 ? null : undefined;
  }
}
