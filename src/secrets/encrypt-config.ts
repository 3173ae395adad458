import { Encrypter } from 'age-encryption';
import { GroundworkError } from '../core/errors.js';
import {
  creationRuleFor,
  findSopsConfig,
  loadSopsConfig,
  sopsConfigInvalid,
  type MatchedRule,
} from './sops-config.js';
import { cryptRules, type CryptRuleFields, type CryptRules } from './sops-metadata.js';
import { SopsRegexError } from './sops-regex.js';

/** The flags that choose how a new file is encrypted (each overrides its rule field). */
export interface EncryptFlags {
  /** age recipients, comma-separated (sops `--age`): replaces the rule's keys. */
  age?: string;
  encryptedRegex?: string;
  unencryptedRegex?: string;
  encryptedSuffix?: string;
  unencryptedSuffix?: string;
  macOnlyEncrypted?: boolean;
}

/** For whom and how a new file is encrypted, and where that was decided (for messages). */
export interface EncryptConfig {
  recipients: string[];
  rules: CryptRules;
  macOnlyEncrypted: boolean;
  /** `--age`, or `.sops.yaml creation_rules[2]`. */
  from: string;
}

/** An age X25519 recipient's shape (bech32, 62 characters); `isAgeRecipient` also checks its checksum. */
const RECIPIENT = /^age1[02-9ac-hj-np-z]{58}$/;

/** Whether `text` is an age X25519 recipient (`age1…`, checksum included), the kind sops writes for. */
export function isAgeRecipient(text: string): boolean {
  if (!RECIPIENT.test(text)) return false;
  try {
    new Encrypter().addRecipient(text);
    return true;
  } catch {
    return false;
  }
}

/** Key sources sops can encrypt for and Groundwork cannot. */
const OTHER_KEYS = [
  'pgp',
  'kms',
  'gcp_kms',
  'azure_keyvault',
  'hc_vault_transit_uri',
  'hckms',
] as const satisfies readonly (keyof MatchedRule['rule'])[];

/**
 * The encryption of a new file, as sops's `getEncryptConfig` decides it: recipients from `--age`
 * when given (the rule's keys are then ignored), else from the matched creation rule; each crypt
 * rule from its flag, else from the creation rule; at most one crypt rule in all (sops's "cannot
 * use more than one of …"); none means sops's `_unencrypted` suffix. A rule that needs what
 * Groundwork does not write (pgp, KMS or Vault keys, several key groups, Shamir, comment regexes)
 * is refused with SopsConfigInvalid rather than writing a file its other readers cannot open; bad
 * flags are InvalidFlag. Regexes compile as sops's (RE2, bounded). Never quotes a value.
 */
export function resolveEncryptConfig(rule: MatchedRule | undefined, flags: EncryptFlags): EncryptConfig {
  const where = rule ? `${rule.config} creation_rules[${rule.index}]` : '';
  const r = rule?.rule;
  const refuse = (message: string, fix: string) => sopsConfigInvalid(rule!.config, message, fix);
  let recipients: string[];
  let from: string;
  if (flags.age !== undefined) {
    recipients = splitKeys(flags.age);
    from = '--age';
  } else {
    if (!r)
      throw new GroundworkError({
        code: 'MissingFlag',
        subject: '--age',
        message: 'no age recipient: no .sops.yaml creation rule applies to the file and --age is not given',
        fix: 'pass --age age1…, or write a .sops.yaml (groundwork secret init-rules --age age1…)',
      });
    for (const field of OTHER_KEYS)
      if (keyList(r[field]).length)
        throw refuse(
          `creation_rules[${rule!.index}] encrypts for ${field} keys, which Groundwork cannot: the file would not open for them`,
          'encrypt this file with sops, or give it a rule with age recipients only (or pass --age)',
        );
    if ((r.key_groups?.length ?? 0) > 1 || r.shamir_threshold)
      throw refuse(
        `creation_rules[${rule!.index}] splits the data key over key groups (Shamir), which Groundwork does not write`,
        'encrypt this file with sops, or give it a rule with age recipients only',
      );
    const grouped = r.key_groups?.[0];
    if (grouped && Object.keys(grouped).some((k) => k !== 'age' && grouped[k] != null))
      throw refuse(
        `creation_rules[${rule!.index}].key_groups[0] names keys other than age, which Groundwork cannot encrypt for`,
        'encrypt this file with sops, or list age recipients only',
      );
    recipients = grouped ? (grouped.age ?? []).map((k) => k.trim()) : keyList(r.age);
    from = where;
  }
  const bad = recipients.filter((k) => !isAgeRecipient(k));
  if (!recipients.length || bad.length) {
    const message = `not an age recipient: ${bad.map((k) => k.slice(0, 80)).join(', ') || '(none)'}`;
    const fix = 'give the age1… recipient that groundwork secret keygen (or age-keygen) printed';
    if (from === '--age') throw new GroundworkError({ code: 'InvalidFlag', subject: '--age', message, fix });
    throw refuse(`creation_rules[${rule!.index}].age: ${message}`, fix);
  }
  if (r?.unencrypted_comment_regex || r?.encrypted_comment_regex)
    throw refuse(
      `creation_rules[${rule!.index}] uses comment regexes, which Groundwork does not read`,
      'remove unencrypted_comment_regex / encrypted_comment_regex from the rule',
    );
  const fields: CryptRuleFields = {
    encrypted_regex: flags.encryptedRegex ?? r?.encrypted_regex,
    unencrypted_regex: flags.unencryptedRegex ?? r?.unencrypted_regex,
    encrypted_suffix: flags.encryptedSuffix ?? r?.encrypted_suffix,
    unencrypted_suffix: flags.unencryptedSuffix ?? r?.unencrypted_suffix,
  };
  const set = Object.entries(fields).filter(([, v]) => v);
  if (set.length > 1)
    throw new GroundworkError({
      code: 'InvalidFlag',
      subject: set.map(([k]) => k).join(', '),
      message: `more than one of encrypted_suffix, unencrypted_suffix, encrypted_regex, unencrypted_regex${rule ? ` (flags and ${where})` : ''}: sops refuses that`,
      fix: 'keep one of them',
    });
  let rules: CryptRules;
  try {
    rules = cryptRules(fields);
  } catch (err) {
    if (!(err instanceof SopsRegexError)) throw err;
    throw new GroundworkError({
      code: rule && set[0] && !flagged(flags) ? 'SopsConfigInvalid' : 'InvalidFlag',
      subject: rule && !flagged(flags) ? rule.config : set[0]![0],
      message: `${set[0]![0]} ${err.message}`,
      fix: 'write the regex in Go RE2 syntax, as sops reads it',
    });
  }
  return {
    recipients,
    rules,
    macOnlyEncrypted: flags.macOnlyEncrypted === true || r?.mac_only_encrypted === true,
    from,
  };
}

function flagged(flags: EncryptFlags): boolean {
  return Boolean(
    flags.encryptedRegex ?? flags.unencryptedRegex ?? flags.encryptedSuffix ?? flags.unencryptedSuffix,
  );
}

/** A key field as sops's `parseKeyField` reads it: a comma list (blanks dropped) or a list. */
function keyList(field: string | string[] | null | undefined): string[] {
  if (!field) return [];
  return typeof field === 'string' ? splitKeys(field) : field.map((k) => k.trim());
}

function splitKeys(text: string): string[] {
  return text
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
}

/**
 * `resolveEncryptConfig` for `file` with the `.sops.yaml` sops would use: `--config` (or
 * `SOPS_CONFIG`) when given, as sops reads them, else the one found from the file up
 * (`findSopsConfig`). `warning` is for stderr (an ignored `.sops.yml`).
 */
export async function encryptConfigFor(
  file: string,
  flags: EncryptFlags & { config?: string },
  env: NodeJS.ProcessEnv,
): Promise<{ config: EncryptConfig; warning?: string }> {
  const named = flags.config ?? (env.SOPS_CONFIG || undefined);
  const found = named ? { path: named } : await findSopsConfig(file);
  let rule: MatchedRule | undefined;
  if (found.path) {
    const config = await loadSopsConfig(found.path).catch((err: unknown) => {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EACCES')
        throw sopsConfigInvalid(found.path!, `cannot be read (${code})`, 'name an existing .sops.yaml');
      throw err;
    });
    rule = creationRuleFor(config, file);
  }
  return {
    config: resolveEncryptConfig(rule, flags),
    ...('warning' in found && found.warning ? { warning: found.warning } : {}),
  };
}
