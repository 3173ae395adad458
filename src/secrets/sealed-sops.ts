import { z } from 'zod';
import { sopsFileInvalid } from './sops-errors.js';

/**
 * The sealed form of a SOPS file: what the render domain (the synth child, where repository
 * content is parsed) hands the trusted side (the agent, the CLI's plan/apply/drift), which holds
 * the age identities. It is compact, structured data, carried as JSON in the
 * `groundwork.io/sops` annotation of the value-less Secret a `SopsSecret` emits; the trusted side
 * parses it with `parseSealedSops` (a strict zod schema with bounds) and never parses YAML from
 * the repository. Nothing in it is trusted: the trusted side verifies every encrypted value
 * against its key path and the file's MAC before using anything (`openSops`), and refuses Secret
 * values sops cannot protect (`checkSecretLeaves`).
 *
 * Frozen once released: `v` says which layout this is.
 */
export interface SealedSops {
  v: 1;
  /**
   * Every non-null scalar of the file but its `sops` key, in file order (the MAC's order). A map
   * key is a string segment of `path`, a sequence item its index (a number): sops's additional data
   * (`a:b:`) uses the string segments only.
   */
  leaves: SealedLeaf[];
  /** The file's age recipients and their armored copies of the data key. */
  age: { recipient: string; enc: string }[];
  /** `sops.lastmodified`, as written (the MAC's additional data). */
  lastmodified: string;
  /** `sops.mac`: `ENC[AES256_GCM,…]`. */
  mac: string;
  /** `sops.mac_only_encrypted`: the MAC covers encrypted values only. */
  macOnlyEncrypted: boolean;
}

/** A key path: map keys (strings) and sequence indices (numbers). */
export type SealedPath = (string | number)[];

/**
 * A leaf the file's rules encrypt (`enc`: its `ENC[…]` text), or one they leave readable (`plain`:
 * its bytes in the MAC as sops writes them, `macBytes`, so the trusted side hashes text only).
 * An empty value is `plain: ""` either way: sops neither encrypts nor MACs it.
 */
export type SealedLeaf = { path: SealedPath; enc: string } | { path: SealedPath; plain: string };

/** Bounds of a sealed form: a Secret holds at most 1 MiB, its ciphertext about 1.4 times that. */
export const SEALED_LIMITS = {
  /** The JSON text. */
  bytes: 3 * 1024 * 1024,
  leaves: 10_000,
  depth: 32,
  /** A map key (an annotation key is at most 317 characters). */
  keyChars: 512,
  /** One value's text (ENC or plain). */
  valueChars: 2 * 1024 * 1024,
  recipients: 64,
  /** A recipient (post-quantum `age1pq1…` ones are about 2,000 characters). */
  recipientChars: 4096,
  /** An armored, age-encrypted data key. */
  stanzaChars: 16_384,
} as const;

/** sops's `ENC[…]` shape (`parseEnc` reads its parts). */
export const ENC_SHAPE =
  /^ENC\[AES256_GCM,data:[A-Za-z0-9+/=]*,iv:[A-Za-z0-9+/=]+,tag:[A-Za-z0-9+/=]+,type:(str|int|float|bool|bytes|time|comment)\]$/;

const segment = z.union([
  z.string().max(SEALED_LIMITS.keyChars),
  z.number().int().min(0).max(SEALED_LIMITS.leaves),
]);
const path = z.array(segment).min(1).max(SEALED_LIMITS.depth);

const leafSchema = z.union([
  z.strictObject({ path, enc: z.string().max(SEALED_LIMITS.valueChars).regex(ENC_SHAPE) }),
  z.strictObject({ path, plain: z.string().max(SEALED_LIMITS.valueChars) }),
]);

const sealedSchema = z.strictObject({
  v: z.literal(1),
  leaves: z
    .array(leafSchema)
    .max(SEALED_LIMITS.leaves)
    .refine((leaves) => new Set(leaves.map((l) => JSON.stringify(l.path))).size === leaves.length, {
      message: 'a key path appears twice',
    }),
  age: z
    .array(
      z.strictObject({
        recipient: z
          .string()
          .max(SEALED_LIMITS.recipientChars)
          .regex(/^age1[0-9a-z]+$/),
        enc: z.string().min(1).max(SEALED_LIMITS.stanzaChars),
      }),
    )
    .min(1)
    .max(SEALED_LIMITS.recipients),
  lastmodified: z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$/),
  mac: z.string().max(1024).regex(ENC_SHAPE),
  macOnlyEncrypted: z.boolean(),
});

/**
 * Reads a sealed form from its JSON text (the annotation), strictly: size first, then JSON, then
 * the schema (no unknown field, bounded counts and lengths, no key path twice, recipients and
 * `ENC[…]` values in their shapes). Throws SopsFileInvalid naming `file` and the first field that
 * does not fit, never quoting the text. Parses no YAML.
 */
export function parseSealedSops(text: string, file: string): SealedSops {
  if (text.length > SEALED_LIMITS.bytes)
    throw sopsFileInvalid(file, `its sealed form is larger than ${SEALED_LIMITS.bytes} bytes`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw sopsFileInvalid(file, 'its sealed form is not JSON (rendered by another Groundwork version?)');
  }
  const parsed = sealedSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw sopsFileInvalid(
      file,
      `its sealed form is not valid at ${issue.path.join('.') || '(root)'}: ${issue.message}`,
    );
  }
  return parsed.data as SealedSops;
}

/** The sealed form as the annotation carries it: JSON with fields in a fixed order (stable hashes). */
export function sealedText(sealed: SealedSops): string {
  return JSON.stringify({
    v: sealed.v,
    leaves: sealed.leaves.map((l) =>
      'enc' in l ? { path: l.path, enc: l.enc } : { path: l.path, plain: l.plain },
    ),
    age: sealed.age.map((a) => ({ recipient: a.recipient, enc: a.enc })),
    lastmodified: sealed.lastmodified,
    mac: sealed.mac,
    macOnlyEncrypted: sealed.macOnlyEncrypted,
  });
}

/**
 * A key path for messages: `data.password`, `list[2]`, or `(top level)`. Keys only, never a value;
 * a key with characters beyond letters, digits, `-`, `_`, `.` and `/` is quoted as JSON, so a key
 * cannot bring a line break or markup into a message.
 */
export function pathText(path: readonly (string | number)[]): string {
  if (!path.length) return '(top level)';
  const key = (s: string) => (/^[-_./a-zA-Z0-9]{1,253}$/.test(s) ? s : JSON.stringify(s));
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? key(s) : `.${key(s)}`)).join('');
}
