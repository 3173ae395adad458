import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hasCode } from '../../src/core/errors.js';
import {
  redactionKey,
  redactionTag,
  useRedactionKey,
  useRedactionKeyProvider,
  type RedactionKey,
} from '../../src/core/redaction-key.js';
import {
  cliRedactionKey,
  readOrCreateKeyFile,
  redactionKeyFromEnv,
  redactionKeyPath,
} from '../../src/core/redaction-key-sources.js';
import { redactedValue } from '../../src/core/redact.js';

const key = (text: string): RedactionKey => ({ bytes: Buffer.from(text), source: 'env' });
const K1 = key('the first key, 32 bytes long....');
const K2 = key('the second key, 32 bytes long...');
const TAG = /^<redacted hmac:[0-9a-f]{8}>$/;

describe('redactionTag', () => {
  it('same value and same key: the same tag', () => {
    expect(redactionTag(['hunter2'], K1)).toMatch(TAG);
    expect(redactionTag(['hunter2'], K1)).toBe(redactionTag(['hunter2'], key(K1.bytes.toString())));
  });

  it('different keys: different tags for the same value', () => {
    expect(redactionTag(['hunter2'], K1)).not.toBe(redactionTag(['hunter2'], K2));
  });

  it('different values under one key: different tags (a change stays visible)', () => {
    expect(redactionTag(['hunter2'], K1)).not.toBe(redactionTag(['hunter3'], K1));
  });

  it('a guess cannot be confirmed without the key: the tag is not a plain sha256 prefix', () => {
    // The old tag was the first 8 hex digits of sha256(value): anyone could compute it for a guess.
    const guess = 'hunter2';
    const plain = createHash('sha256').update(guess).digest('hex').slice(0, 8);
    const plainOfParts = createHash('sha256').update(`${guess}\0`).digest('hex').slice(0, 8);
    for (const k of [K1, K2]) {
      const tag = redactionTag([guess], k);
      expect(tag).not.toContain(plain);
      expect(tag).not.toContain(plainOfParts);
    }
    expect(redactedValue(guess)).not.toContain(plain);
  });

  it('parts are delimited: moving a byte between parts changes the tag', () => {
    expect(redactionTag(['ab', 'c'], K1)).not.toBe(redactionTag(['a', 'bc'], K1));
  });
});

describe('the process key', () => {
  it('without one set, a random per-run key: two processes tag one value differently', async () => {
    const fresh = async () => {
      vi.resetModules();
      return (await import('../../src/core/redaction-key.js')).redactionKey();
    };
    const [a, b] = [await fresh(), await fresh()];
    expect(a.source).toBe('per-run');
    expect(a.bytes).toHaveLength(32);
    expect(redactionTag(['x'], a)).not.toBe(redactionTag(['x'], b));
  });

  it('is the one set, the last one winning over a provider', () => {
    useRedactionKey(K1);
    expect(redactedValue('x')).toBe(redactionTag(['x'], K1));
    useRedactionKeyProvider(() => {
      throw new Error('unused');
    });
    useRedactionKey(K2);
    expect(redactionKey()).toBe(K2);
  });

  it('a provider runs once, at the first use', () => {
    let calls = 0;
    useRedactionKeyProvider(() => {
      calls++;
      return K2;
    });
    expect(calls).toBe(0);
    expect(redactedValue('x')).toBe(redactionTag(['x'], K2));
    expect(redactedValue('y')).toBe(redactionTag(['y'], K2));
    expect(calls).toBe(1);
  });
});

describe('key sources', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gw-redaction-key-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('GROUNDWORK_REDACTION_KEY: its bytes; empty is unset; shorter than 16 bytes is refused', () => {
    expect(redactionKeyFromEnv({ GROUNDWORK_REDACTION_KEY: 'a'.repeat(16) })?.bytes.toString()).toBe(
      'a'.repeat(16),
    );
    expect(redactionKeyFromEnv({ GROUNDWORK_REDACTION_KEY: '' })).toBeUndefined();
    let err: unknown;
    try {
      redactionKeyFromEnv({ GROUNDWORK_REDACTION_KEY: 'short-secret' });
    } catch (e) {
      err = e;
    }
    expect(hasCode(err, 'RedactionKeyInvalid')).toBe(true);
    expect(String(err)).not.toContain('short-secret');
  });

  it('the key file is created 0600 (in a 0700 directory) on first use and read back after', () => {
    const path = join(dir, 'groundwork', 'redaction-key');
    const first = readOrCreateKeyFile(path);
    expect(first.source).toBe('file');
    expect(first.bytes).toHaveLength(32);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'groundwork')).mode & 0o777).toBe(0o700);
    expect(readFileSync(path, 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
    expect(readOrCreateKeyFile(path).bytes.equals(first.bytes)).toBe(true);
  });

  it('a key file without 64 hex digits is refused, without echoing its content', () => {
    const path = join(dir, 'redaction-key');
    writeFileSync(path, 'not-a-key-but-a-password\n');
    let err: unknown;
    try {
      readOrCreateKeyFile(path);
    } catch (e) {
      err = e;
    }
    expect(hasCode(err, 'RedactionKeyInvalid')).toBe(true);
    expect(String(err)).not.toContain('not-a-key-but-a-password');
  });

  it('the CLI: the env key first; in CI a per-run key and no file; else the key file in the cache root', () => {
    const env = { GROUNDWORK_CACHE_DIR: dir };
    expect(cliRedactionKey({ ...env, GROUNDWORK_REDACTION_KEY: 'k'.repeat(32) }).source).toBe('env');
    const inCi = cliRedactionKey({ ...env, CI: 'true' });
    expect(inCi.source).toBe('per-run');
    expect(() => statSync(redactionKeyPath(env))).toThrow();
    const onLaptop = cliRedactionKey(env);
    expect(onLaptop.source).toBe('file');
    expect(redactionKeyPath(env)).toBe(join(dir, 'redaction-key'));
    expect(cliRedactionKey({ ...env, CI: 'false' }).bytes.equals(onLaptop.bytes)).toBe(true);
  });
});
