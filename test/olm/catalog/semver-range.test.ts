import fc from 'fast-check';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { isSemverRange } from '../../../src/olm/catalog/schema.js';

// isSemverRange takes a shortcut for `>=a.b.c <d.e.f`; it must still agree with node-semver.
const nodeSemver = (r: string) => semver.validRange(r, { loose: false }) !== null;

describe('isSemverRange', () => {
  it.each([
    '>=1.0.0 <1.5.0',
    '>=0.0.0 <0.0.1',
    '>=4.10.0 <4.12.0',
    '>=1.0.0-0 <1.2.3',
    '>=1.0.0 <2.0.0 || 3.x',
    '>=01.0.0 <1.5.0',
    '>=1.0.0  <1.5.0',
    '>= 1.0.0 <1.5.0',
    '>=1.0 <1.5.0',
    '>=1.0.0 <99999999999999999.0.0',
    '>=1.0.0 <999999999999999.0.0',
    'not-a-range',
    '',
  ])('%j as node-semver reads it', (r) => {
    expect(isSemverRange(r)).toBe(nodeSemver(r));
  });

  it('agrees with node-semver on generated ranges of the shortcut shape and near misses', () => {
    const num = fc.oneof(
      fc.nat({ max: 1000 }).map(String),
      fc.stringMatching(/^\d{1,18}$/),
      fc.constantFrom('01', '00', 'x', '*', '1-0', ''),
    );
    const version = fc.tuple(num, num, num).map((p) => p.join('.'));
    const range = fc
      .tuple(
        fc.constantFrom('>=', '>', '>= ', ''),
        version,
        fc.constantFrom(' <', ' <=', '  <', ' ', ' - '),
        version,
      )
      .map((p) => p.join(''));
    fc.assert(
      fc.property(range, (r) => {
        expect(isSemverRange(r)).toBe(nodeSemver(r));
      }),
      { numRuns: 2000 },
    );
  });
});
