import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { KubeClient } from '../cluster/client.js';
import { dataObjectSchema } from '../cluster/response-body.js';
import { hasCode } from '../core/errors.js';
import { MIN_REDACTION_KEY_BYTES, perRunRedactionKey, type RedactionKey } from '../core/redaction-key.js';
import { RedactionKeyInvalidError, redactionKeyFromEnv } from '../core/redaction-key-sources.js';

/** The Secret in the agent's namespace that holds its redaction key (data key `key`). */
export const REDACTION_KEY_SECRET = 'groundwork-redaction-key';

export interface AgentRedactionKeyOptions {
  /** The agent's namespace. */
  readonly namespace: string;
  /** @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** Told why the agent fell back to a per-run key. */
  readonly onWarning?: (message: string) => void;
}

type SecretBody = z.output<typeof dataObjectSchema>;

/**
 * The agent's redaction key: `GROUNDWORK_REDACTION_KEY` when set, else the key in the Secret
 * `groundwork-redaction-key` of its namespace, which the first agent to start creates with 32
 * random bytes (replicas and restarts share it, so tags in Events and the status stay comparable;
 * it never leaves the cluster, and only who may read Secrets there can test a guess). When the
 * Secret can be neither read nor created (RBAC from an older bootstrap, the apiserver away) the
 * agent warns and uses a random per-run key: tags then compare within this process only, which is
 * all drift needs (a plan tags live and desired in one call).
 * @throws RedactionKeyInvalidError when the env key or the Secret's key is shorter than 16 bytes.
 */
export async function agentRedactionKey(
  client: KubeClient,
  opts: AgentRedactionKeyOptions,
): Promise<RedactionKey> {
  const fromEnv = redactionKeyFromEnv(opts.env ?? process.env);
  if (fromEnv) return fromEnv;
  const path = `/api/v1/namespaces/${opts.namespace}/secrets`;
  try {
    const existing = await readSecret(client, `${path}/${REDACTION_KEY_SECRET}`);
    if (existing) return keyOf(existing, opts.namespace);
    try {
      await client.request('POST', path, {
        body: {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: {
            name: REDACTION_KEY_SECRET,
            namespace: opts.namespace,
            labels: { 'app.kubernetes.io/name': 'groundwork', 'app.kubernetes.io/component': 'agent' },
          },
          type: 'Opaque',
          data: { key: randomBytes(32).toString('base64') },
        },
      });
    } catch (err) {
      if (!hasCode(err, 'AlreadyExists')) throw err; // another replica created it first: use theirs
    }
    // Read back rather than trust what was sent: a concurrent creator's key is the one that stands.
    const created = await readSecret(client, `${path}/${REDACTION_KEY_SECRET}`);
    if (!created) throw new Error('the Secret was created but cannot be read back');
    return keyOf(created, opts.namespace);
  } catch (err) {
    if (err instanceof RedactionKeyInvalidError) throw err;
    opts.onWarning?.(
      `cannot read or create Secret ${opts.namespace}/${REDACTION_KEY_SECRET} (${hasCode(err, 'Forbidden') ? 'forbidden: run groundwork bootstrap again to update the agent RBAC' : String(err instanceof Error ? err.message : err)}); Secret values are tagged with a per-run key, so tags change when the agent restarts`,
    );
    return perRunRedactionKey();
  }
}

async function readSecret(client: KubeClient, path: string): Promise<SecretBody | undefined> {
  try {
    return await client.request('GET', path, { schema: dataObjectSchema });
  } catch (err) {
    if (hasCode(err, 'NotFound')) return undefined;
    throw err;
  }
}

function keyOf(secret: SecretBody, namespace: string): RedactionKey {
  const bytes = Buffer.from(secret.data?.key ?? '', 'base64');
  if (bytes.length < MIN_REDACTION_KEY_BYTES)
    throw new RedactionKeyInvalidError(
      `Secret ${namespace}/${REDACTION_KEY_SECRET}`,
      `data.key holds ${bytes.length} bytes; at least ${MIN_REDACTION_KEY_BYTES} are needed`,
      'delete the Secret: the agent creates a new one with a random key when it starts',
    );
  return { bytes, source: 'secret' };
}
