import { describe, expect, it } from 'vitest';
import { REGISTRATION_TOKEN } from '../../src/hub/registration-schema.js';
import {
  newRegistrationToken,
  registrationName,
  tokenHash,
  tokenId,
  tokenMatches,
  tokenSecretName,
} from '../../src/hub/registration-token.js';

describe('registration tokens', () => {
  it('makes well-formed, distinct tokens whose id prefixes them', () => {
    const a = newRegistrationToken();
    const b = newRegistrationToken();
    expect(a.token).toMatch(REGISTRATION_TOKEN);
    expect(a.token.startsWith(`${a.id}.`)).toBe(true);
    expect(a.token).not.toBe(b.token);
    expect(tokenId(a.token)).toBe(a.id);
    expect(tokenSecretName(a.id)).toBe(`hub-token-${a.id}`);
  });

  it('reads no id from a malformed token', () => {
    expect(tokenId('abc')).toBeUndefined();
    expect(tokenId('../../x.yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy')).toBeUndefined();
  });

  it('matches its own hash only', () => {
    const { token } = newRegistrationToken();
    const other = newRegistrationToken().token;
    expect(tokenMatches(token, tokenHash(token))).toBe(true);
    expect(tokenMatches(other, tokenHash(token))).toBe(false);
    expect(tokenMatches(token, 'not-hex')).toBe(false);
  });

  it('derives a registration name that says nothing of the stored hash', () => {
    const { token } = newRegistrationToken();
    const name = registrationName(token);
    expect(name).toMatch(/^reg-[0-9a-f]{40}$/);
    expect(tokenHash(token).startsWith(name.slice(4))).toBe(false);
    expect(registrationName(token)).toBe(name);
  });
});
