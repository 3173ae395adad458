import type { KubeClient } from '../cluster/client.js';
import { isNotFound } from '../cluster/api-error.js';
import { dataObjectSchema } from '../cluster/response-body.js';
import { GroundworkError } from '../core/errors.js';
import { nameProblem, nameRule } from '../core/object-name.js';
import { parseTrustedKeys, type TrustedKeys } from '../source/trust/trusted-keys.js';

/** Where the agent's trusted keys live: a Secret or a ConfigMap in its namespace (`--verify-commits`). */
export interface TrustedKeysRef {
  readonly kind: 'Secret' | 'ConfigMap';
  readonly name: string;
}

/**
 * `--verify-commits <name>`, `secret/<name>` or `configmap/<name>` → a reference (a bare name is a
 * Secret). Throws `TrustedKeysInvalid` for another prefix or a name Kubernetes would refuse.
 */
export function trustedKeysRefOf(flag: string): TrustedKeysRef {
  const m = /^(?:(secret|configmap)\/)?(.*)$/i.exec(flag)!;
  const kind = m[1]?.toLowerCase() === 'configmap' ? 'ConfigMap' : 'Secret';
  const name = m[2]!;
  const problem = name.includes('/')
    ? 'only secret/<name> or configmap/<name>'
    : nameProblem(name, nameRule('', kind));
  if (problem)
    throw new GroundworkError({
      code: 'TrustedKeysInvalid',
      subject: `--verify-commits ${JSON.stringify(flag.slice(0, 64))}`,
      message: problem,
      fix: 'name a Secret (or configmap/<name>) in the agent namespace holding the trusted public keys',
    });
  return { kind, name };
}

/**
 * Reads and parses the trusted keys from the cluster, at every call (a rotated key counts from
 * the next fetch, and a revision applied under the old keys is verified again: see README
 * "Trusted commits"). A missing object or an unreadable one is `TrustedKeysInvalid`: the caller
 * refuses the revision (fails closed).
 */
export async function readTrustedKeys(
  client: KubeClient,
  namespace: string,
  ref: TrustedKeysRef,
): Promise<TrustedKeys> {
  const source = `${ref.kind.toLowerCase()}/${namespace}/${ref.name}`;
  const path = `/api/v1/namespaces/${namespace}/${ref.kind === 'Secret' ? 'secrets' : 'configmaps'}/${ref.name}`;
  let data: Record<string, string>;
  try {
    const body = await client.request('GET', path, { schema: dataObjectSchema });
    data = body.data ?? {};
  } catch (err) {
    throw new GroundworkError({
      code: 'TrustedKeysInvalid',
      subject: source,
      message: isNotFound(err) ? 'not found' : 'could not be read',
      fix: `create it in ${namespace} with the signers' public keys, and let the agent get it (bootstrap's RBAC does)`,
      cause: err,
    });
  }
  const entries =
    ref.kind === 'Secret'
      ? Object.fromEntries(
          Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
        )
      : data;
  return parseTrustedKeys(entries, source);
}
