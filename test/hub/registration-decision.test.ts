import { describe, expect, it } from 'vitest';
import { decideRegistration } from '../../src/hub/registration-decision.js';
import { newRegistrationToken, registrationName, tokenHash } from '../../src/hub/registration-token.js';
import type { TokenRecord } from '../../src/hub/token-store.js';

const RECIPIENT = `age1${'q'.repeat(58)}`;
const now = new Date('2026-11-28T03:00:00Z');

function fixture(over: Partial<TokenRecord> = {}) {
  const { id, token } = newRegistrationToken();
  const record: TokenRecord = {
    id,
    hash: tokenHash(token),
    member: 'eu-1',
    labels: { region: 'eu' },
    expiresAt: '2026-11-28T04:00:00Z',
    used: false,
    resourceVersion: '7',
    ...over,
  };
  return {
    token,
    record,
    name: registrationName(token),
    spec: { member: 'eu-1', token, recipient: RECIPIENT },
  };
}

describe('decideRegistration', () => {
  it('accepts a fresh, unexpired token for the member it names', () => {
    const f = fixture();
    expect(decideRegistration({ ...f, now })).toEqual({ accept: true, member: 'eu-1' });
  });

  it('refuses a registration not named after its token', () => {
    const f = fixture();
    const d = decideRegistration({ ...f, name: registrationName(newRegistrationToken().token), now });
    expect(d).toMatchObject({ accept: false, reason: 'NameMismatch' });
  });

  it('answers TokenUnknown alike for no record and for a wrong secret', () => {
    const f = fixture();
    expect(decideRegistration({ ...f, record: undefined, now })).toMatchObject({
      accept: false,
      reason: 'TokenUnknown',
    });
    // Same id, another secret: the hash does not match.
    const forged = `${f.record.id}.${'A'.repeat(43)}`;
    const d = decideRegistration({
      name: registrationName(forged),
      spec: { ...f.spec, token: forged },
      record: f.record,
      now,
    });
    expect(d).toMatchObject({ accept: false, reason: 'TokenUnknown' });
  });

  it('refuses a used token, but resumes the registration that spent it for the same key', () => {
    const f = fixture({ used: true, usedBy: 'reg-someone-else', usedRecipient: RECIPIENT });
    expect(decideRegistration({ ...f, now })).toMatchObject({ accept: false, reason: 'TokenUsed' });
    const mine = { ...f.record, usedBy: f.name };
    expect(decideRegistration({ ...f, record: mine, now })).toEqual({
      accept: true,
      member: 'eu-1',
      resumed: true,
    });
    // The same registration name with another key: a replay after the first was cleaned up.
    const replay = { ...f.spec, recipient: `age1${'p'.repeat(58)}` };
    expect(decideRegistration({ ...f, spec: replay, record: mine, now })).toMatchObject({
      accept: false,
      reason: 'TokenUsed',
    });
    // Nor is a spent token resumed once expired.
    const late = new Date('2026-11-28T05:00:00Z');
    expect(decideRegistration({ ...f, record: mine, now: late })).toMatchObject({
      accept: false,
      reason: 'TokenExpired',
    });
  });

  it('refuses an expired token, at the expiry instant too', () => {
    const f = fixture({ expiresAt: '2026-11-28T03:00:00Z' });
    expect(decideRegistration({ ...f, now })).toMatchObject({ accept: false, reason: 'TokenExpired' });
    expect(decideRegistration({ ...f, now: new Date('2026-11-28T02:59:59Z') })).toMatchObject({
      accept: true,
    });
  });

  it('refuses a registration naming another member than the token is for', () => {
    const f = fixture();
    const d = decideRegistration({ ...f, spec: { ...f.spec, member: 'us-1' }, now });
    expect(d).toMatchObject({ accept: false, reason: 'MemberMismatch' });
    expect(d.accept === false && d.message).toContain('eu-1');
  });
});
