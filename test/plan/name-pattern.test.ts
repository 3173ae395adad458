import { describe, expect, it } from 'vitest';
import { matchesPattern } from '../../src/plan/name-pattern.js';

describe('matchesPattern', () => {
  it.each([
    ['web', 'web', true],
    ['web', 'web2', false],
    ['*', '', true],
    ['*', 'anything', true],
    ['cert-*', 'cert-web', true],
    ['cert-*', 'cert-', true],
    ['cert-*', 'xcert-web', false],
    ['*-tls', 'web-tls', true],
    ['*-tls', 'web-tls2', false],
    ['cert-*-tls', 'cert-shop-tls', true],
    ['cert-*-tls', 'cert-tls', false], // the anchored ends may not overlap
    ['a*b*c', 'abc', true],
    ['a*b*c', 'axxbyyc', true],
    ['a*b*c', 'acb', false],
    ['a**b', 'ab', true],
    ['*b*b*', 'ab', false],
    ['*b*b*', 'abxb', true],
    ['a.b', 'axb', false], // no character but `*` is special
    ['[a]', 'a', false],
  ])('%s matches %s: %s', (pattern, name, expected) => {
    expect(matchesPattern(pattern, name)).toBe(expected);
  });
});
