import { KubeClient } from '../../src/cluster/client.js';
import type { BootstrapOptions } from '../../src/install/bootstrap.js';
import { ClusterSession } from '../../src/reconcile/cluster-session.js';

/** A session on the test's cluster for `planBootstrap`/`applyBootstrap`; closing it is pushed to `cleanups`. */
export async function bootstrapSession(
  kubeconfig: string,
  cleanups: (() => Promise<void>)[],
): Promise<ClusterSession> {
  const session = new ClusterSession(await KubeClient.load({ kubeconfig }));
  cleanups.push(async () => session.client.close());
  return session;
}

/**
 * `groundwork bootstrap`'s options for an agent in `namespace` following `main` of `repoUrl`, overlay
 * `test`, self-heal every minute, one replica of a test image; `more` adds or replaces options.
 */
export function bootstrapOptions(
  repoUrl: string,
  namespace: string,
  more: Partial<BootstrapOptions> = {},
): BootstrapOptions {
  return {
    repository: { url: repoUrl, ref: { branch: 'main' } },
    overlay: 'test',
    namespace,
    mode: 'self-heal',
    interval: '1m',
    image: 'registry.example.com/groundwork:test',
    replicas: 1,
    ...more,
  };
}
