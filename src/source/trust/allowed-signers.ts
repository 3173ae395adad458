import { SshFormatError, parseSshPublicKey, type SshPublicKey } from './ssh-wire.js';

// The allowed signers file of `ssh-keygen -Y verify` and git's gpg.ssh.allowedSignersFile
// (ssh-keygen(1), "ALLOWED SIGNERS"): one key per line,
//   principals [options] keytype base64-key [comment]
// principals a comma-separated list (quoted when it holds spaces), options among
// namespaces="git,file", valid-after="YYYYMMDD[HHMM[SS]]", valid-before=..., cert-authority.

/** One trusted SSH key and who it stands for. */
export interface AllowedSigner {
  /** The principals as written (`alice@example.com`, `ci@acme`): reported as the signer. */
  readonly principals: readonly string[];
  readonly key: SshPublicKey;
  /** Namespaces the key may sign in; undefined: any. */
  readonly namespaces?: readonly string[];
  /** The key is trusted from / until these instants (UTC). */
  readonly validAfter?: Date;
  readonly validBefore?: Date;
}

/** A line that could not be read: its number and why (never its text). */
export interface AllowedSignersProblem {
  readonly line: number;
  readonly reason: string;
}

const KEY_TYPES =
  /^(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(256|384|521)|sk-[a-z0-9-]+@openssh\.com|[a-z0-9-]+-cert-v01@openssh\.com)$/;
/** Printable, no quotes or backslashes: what a principal may hold to be reported as it is. */
const PRINCIPAL = /^[A-Za-z0-9._@+*?!=:/-]{1,256}$/;
const MAX_LINE = 16 * 1024;

/** Splits a line into fields on blanks, keeping double-quoted runs (options, quoted principals) whole. */
function fields(line: string): string[] | undefined {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    if (!quoted && (ch === ' ' || ch === '\t')) {
      if (cur) out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (quoted) return undefined;
  if (cur) out.push(cur);
  return out;
}

/** `YYYYMMDD[HHMM[SS]]` (UTC when suffixed Z, and here always read as UTC) → Date. */
function sshTime(text: string): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(?:(\d{2}))?)?Z?$/.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map((v) => Number(v ?? 0));
  const date = new Date(Date.UTC(y!, mo! - 1, d!, h, mi, s));
  return Number.isNaN(date.getTime()) || date.getUTCMonth() !== mo! - 1 ? undefined : date;
}

function parseOptions(text: string): Omit<AllowedSigner, 'principals' | 'key'> | string {
  const out: { namespaces?: string[]; validAfter?: Date; validBefore?: Date } = {};
  for (const opt of text.match(/(?:[^,"]|"[^"]*")+/g) ?? []) {
    const m = /^([a-z-]+)(?:="([^"]*)")?$/i.exec(opt);
    const name = m?.[1]?.toLowerCase();
    const value = m?.[2];
    if (name === 'cert-authority')
      return 'cert-authority keys are not supported: list the signing keys themselves';
    if (name === 'namespaces' && value !== undefined) out.namespaces = value.split(',').filter(Boolean);
    else if ((name === 'valid-after' || name === 'valid-before') && value !== undefined) {
      const at = sshTime(value);
      if (!at) return `${name} is not YYYYMMDD[HHMM[SS]]`;
      out[name === 'valid-after' ? 'validAfter' : 'validBefore'] = at;
    } else return 'unknown option (known: namespaces, valid-after, valid-before)';
  }
  return out;
}

/**
 * Parses an allowed signers file. Lines that cannot be read are returned as problems by line
 * number, never quoted: the file comes from a Secret or ConfigMap, and its text must not reach a
 * status or a log. Comments (`#`) and blank lines are skipped.
 *
 * @example
 * const { signers } = parseAllowedSigners('alice@example.com namespaces="git" ssh-ed25519 AAAAC3…');
 */
export function parseAllowedSigners(text: string): {
  signers: AllowedSigner[];
  problems: AllowedSignersProblem[];
} {
  const signers: AllowedSigner[] = [];
  const problems: AllowedSignersProblem[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const problem = (reason: string) => problems.push({ line: i + 1, reason });
    if (line.length > MAX_LINE) return problem('line too long');
    const f = fields(line);
    if (!f) return problem('unbalanced quotes');
    if (f.length < 3) return problem('expected: principals [options] keytype base64-key');
    const keyAt = KEY_TYPES.test(f[1]!) ? 1 : 2;
    const type = f[keyAt];
    const b64 = f[keyAt + 1];
    if (!type || !KEY_TYPES.test(type) || !b64) return problem('no key type and key where expected');
    const principals = f[0]!.replace(/^"|"$/g, '').split(',');
    if (!principals.every((p) => PRINCIPAL.test(p)))
      return problem('a principal holds characters other than letters, digits and ._@+*?!=:/-');
    const options = keyAt === 2 ? parseOptions(f[1]!) : {};
    if (typeof options === 'string') return problem(options);
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) return problem('the key is not base64');
    try {
      const key = parseSshPublicKey(Buffer.from(b64, 'base64'));
      if (key.type !== type) return problem('the key type does not match the key');
      signers.push({ principals, key, ...options });
    } catch (err) {
      problem(err instanceof SshFormatError ? err.message : 'not a public key');
    }
  });
  return { signers, problems };
}
