import type { K8sObject } from '../core/object.js';
import type { Manifest } from '../render/synth/manifest.js';
import type { SynthResult } from '../render/synth/synthesize.js';
import type { AgeIdentities } from './age-identities.js';
import type { OpenedLeaf } from './open-sops.js';
import { checkSecretLeaves, sealedShape } from './secret-leaves.js';
import { parseSealedSops, pathText, type SealedSops } from './sealed-sops.js';
import { SOPS_ANNOTATIONS } from './sops-annotations.js';
import { sopsFileInvalid } from './sops-errors.js';

/** Where the identities come from; called at most once, and only when a manifest needs them. */
export type IdentitySource = (file: string) => Promise<AgeIdentities>;

/** Whether a synthesized object is a `SopsSecret` still holding its sealed form. */
export function isSealedSecret(obj: K8sObject): boolean {
  return (
    obj.kind === 'Secret' && typeof obj.metadata.annotations?.[SOPS_ANNOTATIONS.sopsCiphertext] === 'string'
  );
}

/** An object that is an encrypted SOPS document itself: a top-level `sops` map with a `mac`. */
function isIncludedSopsFile(obj: K8sObject): boolean {
  const meta = obj.sops;
  return meta !== null && typeof meta === 'object' && 'mac' in meta;
}

/**
 * The synth result with every `SopsSecret` decrypted: its values in base64 `data`, its sealed-form
 * annotation removed (the `groundwork.io/sops-file` annotation stays). Runs in the calling process
 * (the agent, or the CLI's plan/apply/drift), after synth and before plan, on data: the sealed form
 * is parsed with `parseSealedSops` (JSON and a strict schema, no YAML), checked for values sops
 * cannot protect (`checkSecretLeaves`, before and after decryption), and verified (`openSops`).
 * Nothing is written or logged. A manifest keeps its `hash` (of the sealed form), so no digest of a
 * plaintext leaves.
 *
 * Any file that does not decrypt, verify or make a Secret rejects the whole result with its error
 * (naming the file and at most a key path), so nothing of the revision is planned, applied or
 * pruned; so does an encrypted file that platform code brought in with `Include` (Flux applies
 * those as ciphertext unless told to decrypt). Without a `SopsSecret`, returns `result` itself and
 * never calls `identities`.
 */
export async function decryptSopsSecrets(
  result: SynthResult,
  identities: IdentitySource,
): Promise<SynthResult> {
  const included = result.manifests.find((m) => isIncludedSopsFile(m.object));
  if (included)
    throw sopsFileInvalid(
      included.source,
      `${included.id} is a SOPS-encrypted file brought in as it is (Include or ApiObject): it would be applied as ciphertext; bring it in with SopsSecret`,
    );
  if (!result.manifests.some((m) => isSealedSecret(m.object))) return result;
  // Loaded only now: sops and age (re2js, the noble curves) cost a `plan` without secrets ~40 ms of CPU.
  const { openSops } = await import('./open-sops.js');
  let ids: Promise<AgeIdentities> | undefined;
  const manifests: Manifest[] = [];
  for (const m of result.manifests) {
    if (!isSealedSecret(m.object)) {
      manifests.push(m);
      continue;
    }
    const annotations = m.object.metadata.annotations!;
    const file = annotations[SOPS_ANNOTATIONS.sopsFile] ?? m.source;
    const sealed = parseSealedSops(annotations[SOPS_ANNOTATIONS.sopsCiphertext]!, file);
    checkSecretLeaves(sealed, file, sealedShape(sealed));
    ids ??= identities(file);
    const opened = await openSops(sealed, { file, identities: await ids });
    manifests.push({ ...m, object: secretFrom(m.object, sealed, opened, file) });
  }
  return { ...result, manifests };
}

/**
 * The applied Secret: `placeholder`'s metadata without the sealed form, the file's values as base64
 * `data`. The shape comes from the decrypted `kind`, and is checked again with it.
 */
function secretFrom(
  placeholder: K8sObject,
  sealed: SealedSops,
  opened: OpenedLeaf[],
  file: string,
): K8sObject {
  const { [SOPS_ANNOTATIONS.sopsCiphertext]: _sealed, ...annotations } =
    placeholder.metadata.annotations ?? {};
  const kind = opened.find((l) => l.path.length === 1 && l.path[0] === 'kind');
  const shape = kind?.value === 'Secret' ? 'manifest' : 'map';
  checkSecretLeaves(sealed, file, shape);
  const data: Record<string, string> = {};
  for (const leaf of opened) {
    const [first, key] = leaf.path;
    if (shape === 'map') data[first as string] = base64(String(leaf.value));
    else if (first === 'stringData') data[key as string] = base64(String(leaf.value));
    else if (first === 'data') {
      const value = String(leaf.value);
      // Only whether the text is base64, never what it is; the same for any value at this key.
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 !== 0)
        throw sopsFileInvalid(file, `${pathText(leaf.path)} is not base64 (put text under stringData)`);
      data[key as string] = value;
    }
  }
  return { ...placeholder, metadata: { ...placeholder.metadata, annotations }, data };
}

function base64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}
