import { idOf } from '../../core/object-id.js';
import { isPlainObject, splitApiVersion, type K8sObject } from '../../core/object.js';
import { redactionTag } from '../../core/redaction-key.js';
import { isSealedSecret } from '../../secrets/decrypt-secrets.js';
import { SOPS_ANNOTATIONS } from '../../secrets/sops-annotations.js';
import { sealedSummary } from '../../secrets/sealed-summary.js';
import { parseSealedSops } from '../../secrets/sealed-sops.js';

/**
 * A copy of `obj` safe to print: for a core `Secret`, each value of `data` and `stringData` becomes
 * `<redacted hmac:xxxxxxxx>`, so a diff shows *that* a value changed and never what it is. The
 * tag is an HMAC under this process's redaction key (`redactionTag`) of the object id, the key and
 * the value's bytes (`data` decoded from base64, so moving a value between `data` and `stringData`
 * keeps its tag); salting with id and key keeps equal values in different Secrets from showing
 * equal tags. Base and head of one preview are tagged in one process, under one key, so their tags
 * compare; without the key a reader cannot test a guessed value against a tag.
 * A `SopsSecret` (still encrypted: previews have no key) shows its keys, each tagged from its
 * ciphertext, and its recipients in place of the ciphertext (`sealedView`).
 * Every other object is returned unchanged (the same reference).
 */
export function redactSecret(obj: K8sObject): K8sObject {
  if (obj.kind !== 'Secret' || splitApiVersion(obj.apiVersion).group !== '') return obj;
  const id = idOf(obj);
  if (isSealedSecret(obj)) return sealedView(obj, id);
  const out: K8sObject = { ...obj };
  for (const field of ['data', 'stringData'] as const) {
    const values = obj[field];
    if (!isPlainObject(values)) continue;
    const redacted: Record<string, string> = {};
    for (const [key, value] of Object.entries(values)) {
      const bytes =
        field === 'data' && typeof value === 'string'
          ? Buffer.from(value, 'base64')
          : Buffer.from(String(value), 'utf8');
      redacted[key] = redactionTag([id, key, bytes]);
    }
    out[field] = redacted;
  }
  return out;
}

/**
 * A still-encrypted `SopsSecret` as a preview shows it: `data` holds each key of the file with a
 * tag of its ciphertext (a key whose ciphertext changed shows as changed, without any value), and
 * the ciphertext annotation becomes one line naming the recipients and the file's time.
 */
function sealedView(obj: K8sObject, id: string): K8sObject {
  const annotations = { ...obj.metadata.annotations };
  const file = annotations[SOPS_ANNOTATIONS.sopsFile] ?? id;
  let data: Record<string, string> = {};
  try {
    const s = sealedSummary(parseSealedSops(annotations[SOPS_ANNOTATIONS.sopsCiphertext]!, file));
    data = Object.fromEntries(
      Object.entries(s.values).map(([k, v]) => [k, redactionTag([id, k, 'sops', v])]),
    );
    annotations[SOPS_ANNOTATIONS.sopsCiphertext] =
      `encrypted for ${s.recipients.join(', ')}, ${s.lastmodified}`;
  } catch {
    annotations[SOPS_ANNOTATIONS.sopsCiphertext] = 'not a SOPS file Groundwork reads (see SopsFileInvalid)';
  }
  return { ...obj, metadata: { ...obj.metadata, annotations }, data };
}
