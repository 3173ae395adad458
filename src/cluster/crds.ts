import { GroundworkError } from '../core/errors.js';
import { findCondition, type K8sObject } from '../core/object.js';
import type { KubeClient } from './client.js';
import { listPageSchema } from './list.js';

const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/**
 * Creates or updates CustomResourceDefinitions with server-side apply (field manager `fieldManager`,
 * forced: these are install-time fixtures, not user state) and waits until each is Established.
 */
export async function installCrds(
  client: KubeClient,
  crds: readonly K8sObject[],
  opts: { fieldManager?: string; timeoutMs?: number } = {},
): Promise<string[]> {
  const names = crds.filter((c) => c.kind === 'CustomResourceDefinition').map((c) => c.metadata.name);
  await Promise.all(
    crds
      .filter((c) => c.kind === 'CustomResourceDefinition')
      .map((crd) =>
        client.request('PATCH', `${CRD_PATH}/${crd.metadata.name}`, {
          body: crd,
          contentType: 'application/apply-patch+yaml',
          query: { fieldManager: opts.fieldManager ?? 'groundwork-controlplane', force: true },
        }),
      ),
  );
  await waitForCrdsEstablished(client, names, opts.timeoutMs ?? 60_000);
  return names;
}

/** Polls until every named CRD has `Established=True`; throws `CrdNotEstablished` naming the laggards. */
async function waitForCrdsEstablished(
  client: KubeClient,
  names: readonly string[],
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let pending = [...names];
  while (pending.length > 0) {
    const list = await client.request('GET', CRD_PATH, { schema: listPageSchema });
    const established = new Set(
      list.items
        .filter((c) => findCondition(c, 'Established')?.status === 'True')
        .map((c) => c.metadata.name),
    );
    pending = pending.filter((n) => !established.has(n));
    if (pending.length === 0) return;
    if (Date.now() > deadline) {
      throw new GroundworkError({
        code: 'CrdNotEstablished',
        subject: pending.join(', '),
        message: `not Established after ${timeoutMs / 1000}s`,
      });
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Names of CRDs installed on the server, with their Established state. */
export async function listCrds(client: KubeClient): Promise<{ name: string; established: boolean }[]> {
  const list = await client.request('GET', CRD_PATH, { schema: listPageSchema });
  return list.items
    .map((c) => ({ name: c.metadata.name, established: findCondition(c, 'Established')?.status === 'True' }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
