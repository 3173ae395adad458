import { stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { parseDocument } from 'yaml';
import { z } from 'zod';
import { readBoundedFile } from '../core/confined-file.js';
import { GroundworkError } from '../core/errors.js';
import { compileSopsRegex, SopsRegexError } from './sops-regex.js';

/** sops's names for its configuration file, and how far up it looks (`config/config.go`). */
const CONFIG_NAME = '.sops.yaml';
const ALTERNATE_NAME = '.sops.yml';
const MAX_DEPTH = 100;
/** Bounds of a `.sops.yaml` (real ones are a few hundred bytes and a few rules). */
const MAX_CONFIG_BYTES = 1024 * 1024;
const MAX_RULES = 1000;

const keys = z.union([z.string(), z.array(z.string())]).nullish();
const text = z.string().nullish();

/** One creation rule, as sops's `creationRule` struct reads it (unknown fields ignored, as go-yaml does). */
const ruleSchema = z.looseObject({
  path_regex: text,
  age: keys,
  pgp: keys,
  kms: keys,
  gcp_kms: keys,
  azure_keyvault: keys,
  hc_vault_transit_uri: keys,
  hckms: z.array(z.string()).nullish(),
  key_groups: z.array(z.looseObject({ age: z.array(z.string()).nullish() })).nullish(),
  shamir_threshold: z.number().int().nullish(),
  unencrypted_suffix: text,
  encrypted_suffix: text,
  unencrypted_regex: text,
  encrypted_regex: text,
  unencrypted_comment_regex: text,
  encrypted_comment_regex: text,
  mac_only_encrypted: z.boolean().nullish(),
});

const configSchema = z.looseObject({ creation_rules: z.array(ruleSchema).max(MAX_RULES).nullish() });

/** A creation rule of a `.sops.yaml`. */
export type CreationRule = z.infer<typeof ruleSchema>;

/** A `.sops.yaml`, read. */
export interface SopsConfig {
  /** Its absolute path: the subject of errors. */
  path: string;
  /** `creation_rules`; undefined when it has none (sops then acts as if there were no file). */
  rules: CreationRule[] | undefined;
}

/** The rule that applies to a file, with its place in the file for messages. */
export interface MatchedRule {
  config: string;
  /** 0-based index in `creation_rules`. */
  index: number;
  rule: CreationRule;
}

/** SopsConfigInvalid naming `config`. */
export function sopsConfigInvalid(config: string, message: string, fix: string): GroundworkError {
  return new GroundworkError({ code: 'SopsConfigInvalid', subject: config, message, fix });
}

/**
 * The `.sops.yaml` that applies to `file`: the first one found in the file's directory and its
 * parents, up to 100 levels, as sops finds it, but starting from the file, not from the current
 * directory (sops 3.13.3 starts from the current directory, getsops/sops#242: run from a
 * directory at or under the one holding `.sops.yaml`, both find the same). A `.sops.yml` is
 * ignored, as sops ignores it, with `warning` saying so. Nothing is read here.
 */
export async function findSopsConfig(file: string): Promise<{ path?: string; warning?: string }> {
  let dir = dirname(resolve(file));
  let alternate: string | undefined;
  for (let i = 0; i < MAX_DEPTH; i++) {
    const candidate = join(dir, CONFIG_NAME);
    if (await exists(candidate))
      return { path: candidate, ...(alternate ? { warning: ignored(alternate, candidate) } : {}) };
    if (!alternate && (await exists(join(dir, ALTERNATE_NAME)))) alternate = join(dir, ALTERNATE_NAME);
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return alternate ? { warning: ignored(alternate) } : {};
}

function ignored(alternate: string, used?: string): string {
  return `ignoring ${alternate}: sops reads only files named ${CONFIG_NAME}${used ? `; using ${used}` : ''}`;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * Reads a `.sops.yaml` strictly: a regular file of at most 1 MiB, one YAML document, at most 1,000
 * creation rules, each field of the type sops reads. Throws SopsConfigInvalid (or
 * NotARegularFile / FileTooLarge) naming the file and the field, never quoting the file.
 */
export async function loadSopsConfig(path: string): Promise<SopsConfig> {
  const content = await readBoundedFile(path, { maxBytes: MAX_CONFIG_BYTES, what: 'sops configuration' });
  const doc = parseDocument(content, { uniqueKeys: true });
  const fix = 'write creation_rules as sops documents them: a list of {path_regex, age, …}';
  if (doc.errors.length) {
    const line = doc.errors[0]!.linePos?.[0].line;
    throw sopsConfigInvalid(path, `is not YAML${line ? ` (line ${line})` : ''}`, fix);
  }
  let json: unknown;
  try {
    json = doc.toJS({ maxAliasCount: 100 }) ?? {};
  } catch {
    throw sopsConfigInvalid(path, 'uses too many YAML aliases', fix);
  }
  const parsed = configSchema.safeParse(json);
  if (!parsed.success) {
    const field = parsed.error.issues[0]!.path.join('.') || '(top level)';
    throw sopsConfigInvalid(path, `is not a sops configuration at ${field}`, fix);
  }
  return { path, rules: parsed.data.creation_rules ?? undefined };
}

/**
 * The creation rule for `file` (any path; matched as sops matches it: relative to the directory
 * of the `.sops.yaml` when inside it, else absolute): the first rule without `path_regex` or
 * whose `path_regex` (RE2, `compileSopsRegex`) matches. Undefined when the config has no
 * `creation_rules`. Throws SopsConfigInvalid when no rule matches or a `path_regex` is refused.
 */
export function creationRuleFor(config: SopsConfig, file: string): MatchedRule | undefined {
  if (!config.rules) return undefined;
  const configDir = dirname(resolve(config.path));
  const absolute = resolve(file);
  const matched = absolute.startsWith(configDir + sep) ? absolute.slice(configDir.length + 1) : absolute;
  for (const [index, rule] of config.rules.entries()) {
    if (!rule.path_regex) return { config: config.path, index, rule };
    try {
      if (compileSopsRegex(rule.path_regex).test(matched)) return { config: config.path, index, rule };
    } catch (err) {
      if (!(err instanceof SopsRegexError)) throw err;
      throw sopsConfigInvalid(
        config.path,
        `creation_rules[${index}].path_regex ${err.message}`,
        'write the regex in Go RE2 syntax, as sops reads it',
      );
    }
  }
  throw sopsConfigInvalid(
    config.path,
    `no creation rule matches ${matched}`,
    'add a rule whose path_regex matches the file (a last rule without path_regex matches every file), or pass --config',
  );
}
