import { idOf } from '../../core/object-id.js';
import { splitApiVersion, type K8sObject } from '../../core/object.js';
import { redactSecret } from '../../core/redact.js';
import { redactionTag } from '../../core/redaction-key.js';
import { isSealedSecret } from '../../secrets/decrypt-secrets.js';
import { SOPS_ANNOTATIONS } from '../../secrets/sops-annotations.js';
import { sealedSummary } from '../../secrets/sealed-summary.js';
import { parseSealedSops } from '../../secrets/sealed-sops.js';

/**
 * An object as a preview prints it: a still-encrypted `SopsSecret` (previews have no key) shows its
 * keys, each tagged from its ciphertext, and its recipients in place of the ciphertext
 * (`sealedView`); any other Secret is redacted as everywhere (`redactSecret`); every other object
 * is returned unchanged (the same reference).
 */
export function redactForPreview(obj: K8sObject): K8sObject {
  if (obj.kind === 'Secret' && splitApiVersion(obj.apiVersion).group === '' && isSealedSecret(obj))
    return sealedView(obj, idOf(obj));
  return redactSecret(obj);
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
