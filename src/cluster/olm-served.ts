import { z } from 'zod';
import { GroundworkError } from '../core/errors.js';
import type { K8sObject } from '../core/object.js';
import { ApiError, isNotFound } from './api-error.js';
import type { KubeClient } from './client.js';

/** What the cluster shows of OLM, as far as `olmNotServed` needs it. */
export interface OlmPresence {
  /** Whether `subscriptions.operators.coreos.com` is served (its list answers). */
  readonly crdsServed: boolean;
  /** How many CatalogSources and Subscriptions the cluster has (of the first page of each). */
  readonly catalogSources: number;
  readonly subscriptions: number;
  /** Whether any of them has a `status` written: something (OLM's catalog or OLM operator) acts on them. */
  readonly statusWritten: boolean;
}

const OLM = '/apis/operators.coreos.com/v1alpha1';
const listSchema = z.object({ items: z.array(z.object({ status: z.unknown().optional() })) });

/**
 * Reads two lists (one page of 100 each) to tell whether OLM runs: the Subscription CRD served, and
 * a `status` on any CatalogSource or Subscription. Cheap and honest: every OLM writes CatalogSource
 * status (connectionState) within seconds of start, and nothing else does. Does not decide.
 * `undefined` when the user may not list them (403): then nothing is known and nothing is said.
 */
export async function observeOlm(client: KubeClient): Promise<OlmPresence | undefined> {
  const list = (plural: string) =>
    client.request('GET', `${OLM}/${plural}?limit=100`, { schema: listSchema }).then(
      (l) => l.items,
      (err: unknown) => {
        if (isNotFound(err)) return undefined;
        throw err;
      },
    );
  let listed: [Awaited<ReturnType<typeof list>>, Awaited<ReturnType<typeof list>>];
  try {
    listed = await Promise.all([list('catalogsources'), list('subscriptions')]);
  } catch (err) {
    if (err instanceof ApiError && err.status === 403) return undefined;
    throw err;
  }
  const [sources, subs] = listed;
  const items = [...(sources ?? []), ...(subs ?? [])];
  return {
    crdsServed: subs !== undefined,
    catalogSources: sources?.length ?? 0,
    subscriptions: subs?.length ?? 0,
    statusWritten: items.some((i) => i.status !== undefined && i.status !== null),
  };
}

/**
 * The error to stop `apply` with (or warn `plan` with) when the platform has Subscriptions and the
 * cluster has no OLM acting on them: no `operators.coreos.com` CRDs, or CRDs but no status written
 * on any CatalogSource or Subscription. `undefined` when the platform has no Subscription or OLM
 * shows signs of life. Pure.
 */
export function olmNotServed(
  desired: readonly { readonly object: K8sObject }[],
  presence: OlmPresence,
): GroundworkError | undefined {
  const subs = desired.filter(
    (m) => m.object.kind === 'Subscription' && m.object.apiVersion.startsWith('operators.coreos.com/'),
  );
  if (subs.length === 0 || (presence.crdsServed && presence.statusWritten)) return undefined;
  const first = subs[0]!.object;
  const why = presence.crdsServed
    ? `the cluster has the OLM CRDs but nothing acts on them (no status on its ${presence.catalogSources} CatalogSource(s) or ${presence.subscriptions} Subscription(s)): OLM is not running`
    : 'the cluster serves no operators.coreos.com API: OLM is not installed';
  return new GroundworkError({
    code: 'OlmNotServed',
    subject: `Subscription/${first.metadata.namespace ?? ''}/${first.metadata.name}${subs.length > 1 ? ` and ${subs.length - 1} more` : ''}`,
    message: `${why}, so no operator would ever be installed`,
    fix: 'for a local cluster run `groundwork cluster up --openshift` (OLM, CVO and MCO simulators); else install OLM (operator-lifecycle-manager) or use an OpenShift cluster',
  });
}
