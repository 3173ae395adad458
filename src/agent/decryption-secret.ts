import type { KubeClient } from '../cluster/client.js';
import { dataObjectSchema } from '../cluster/response-body.js';
import { hasCode } from '../core/errors.js';
import { parseAgeIdentities, type AgeIdentities } from '../secrets/age-identities.js';
import { sopsKeyMissing } from '../secrets/sops-errors.js';

/**
 * The age identities in the Secret `name` of the agent's namespace (`--decryption-secret`): every
 * data key ending in `.agekey` (Flux's convention, e.g. `age.agekey`), each holding identities as
 * age-keygen writes them. Read when a revision needs them, so a Secret created or rotated later is
 * used on the next cycle without a restart. Errors are SopsKeyMissing naming `file` (the encrypted
 * file that needed them): no Secret named, the Secret missing, or nothing in it an identity. The
 * identities are never logged or quoted.
 */
export async function identitiesFromSecret(
  client: KubeClient,
  opts: { namespace: string; name: string | undefined; file: string },
): Promise<AgeIdentities> {
  const where = `Secret ${opts.namespace}/${opts.name ?? '<none>'}`;
  if (!opts.name)
    throw sopsKeyMissing(
      opts.file,
      'the agent has no --decryption-secret, so there is no age identity to decrypt it with',
    );
  let data: Record<string, string>;
  try {
    const secret = await client.request('GET', `/api/v1/namespaces/${opts.namespace}/secrets/${opts.name}`, {
      schema: dataObjectSchema,
    });
    data = secret.data ?? {};
  } catch (err) {
    if (hasCode(err, 'NotFound')) throw sopsKeyMissing(opts.file, `the decryption ${where} does not exist`);
    throw err;
  }
  const text = Object.entries(data)
    .filter(([k]) => k.endsWith('.agekey'))
    .map(([, v]) => Buffer.from(v, 'base64').toString('utf8'))
    .join('\n');
  const ids = await parseAgeIdentities(text);
  if (!ids.identities.length)
    throw sopsKeyMissing(
      opts.file,
      `the decryption ${where} has no *.agekey key holding an AGE-SECRET-KEY-1… identity`,
    );
  return ids;
}
