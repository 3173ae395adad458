import { ApiError } from '../cluster/api-error.js';
import { KubeClient } from '../cluster/client.js';
import { GroundworkError } from '../core/errors.js';
import { bootstrapKubeconfig, type HubBootstrap } from './bootstrap-kubeconfig.js';
import { HUB_API_VERSION, HUB_NAMESPACE, HUB_PATHS } from './hub-names.js';
import type { MemberCredentialsStore, MemberState } from './member-credentials-store.js';
import { memberRegistrationSchema } from './registration-schema.js';
import { registrationName } from './registration-token.js';
import { newRegistrationKey, openCredentials, recipientOf } from './sealed-credentials.js';
import { rfc3339 } from './schema-parts.js';

/**
 * Registers with the hub using `bootstrap` and returns the member's credentials (also saved in
 * `store`). The key pair is generated here and saved, with the registration's name, before the
 * registration is created, so an agent restarted half way reads the answer with the same key. The
 * answer is awaited (polling, at most `timeoutMs`). Refused: `HubRegistrationRefused` with the
 * hub's reason; no answer in time or one that does not open: `HubRegistrationFailed`; an expired
 * bootstrap: `HubCredentialsExpired`.
 */
export async function registerMember(input: {
  readonly bootstrap: HubBootstrap;
  readonly store: MemberCredentialsStore;
  /** The state read before (a registration in flight is resumed). */
  readonly state: MemberState | undefined;
  readonly agentVersion?: string;
  readonly timeoutMs?: number;
  readonly now?: () => Date;
  /** Stops waiting for the answer (the agent stopping): the registration stays, to be resumed. */
  readonly signal?: AbortSignal;
}): Promise<Extract<MemberState, { phase: 'registered' }>> {
  const { bootstrap, store } = input;
  const now = input.now ?? (() => new Date());
  const name = registrationName(bootstrap.token);
  const resumed =
    input.state?.phase === 'pending' && input.state.registration === name ? input.state : undefined;
  if (!resumed && Date.parse(bootstrap.expiresAt) <= now().getTime())
    throw new GroundworkError({
      code: 'HubCredentialsExpired',
      subject: `member ${bootstrap.member}`,
      message: `the bootstrap kubeconfig expired at ${bootstrap.expiresAt}, and the agent has no valid hub credentials`,
      fix: `make a new one: groundwork hub token create --member ${bootstrap.member}, and give it to the agent (--hub)`,
    });
  const identity = resumed?.identity ?? (await newRegistrationKey()).identity;
  const recipient = await recipientOf(identity);
  if (!resumed)
    await store.write({
      phase: 'pending',
      member: bootstrap.member,
      server: bootstrap.server,
      ...(bootstrap.caData ? { caData: bootstrap.caData } : {}),
      registration: name,
      identity,
    });
  const hub = await KubeClient.fromKubeconfigText(bootstrapKubeconfig(bootstrap), {
    where: 'the bootstrap kubeconfig',
    userAgent: 'groundwork-hub-member',
  });
  try {
    try {
      await hub.request('POST', HUB_PATHS.registrations(HUB_NAMESPACE), {
        body: {
          apiVersion: HUB_API_VERSION,
          kind: 'MemberRegistration',
          metadata: { name },
          spec: {
            member: bootstrap.member,
            token: bootstrap.token,
            recipient,
            ...(input.agentVersion ? { agentVersion: input.agentVersion.slice(0, 64) } : {}),
          },
        },
        noRetry: true,
      });
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 409)) throw err;
      // A registration with this token exists: this agent's own before a restart (read its answer),
      // or someone else's, and a token works once.
      if (!resumed)
        throw new GroundworkError({
          code: 'HubRegistrationRefused',
          subject: `member ${bootstrap.member}`,
          message:
            'the hub refused the registration: TokenUsed (a registration with this token exists already)',
          fix: `make a new token: groundwork hub token create --member ${bootstrap.member}`,
        });
    }
    const deadline = now().getTime() + (input.timeoutMs ?? 300_000);
    for (let wait = 250; ; wait = Math.min(wait * 2, 5000)) {
      const reg = await hub.request('GET', HUB_PATHS.registration(HUB_NAMESPACE, name), {
        schema: memberRegistrationSchema,
      });
      const status = reg.status;
      if (status?.phase === 'Refused')
        throw new GroundworkError({
          code: 'HubRegistrationRefused',
          subject: `member ${bootstrap.member}`,
          message: `the hub refused the registration: ${status.reason ?? 'Invalid'}${status.message ? ` (${status.message})` : ''}`,
          fix: `make a new token: groundwork hub token create --member ${bootstrap.member}`,
        });
      if (status?.phase === 'Accepted' && status.credentials) {
        const credentials = await openCredentials(status.credentials, identity);
        const state = {
          phase: 'registered' as const,
          member: credentials.member,
          namespace: credentials.namespace,
          server: bootstrap.server,
          ...(bootstrap.caData ? { caData: bootstrap.caData } : {}),
          token: credentials.token,
          issuedAt: rfc3339(now()),
          expiresAt: credentials.expiresAt,
        };
        await store.write(state);
        return state;
      }
      if (now().getTime() > deadline)
        throw new GroundworkError({
          code: 'HubRegistrationFailed',
          subject: `member ${bootstrap.member}`,
          message: `the hub did not answer registration ${name} in ${Math.round((input.timeoutMs ?? 300_000) / 1000)}s`,
          fix: 'check that `groundwork hub run` runs on the hub (kubectl -n groundwork-hub get memberregistrations)',
        });
      if (input.signal?.aborted) throw new Error('stopped while waiting for the hub to answer');
      await new Promise<void>((r) => {
        const t = setTimeout(done, wait);
        function done() {
          clearTimeout(t);
          input.signal?.removeEventListener('abort', done);
          r();
        }
        input.signal?.addEventListener('abort', done, { once: true });
      });
    }
  } finally {
    hub.close();
  }
}
