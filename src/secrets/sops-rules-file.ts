import { GroundworkError } from '../core/errors.js';

/** What `secret init-rules` writes: for whom, and which directory's files. */
export interface SopsRulesFileOptions {
  /** age recipients (checked by the caller). */
  recipients: readonly string[];
  /** The secrets directory, relative to the `.sops.yaml`, e.g. `secrets` or `platform/secrets`. */
  secretsDir: string;
}

/** A Secret manifest's fields that are not values: readable, so the preview can name the Secret. */
export const READABLE_FIELDS_REGEX = '^(apiVersion|kind|metadata|type)$';

/**
 * The text of a `.sops.yaml` with one creation rule, as sops reads it: files under `secretsDir`
 * named `.yaml`, `.yml` or `.json` are encrypted for `recipients`, every value encrypted but a
 * manifest's `apiVersion`, `kind`, `metadata` and `type` (sops's `unencrypted_regex` matches any
 * key of a value's path), so both a flat map and a `kind: Secret` manifest make a `SopsSecret`.
 * (A value under a key named like those is left readable, and `secret encrypt` then refuses the
 * file: rename the key.) Throws InvalidFlag for a directory that is not a plain relative path.
 */
export function sopsRulesFile(opts: SopsRulesFileOptions): string {
  const dir = opts.secretsDir.replace(/\/+$/, '');
  if (
    !/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(dir) ||
    dir.split('/').some((s) => s === '..' || s === '.')
  )
    throw new GroundworkError({
      code: 'InvalidFlag',
      subject: '--secrets-dir',
      message: 'not a plain relative directory (letters, digits, ., _, - and /; no . or .. segments)',
      fix: 'name the directory relative to the .sops.yaml, e.g. secrets',
    });
  const pathRegex = `^${dir.replace(/[.\\-]/g, (c) => `\\${c}`)}/.*\\.(ya?ml|json)$`;
  return [
    '# sops creation rules (written by `groundwork secret init-rules`): sops, `groundwork secret',
    '# encrypt` and `groundwork secret edit` encrypt new files under this directory with them.',
    '# Every value is encrypted but a Secret manifest’s apiVersion, kind, metadata and type.',
    'creation_rules:',
    `  - path_regex: '${pathRegex}'`,
    `    unencrypted_regex: '${READABLE_FIELDS_REGEX}'`,
    `    age: '${opts.recipients.join(',')}'`,
    '',
  ].join('\n');
}
