import { createHash } from 'node:crypto';
import { idOf } from '../../core/object-id.js';
import { isPlainObject, splitApiVersion, type K8sObject } from '../../core/object.js';

/**
 * A copy of `obj` safe to print: for a core `Secret`, each value of `data` and `stringData` becomes
 * `<redacted sha256:xxxxxxxx>`, so a diff shows *that* a value changed and never what it is. The
 * digest covers the object id, the key and the value's bytes (`data` decoded from base64, so moving
 * a value between `data` and `stringData` keeps its digest); salting with id and key keeps equal
 * values in different Secrets from showing equal digests. Eight hex digits only identify a change:
 * they do not make a short, guessable value safe to publish, which is why the value never appears.
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
      redacted[key] = `<redacted sha256:${digest(id, key, bytes)}>`;
    }
    out[field] = redacted;
  }
  return out;
}

function digest(id: string, key: string, value: Buffer): string {
  return createHash('sha256').update(`${id}\0${key}\0`).update(value).digest('hex').slice(0, 8);
}
