import { z } from 'zod';
import type { K8sObject } from '../core/object.js';
import type { Manifest } from '../render/synth/manifest.js';
import type { SynthResult } from '../render/synth/synthesize.js';
import type { AgeIdentities } from './age-identities.js';
import { decryptSops } from './decrypt-sops.js';
import { SOPS_ANNOTATIONS } from './sops-annotations.js';
import { sopsFileInvalid } from './sops-errors.js';

/** Where the identities come from; called at most once, and only when a manifest needs them. */
export type IdentitySource = (file: string) => Promise<AgeIdentities>;

/** Whether a synthesized object is a `SopsSecret` still holding its ciphertext. */
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
 * The synth result with every `SopsSecret` decrypted: its values in base64 `data`, its ciphertext
 * annotation removed (the `groundwork.io/sops-file` annotation stays). Runs in the calling process
 * (the agent, or the CLI's plan/apply/drift), after synth and before plan; nothing is written or
 * logged. A manifest keeps its `hash` (of the ciphertext), so no digest of a plaintext leaves.
 * Any file that does not decrypt and verify rejects the whole result with its error (naming the
 * file), so nothing of the revision is planned, applied or pruned; so does an encrypted file that
 * platform code brought in with `Include` (Flux applies those as ciphertext unless told to decrypt,
 * failing later with "data values must be of type string"). Without a `SopsSecret`, returns
 * `result` itself and never calls `identities`.
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
  let ids: Promise<AgeIdentities> | undefined;
  const manifests: Manifest[] = [];
  for (const m of result.manifests) {
    if (!isSealedSecret(m.object)) {
      manifests.push(m);
      continue;
    }
    const annotations = m.object.metadata.annotations!;
    const file = annotations[SOPS_ANNOTATIONS.sopsFile] ?? m.source;
    ids ??= identities(file);
    const plain = await decryptSops(annotations[SOPS_ANNOTATIONS.sopsCiphertext]!, {
      file,
      identities: await ids,
    });
    manifests.push({ ...m, object: secretFrom(m.object, plain, file) });
  }
  return { ...result, manifests };
}

const secretFile = z.looseObject({
  kind: z.literal('Secret'),
  type: z.string().optional(),
  data: z.record(z.string(), z.string()).optional(),
  stringData: z.record(z.string(), z.string()).optional(),
});

/** The applied Secret: `placeholder`'s metadata without the ciphertext, the file's values as base64 `data`. */
function secretFrom(placeholder: K8sObject, plain: Record<string, unknown>, file: string): K8sObject {
  const { [SOPS_ANNOTATIONS.sopsCiphertext]: _ciphertext, ...annotations } =
    placeholder.metadata.annotations ?? {};
  const data: Record<string, string> = {};
  if (plain.kind === 'Secret') {
    const s = secretFile.safeParse(plain);
    if (!s.success)
      throw sopsFileInvalid(
        file,
        `its ${s.error.issues[0]?.path.join('.') ?? 'data'} is not a map of strings`,
      );
    for (const [k, v] of Object.entries(s.data.data ?? {})) {
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(v))
        throw sopsFileInvalid(file, `data.${k} is not base64 (put text under stringData)`);
      data[k] = v;
    }
    for (const [k, v] of Object.entries(s.data.stringData ?? {}))
      data[k] = Buffer.from(v, 'utf8').toString('base64');
  } else {
    for (const [k, v] of Object.entries(plain)) {
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
        throw sopsFileInvalid(
          file,
          `the value at ${k} is not a string (a SopsSecret file maps keys to strings)`,
        );
      data[k] = Buffer.from(String(v), 'utf8').toString('base64');
    }
  }
  for (const k of Object.keys(data))
    if (!/^[-._a-zA-Z0-9]+$/.test(k))
      throw sopsFileInvalid(file, `${k} is not a valid Secret key (letters, digits, -, _ and .)`);
  return { ...placeholder, metadata: { ...placeholder.metadata, annotations }, data };
}
