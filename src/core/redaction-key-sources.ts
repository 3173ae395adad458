import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cacheRoot } from './cache-root.js';
import { GroundworkError } from './errors.js';
import { MIN_REDACTION_KEY_BYTES, perRunRedactionKey, type RedactionKey } from './redaction-key.js';

/** The environment variable that gives every route the same key (a CI secret, a mounted Secret). */
const REDACTION_KEY_ENV = 'GROUNDWORK_REDACTION_KEY';

/** A redaction key given from outside that is too short, or a key file that cannot be used. */
export class RedactionKeyInvalidError extends GroundworkError {
  constructor(subject: string, message: string, fix: string, cause?: unknown) {
    super({ code: 'RedactionKeyInvalid', subject, message, fix, cause });
  }
}

/**
 * The key in `GROUNDWORK_REDACTION_KEY` (its UTF-8 bytes; an empty value counts as unset, as a
 * CI secret that is not defined expands to ""), or undefined.
 * @throws RedactionKeyInvalidError when it is shorter than `MIN_REDACTION_KEY_BYTES`.
 */
export function redactionKeyFromEnv(env: NodeJS.ProcessEnv = process.env): RedactionKey | undefined {
  const value = env[REDACTION_KEY_ENV];
  if (!value) return undefined;
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length < MIN_REDACTION_KEY_BYTES)
    throw new RedactionKeyInvalidError(
      REDACTION_KEY_ENV,
      `is ${bytes.length} bytes; at least ${MIN_REDACTION_KEY_BYTES} are needed`,
      'use a random value, e.g. `openssl rand -hex 32`',
    );
  return { bytes, source: 'env' };
}

/** `<cache root>/redaction-key` (see `cacheRoot`): losing it only changes the tags. */
export function redactionKeyPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheRoot(env), 'redaction-key');
}

/**
 * The key in the file at `path`, created on first use: 32 random bytes as 64 hex digits, written
 * to a temporary file of mode 0600 and linked into place, so a concurrent process either wins the
 * link or reads the complete key of the one that did. A new directory is made 0700. Never
 * overwrites a key file.
 * @throws RedactionKeyInvalidError when the file holds no key of 64 hex digits, or cannot be read
 *   or created.
 */
export function readOrCreateKeyFile(path: string): RedactionKey {
  const fail = (message: string, cause?: unknown) =>
    new RedactionKeyInvalidError(
      path,
      message,
      `delete ${path} (a new key is made on next use) or set ${REDACTION_KEY_ENV}`,
      cause,
    );
  let text = readKeyFile(path, fail);
  if (text === undefined) {
    try {
      createKeyFile(path);
    } catch (err) {
      throw fail('cannot create the redaction key file', err);
    }
    text = readKeyFile(path, fail) ?? '';
  }
  // Never echo the content: it is the key.
  const hex = text.trim();
  if (!/^[0-9a-f]{64}$/.test(hex)) throw fail('the redaction key file does not hold 64 hex digits');
  return { bytes: Buffer.from(hex, 'hex'), source: 'file' };
}

/** The file's text, or undefined when there is no file. */
function readKeyFile(path: string, fail: (message: string, cause: unknown) => Error): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw fail('cannot read the redaction key file', err);
  }
}

function createKeyFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(tmp, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(tmp, path); // atomic, and refuses to replace a key another process linked first
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(tmp);
  }
}

/**
 * The CLI's key: `GROUNDWORK_REDACTION_KEY` when set; else in CI (`CI` set, as GitHub Actions and
 * most CI systems do) a random per-run key, so nothing is left on a shared runner for a later job
 * to read; else the key file (`redactionKeyPath`), created 0600 on first use.
 */
export function cliRedactionKey(env: NodeJS.ProcessEnv = process.env): RedactionKey {
  const fromEnv = redactionKeyFromEnv(env);
  if (fromEnv) return fromEnv;
  if (env.CI && env.CI !== 'false' && env.CI !== '0') return perRunRedactionKey();
  return readOrCreateKeyFile(redactionKeyPath(env));
}
