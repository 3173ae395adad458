import { readFileSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { z } from 'zod';
import { isWithin } from '../core/confined-file.js';
import { GroundworkError } from '../core/errors.js';
import { Validation, validateProps } from '../render/synth/validation.js';
import { sealSecretFile } from './seal-sops.js';
import { sealedText, type SealedSops } from './sealed-sops.js';
import { sealedShape } from './secret-leaves.js';
import { SOPS_ANNOTATIONS } from './sops-annotations.js';
import { MAX_SOPS_FILE_BYTES } from './sops-document.js';

export interface SopsSecretProps {
  /**
   * The SOPS-encrypted file (age recipients), relative to the directory of groundwork.yaml, e.g.
   * `secrets/htpasswd.sops.yaml`: either a flat map of keys to values (each becomes a key of the
   * Secret) or a whole `kind: Secret` manifest (its `data`, `stringData` and `type` are used).
   */
  readonly file: string;
  /** @default the manifest's `metadata.name` when readable, else the construct id */
  readonly name?: string;
  /** @default the manifest's `metadata.namespace` when readable (one of the two is required) */
  readonly namespace?: string;
  /** @default the manifest's `type`, else `Opaque` */
  readonly type?: string;
  readonly labels?: Record<string, string>;
}

const relativePath = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith('/') && !p.split(/[\\/]/).includes('..') && !p.includes('\0'), {
    message: 'must be a path inside the repository, relative, without ".."',
  });

const schema = z.object({
  file: relativePath,
  name: z.string().min(1).optional(),
  namespace: z.string().min(1).optional(),
  type: z.string().min(1).optional(),
  labels: z.record(z.string(), z.string()).optional(),
});

/**
 * A Secret whose values come from a SOPS-encrypted file in the repository. Synth sees only the
 * ciphertext: the construct parses the file here, in the render domain, refuses values sops cannot
 * protect (empty, readable, not `type:str`, `stringData` beside `data`: `checkSecretLeaves`), and
 * emits a value-less Secret carrying the file's sealed form (`SealedSops`, JSON) in an annotation.
 * The agent (and `plan`/`apply`/`drift` on a laptop) reads that data strictly, decrypts it after
 * synth and before plan with an age identity from `--decryption-secret` (or `SOPS_AGE_KEY_FILE`),
 * verifying sops's MAC; the plaintext is held in memory only and appears in no output.
 * `groundwork synth` writes the ciphertext, never values.
 *
 * @example
 * new SopsSecret(platform, 'htpasswd', {
 *   file: 'secrets/htpasswd.sops.yaml', name: 'htpass-secret', namespace: 'openshift-config',
 * });
 */
export class SopsSecret extends Construct {
  readonly secretName: string;
  readonly secretNamespace: string | undefined;

  constructor(scope: Construct, id: string, props: SopsSecretProps) {
    super(scope, id);
    const p = validateProps(this, schema, props, {
      file: 'name the encrypted file relative to the directory of groundwork.yaml, e.g. secrets/app.sops.yaml',
    });
    this.secretName = props.name ?? id;
    this.secretNamespace = props.namespace;
    if (!p) return;
    const text = readEncrypted(this, p.file);
    if (text === undefined) return;
    let sealed: SealedSops;
    try {
      sealed = sealSecretFile(text, p.file);
    } catch (err) {
      const e = err instanceof GroundworkError ? err : undefined;
      Validation.error(this, 'file', e?.message ?? `${p.file}: not a SOPS file`, e?.fix);
      return;
    }
    const manifest = readableManifest(sealed);
    this.secretName = p.name ?? manifest.name ?? id;
    this.secretNamespace = p.namespace ?? manifest.namespace;
    if (!this.secretNamespace) {
      Validation.error(
        this,
        'namespace',
        'a namespace is required',
        'set namespace, or metadata.namespace in the file',
      );
      return;
    }
    new ApiObject(this, 'Resource', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: this.secretName,
        namespace: this.secretNamespace,
        ...(p.labels ? { labels: p.labels } : {}),
        annotations: {
          [SOPS_ANNOTATIONS.sopsFile]: p.file,
          [SOPS_ANNOTATIONS.sopsCiphertext]: sealedText(sealed),
        },
      },
      type: p.type ?? manifest.type ?? 'Opaque',
    });
  }
}

/**
 * The file's text, read inside the working directory (the checkout, in the synth child, whose
 * sandbox confines reads too): a link out of it, a missing file or one too large is a validation
 * error naming the path as given, never what it points at or holds.
 */
function readEncrypted(scope: Construct, file: string): string | undefined {
  const root = realpathSync(process.cwd());
  let real: string;
  try {
    real = realpathSync(resolve(root, file));
  } catch {
    Validation.error(scope, 'file', `${file} does not exist`, 'commit the encrypted file, or fix the path');
    return undefined;
  }
  if (!isWithin(root, real)) {
    Validation.error(
      scope,
      'file',
      `${file} leads outside the repository`,
      'keep the encrypted file in the repository',
    );
    return undefined;
  }
  const text = readFileSync(real, 'utf8');
  if (Buffer.byteLength(text) > MAX_SOPS_FILE_BYTES) {
    Validation.error(
      scope,
      'file',
      `${file} is larger than ${MAX_SOPS_FILE_BYTES} bytes`,
      'a Secret holds at most 1 MiB',
    );
    return undefined;
  }
  return text;
}

/** Name, namespace and type of a `kind: Secret` file, where sops left them readable (not `ENC[…]`). */
function readableManifest(sealed: SealedSops): { name?: string; namespace?: string; type?: string } {
  if (sealedShape(sealed) !== 'manifest') return {};
  const plain = (...path: string[]) => {
    const leaf = sealed.leaves.find((l) => JSON.stringify(l.path) === JSON.stringify(path));
    return leaf && 'plain' in leaf && leaf.plain && !leaf.plain.startsWith('ENC[') ? leaf.plain : undefined;
  };
  const [name, namespace, type] = [plain('metadata', 'name'), plain('metadata', 'namespace'), plain('type')];
  return { ...(name ? { name } : {}), ...(namespace ? { namespace } : {}), ...(type ? { type } : {}) };
}
