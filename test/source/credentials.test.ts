import { describe, expect, it } from 'vitest';
import {
  authorizationHeader,
  basicCredentials,
  credentialsFromEnv,
  credentialsFromSecretData,
  redact,
  TOKEN_USERNAME,
} from '../../src/source/credentials.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');

describe('credentialsFromEnv', () => {
  const cases: [string, Record<string, string>, unknown][] = [
    ['nothing', {}, undefined],
    ['empty values', { GROUNDWORK_GIT_TOKEN: '', GROUNDWORK_GIT_USERNAME: '' }, undefined],
    ['a token', { GROUNDWORK_GIT_TOKEN: 'ghp_abc' }, { token: 'ghp_abc' }],
    [
      'a token with a username',
      { GROUNDWORK_GIT_TOKEN: 'glpat', GROUNDWORK_GIT_USERNAME: 'oauth2' },
      { username: 'oauth2', token: 'glpat' },
    ],
    [
      'a username and a password',
      { GROUNDWORK_GIT_USERNAME: 'bot', GROUNDWORK_GIT_PASSWORD: 'pw' },
      { username: 'bot', password: 'pw' },
    ],
    [
      'a token over a password',
      { GROUNDWORK_GIT_TOKEN: 't', GROUNDWORK_GIT_USERNAME: 'bot', GROUNDWORK_GIT_PASSWORD: 'pw' },
      { username: 'bot', token: 't' },
    ],
  ];
  for (const [name, env, expected] of cases) {
    it(`reads ${name}`, () => expect(credentialsFromEnv(env)).toEqual(expected));
  }

  it('refuses a username without a password, and a password without a username', () => {
    expect(() => credentialsFromEnv({ GROUNDWORK_GIT_USERNAME: 'bot' })).toThrow(
      expect.objectContaining({ code: 'InvalidCredentials' }),
    );
    expect(() => credentialsFromEnv({ GROUNDWORK_GIT_PASSWORD: 'pw' })).toThrow(
      expect.objectContaining({ code: 'InvalidCredentials' }),
    );
  });
});

describe('credentialsFromSecretData', () => {
  it('decodes a token, and a username with a password, like a Flux git Secret', () => {
    expect(credentialsFromSecretData({ token: b64('ghs_123') })).toEqual({ token: 'ghs_123' });
    expect(credentialsFromSecretData({ username: b64('git'), password: b64('p@ss:word') })).toEqual({
      username: 'git',
      password: 'p@ss:word',
    });
  });

  it('drops the trailing newline `echo | base64` adds, and ignores other keys', () => {
    expect(
      credentialsFromSecretData({ token: b64('tok\n'), 'ca.crt': b64('PEM'), known_hosts: b64('x') }),
    ).toEqual({
      token: 'tok',
    });
  });

  it('returns undefined for a Secret without git credentials', () => {
    expect(credentialsFromSecretData({ 'ca.crt': b64('PEM') })).toBeUndefined();
  });

  it('refuses values that are not base64 without echoing them', () => {
    let err: unknown;
    try {
      credentialsFromSecretData({ token: 'not base64!!' });
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'InvalidCredentials' });
    expect(String(err)).not.toContain('not base64!!');
  });
});

describe('basicCredentials and authorizationHeader', () => {
  it(`sends a token as the password of ${TOKEN_USERNAME}, or of the given username`, () => {
    expect(basicCredentials({ token: 't' })).toEqual({ username: 'x-access-token', password: 't' });
    expect(basicCredentials({ username: 'oauth2', token: 't' })).toEqual({
      username: 'oauth2',
      password: 't',
    });
    expect(authorizationHeader({ username: 'u', password: 'p' })).toBe(`Basic ${b64('u:p')}`);
    expect(authorizationHeader(undefined)).toBeUndefined();
  });
});

describe('redact', () => {
  const auth = { username: 'bot', password: 'hunter2/+x' };

  it('removes the secret in every spelling, and userinfo from URLs', () => {
    const text = [
      'GET https://bot:hunter2%2F%2Bx@git.example/acme/platform.git failed',
      'password hunter2/+x',
      `header Authorization: Basic ${b64('bot:hunter2/+x')}`,
      `raw ${b64('hunter2/+x')}`,
    ].join('\n');
    const out = redact(text, auth);
    expect(out).not.toMatch(/hunter2/);
    expect(out).not.toContain(b64('bot:hunter2/+x'));
    expect(out).not.toContain(b64('hunter2/+x'));
    expect(out).toContain('GET https://git.example/acme/platform.git failed');
    expect(out).toContain('password ***');
  });

  it('removes tokens, keeps user names outside URLs, and works without credentials', () => {
    expect(redact('token ghp_secret used by bot', { token: 'ghp_secret' })).toBe('token *** used by bot');
    expect(redact('cloning https://x:y@host/repo.git')).toBe('cloning https://host/repo.git');
    expect(redact('{"authorization":"Bearer abc.def"}')).toBe('{"authorization":"Bearer ***"}');
    expect(redact('nothing to hide', undefined)).toBe('nothing to hide');
  });
});
