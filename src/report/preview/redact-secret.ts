import { idOf } from '../../core/object-id.js';
import { isPlainObject, splitApiVersion, type K8sObject } from '../../core/object.js';
import { redactionTag } from '../../core/redaction-key.js';

/**
 * A copy of `obj` safe to print: for a core `Secret`, each value of `data` and `stringData` becomes
 * `<redacted hmac:xxxxxxxx>`, so a diff shows *that* a value changed and never what it is. The
 * tag is an HMAC under this process's redaction key (`redactionTag`) of the object id, the key and
 * the value's bytes (`data` decoded from base64, so moving a value between `data` and `stringData`
 * keeps its tag); salting with id and key keeps equal values in different Secrets from showing
 * equal tags. Base and head of one preview are tagged in one process, under one key, so their tags
 * compare; without the key a reader cannot test a guessed value against a tag.
 * Every other object is returned unchanged (the same reference).
 */
export function redactSecret(obj: K8sObject): K8sObject {
  if (obj.kind !== 'Secret' || splitApiVersion(obj.apiVersion).group !== '') return obj;
  const id = idOf(obj);
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
