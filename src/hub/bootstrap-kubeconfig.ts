import { parseDocument, stringify } from 'yaml';
import { z } from 'zod';
import { GroundworkError } from '../core/errors.js';
import { MEMBER_NAME } from './hub-names.js';
import { REGISTRATION_TOKEN } from './registration-schema.js';

// The bootstrap kubeconfig `groundwork hub token create` prints, and the member kubeconfig an agent
// builds from its credentials. Both are plain kubeconfigs (kubectl reads them); the registration
// rides in the kubeconfig's own `extensions` list, which kubectl and client-node leave alone.

/** The name of the kubeconfig extension that carries the registration. */
export const REGISTRATION_EXTENSION = 'hub.groundwork.io/registration';

/** Where the hub is and how to reach it: what every kubeconfig of the hub holds. */
export interface HubEndpoint {
  readonly server: string;
  /** base64 PEM of the hub's CA; undefined: the system's CAs. */
  readonly caData?: string;
}

/** A bootstrap kubeconfig, read. */
export interface HubBootstrap extends HubEndpoint {
  /** The `registration` ServiceAccount's token (short-lived). */
  readonly bearer: string;
  readonly member: string;
  /** The one-time registration token. */
  readonly token: string;
  readonly expiresAt: string;
}

function kubeconfig(
  endpoint: HubEndpoint,
  user: string,
  bearer: string,
  extra: Record<string, unknown> = {},
): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'hub',
        cluster: {
          server: endpoint.server,
          ...(endpoint.caData ? { 'certificate-authority-data': endpoint.caData } : {}),
        },
      },
    ],
    users: [{ name: user, user: { token: bearer } }],
    contexts: [{ name: 'hub', context: { cluster: 'hub', user } }],
    'current-context': 'hub',
    ...extra,
  });
}

/** The bootstrap kubeconfig of one registration: keep it secret until the agent has used it. Pure. */
export function bootstrapKubeconfig(b: HubBootstrap): string {
  return kubeconfig(b, 'registration', b.bearer, {
    extensions: [
      {
        name: REGISTRATION_EXTENSION,
        extension: { member: b.member, token: b.token, expiresAt: b.expiresAt },
      },
    ],
  });
}

/** A member's kubeconfig for the hub, from its credentials (held in memory and in its own Secret). Pure. */
export function memberKubeconfig(endpoint: HubEndpoint, member: string, token: string): string {
  return kubeconfig(endpoint, `member-${member}`, token);
}

const bootstrapSchema = z.looseObject({
  clusters: z
    .array(
      z.looseObject({
        cluster: z.looseObject({
          server: z
            .string()
            .max(2048)
            .regex(/^https:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, 'must be an https:// address'),
          'certificate-authority-data': z.string().max(65_536).optional(),
        }),
      }),
    )
    .length(1),
  users: z.array(z.looseObject({ user: z.looseObject({ token: z.string().min(1).max(8192) }) })).length(1),
  extensions: z.array(
    z.looseObject({
      name: z.string(),
      extension: z.unknown(),
    }),
  ),
});

const registrationSchema = z.strictObject({
  member: z.string().regex(MEMBER_NAME),
  token: z.string().regex(REGISTRATION_TOKEN),
  expiresAt: z.string().max(40),
});

/** The largest bootstrap kubeconfig read: far above a real one (a CA bundle and two tokens). */
export const BOOTSTRAP_MAX_BYTES = 256 * 1024;

/**
 * Reads a bootstrap kubeconfig (`where` names it in errors: a file or `secret/<name>`): one
 * cluster, one user with a token, and the registration extension. Anything else, including a user
 * with a credential plugin, is `HubBootstrapInvalid`, naming the problem and never quoting a value.
 * Pure.
 */
export function parseBootstrapKubeconfig(text: string, where: string): HubBootstrap {
  const fail = (message: string): never => {
    throw new GroundworkError({
      code: 'HubBootstrapInvalid',
      subject: where,
      message,
      fix: 'pass the bootstrap kubeconfig `groundwork hub token create` printed (a file, or secret/<name> with the key kubeconfig)',
    });
  };
  if (text.length > BOOTSTRAP_MAX_BYTES) fail(`larger than ${BOOTSTRAP_MAX_BYTES} bytes`);
  const doc = parseDocument(text);
  if (doc.errors.length > 0) fail('not YAML');
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 10 });
  } catch {
    fail('not YAML');
  }
  const parsed = bootstrapSchema.safeParse(value);
  if (!parsed.success)
    fail(
      `not a bootstrap kubeconfig: ${parsed.error.issues.map((i) => i.path.join('.') || '(root)').join(', ')}`,
    );
  const config = parsed.data!;
  // A bootstrap kubeconfig authenticates with its token only: a credential plugin or a file it
  // names would run or read something on the member's cluster at the hub's request.
  const user = config.users[0]!.user;
  const plugin = ['exec', 'auth-provider', 'tokenFile', 'client-key', 'client-certificate'].find(
    (k) => k in user,
  );
  if (plugin) fail(`its user has \`${plugin}\`: a bootstrap kubeconfig authenticates with a token only`);
  const ext = config.extensions.find((e) => e.name === REGISTRATION_EXTENSION);
  if (!ext) fail(`no ${REGISTRATION_EXTENSION} extension`);
  const registration = registrationSchema.safeParse(ext!.extension);
  if (!registration.success)
    fail(
      `${REGISTRATION_EXTENSION}: ${registration.error.issues.map((i) => i.path.join('.') || '(root)').join(', ')} malformed`,
    );
  const cluster = config.clusters[0]!.cluster;
  return {
    server: cluster.server,
    ...(cluster['certificate-authority-data'] ? { caData: cluster['certificate-authority-data'] } : {}),
    bearer: config.users[0]!.user.token,
    member: registration.data!.member,
    token: registration.data!.token,
    expiresAt: registration.data!.expiresAt,
  };
}
