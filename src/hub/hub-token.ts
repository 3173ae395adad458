import type { KubeClient } from '../cluster/client.js';
import { bootstrapKubeconfig } from './bootstrap-kubeconfig.js';
import { REGISTRATION_SERVICE_ACCOUNT } from './hub-names.js';
import { requestToken } from './member-setup.js';
import { TokenStore } from './token-store.js';
import { rfc3339 } from './schema-parts.js';

/** What `groundwork hub token create` is asked for. */
export interface BootstrapRequest {
  /** The hub's namespace. */
  readonly namespace: string;
  readonly member: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly environment?: string;
  /** How long the token and the bootstrap kubeconfig are good for (at least 10 minutes). */
  readonly ttlSeconds: number;
  readonly now?: () => Date;
}

/** A bootstrap kubeconfig, its token's id (names its Secret) and when it expires. */
export interface IssuedBootstrap {
  readonly kubeconfig: string;
  readonly id: string;
  readonly expiresAt: string;
}

/**
 * Issues a bootstrap kubeconfig for one member, with the rights of `client` on the hub (an admin):
 * a one-time registration token whose hash, member, labels, environment and expiry are kept in its
 * Secret (`TokenStore.create`), and a TokenRequest token of the `registration` ServiceAccount
 * expiring with it (the apiserver's minimum is 10 minutes), on the hub's address and CA as `client`
 * reaches it. The kubeconfig text is returned once and never stored on the hub.
 */
export async function issueBootstrap(client: KubeClient, req: BootstrapRequest): Promise<IssuedBootstrap> {
  const seconds = Math.max(600, Math.round(req.ttlSeconds));
  const expiresAt = rfc3339(new Date((req.now ?? (() => new Date()))().getTime() + seconds * 1000));
  const { id, token } = await new TokenStore(client, req.namespace).create({
    member: req.member,
    labels: req.labels,
    ...(req.environment ? { environment: req.environment } : {}),
    expiresAt,
  });
  const bearer = await requestToken(client, {
    namespace: req.namespace,
    serviceAccount: REGISTRATION_SERVICE_ACCOUNT,
    seconds,
  });
  const caData = client.clusterCaData();
  const kubeconfig = bootstrapKubeconfig({
    server: client.server,
    ...(caData ? { caData } : {}),
    bearer: bearer.token,
    member: req.member,
    token,
    expiresAt,
  });
  return { kubeconfig, id, expiresAt };
}
