import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { derivedName, isValidName, nameProblem, type NameRule } from '../../src/core/object-name.js';

const RULES: readonly NameRule[] = ['dns-label', 'dns-subdomain', 'path-segment'];
/** Strings with the characters that matter here: dots, slashes, percent, dashes, upper case, controls. */
const nasty = fc.string({
  unit: fc.constantFrom('a', 'z', '0', '-', '.', '/', '%', 'A', ' ', '\n', '_', ':', 'é'),
  maxLength: 300,
});

describe('object names: properties', () => {
  it('derivedName is always a DNS-1123 label, deterministic', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(nasty, fc.string()), { minLength: 1, maxLength: 4 }), (parts) => {
        const name = derivedName(parts);
        expect(isValidName(name, 'dns-label')).toBe(true);
        expect(derivedName(parts)).toBe(name);
      }),
      { numRuns: 2000 },
    );
  });

  it('a name valid by any rule is a safe path segment: never ".", "..", and no "/" or "%"', () => {
    fc.assert(
      fc.property(fc.oneof(nasty, fc.string()), fc.constantFrom(...RULES), (name, rule) => {
        if (nameProblem(name, rule) !== undefined) return;
        expect(name).not.toMatch(/^\.\.?$|[/%]|^$/);
        expect(isValidName(name, 'path-segment')).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('a DNS name is a file name that stays where it is put: no separator, no control character', () => {
    fc.assert(
      fc.property(nasty, fc.constantFrom<NameRule>('dns-label', 'dns-subdomain'), (name, rule) => {
        if (!isValidName(name, rule)) return;
        expect(name).toMatch(/^[a-z0-9][a-z0-9.-]*$/);
      }),
      { numRuns: 5000 },
    );
  });
});
