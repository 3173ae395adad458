import { describe, expect, it } from 'vitest';
import { verificationRequired } from '../../../src/source/trust/verification-policy.js';

describe('verificationRequired', () => {
  it.each([
    [{ agent: false, applied: false, candidate: false }, { required: false }],
    [
      { agent: true, applied: false, candidate: false },
      { required: true, by: 'agent' },
    ],
    // A commit that removes `verify:` from groundwork.yaml is still checked: the applied one asked.
    [
      { agent: false, applied: true, candidate: false },
      { required: true, by: 'applied' },
    ],
    [
      { agent: false, applied: false, candidate: true },
      { required: true, by: 'candidate' },
    ],
    [
      { agent: true, applied: true, candidate: true },
      { required: true, by: 'agent' },
    ],
  ])('%o → %o', (asks, expected) => {
    expect(verificationRequired(asks)).toEqual(expected);
  });
});
