import { z } from 'zod';
import { compileSopsRegex, type SopsRegex } from './sops-regex.js';

const ageKeySchema = z.object({ recipient: z.string().min(1), enc: z.string().min(1) });

/**
 * The `sops` key of an encrypted file, as far as Groundwork reads it (sops `stores/stores.go`,
 * `metadata`): age recipients (top level, or in one key group), the MAC, its `lastmodified` time,
 * and the rules that say which values are encrypted. Other key sources (pgp, kms, …) may be present
 * and are ignored: Groundwork decrypts with age only.
 */
export const sopsMetadataSchema = z.looseObject({
  age: z.array(ageKeySchema).nullish(),
  key_groups: z.array(z.looseObject({ age: z.array(ageKeySchema).nullish() })).nullish(),
  shamir_threshold: z.number().int().nullish(),
  lastmodified: z.string().min(1),
  mac: z.string().min(1),
  unencrypted_suffix: z.string().nullish(),
  encrypted_suffix: z.string().nullish(),
  unencrypted_regex: z.string().nullish(),
  encrypted_regex: z.string().nullish(),
  unencrypted_comment_regex: z.string().nullish(),
  encrypted_comment_regex: z.string().nullish(),
  mac_only_encrypted: z.boolean().nullish(),
  version: z.string().nullish(),
});

export type SopsMetadata = z.infer<typeof sopsMetadataSchema>;

/** One age recipient of a file and its armored, age-encrypted copy of the data key. */
export type AgeKey = z.infer<typeof ageKeySchema>;

/** Which leaves are encrypted: sops's suffix and regex rules (at most one is set by sops). */
export interface CryptRules {
  unencryptedSuffix?: string;
  encryptedSuffix?: string;
  unencryptedRegex?: SopsRegex;
  encryptedRegex?: SopsRegex;
}

/** The rules as written in a file's metadata or a creation rule (sops's field names). */
export interface CryptRuleFields {
  unencrypted_suffix?: string | null | undefined;
  encrypted_suffix?: string | null | undefined;
  unencrypted_regex?: string | null | undefined;
  encrypted_regex?: string | null | undefined;
}

/**
 * The rules of `meta` (a file's metadata or a creation rule), with sops's default
 * (`_unencrypted` suffix) when none is set. Regexes are compiled as sops compiles them
 * (`compileSopsRegex`: RE2, linear time, bounded); throws `SopsRegexError` for one that is not
 * (the caller names the file and turns it into its own error).
 */
export function cryptRules(meta: CryptRuleFields): CryptRules {
  const rules: CryptRules = {};
  if (meta.unencrypted_suffix) rules.unencryptedSuffix = meta.unencrypted_suffix;
  if (meta.encrypted_suffix) rules.encryptedSuffix = meta.encrypted_suffix;
  if (meta.unencrypted_regex) rules.unencryptedRegex = compileSopsRegex(meta.unencrypted_regex);
  if (meta.encrypted_regex) rules.encryptedRegex = compileSopsRegex(meta.encrypted_regex);
  return Object.keys(rules).length ? rules : { unencryptedSuffix: '_unencrypted' };
}

/** Whether the leaf at `path` (its map keys) is encrypted under `rules` (sops `Tree.shouldBeEncrypted`, comments aside). */
export function isEncryptedPath(path: readonly string[], rules: CryptRules): boolean {
  let encrypted = true;
  if (rules.unencryptedSuffix && path.some((k) => k.endsWith(rules.unencryptedSuffix!))) encrypted = false;
  if (rules.encryptedSuffix) encrypted = path.some((k) => k.endsWith(rules.encryptedSuffix!));
  if (rules.unencryptedRegex && path.some((k) => rules.unencryptedRegex!.test(k))) encrypted = false;
  if (rules.encryptedRegex) encrypted = path.some((k) => rules.encryptedRegex!.test(k));
  return encrypted;
}

/** The rules as sops writes them into a file's metadata (the default suffix included). */
export function cryptRuleFields(rules: CryptRules): CryptRuleFields {
  return {
    ...(rules.unencryptedSuffix ? { unencrypted_suffix: rules.unencryptedSuffix } : {}),
    ...(rules.encryptedSuffix ? { encrypted_suffix: rules.encryptedSuffix } : {}),
    ...(rules.unencryptedRegex ? { unencrypted_regex: rules.unencryptedRegex.source } : {}),
    ...(rules.encryptedRegex ? { encrypted_regex: rules.encryptedRegex.source } : {}),
  };
}

/** The age keys of `meta`: the top-level list, or those of its one key group. */
export function ageKeysOf(meta: SopsMetadata): AgeKey[] {
  return [...(meta.age ?? []), ...(meta.key_groups ?? []).flatMap((g) => g.age ?? [])];
}
