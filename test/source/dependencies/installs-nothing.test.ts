import { describe, expect, it } from 'vitest';
import { installsNothing } from '../../../src/source/dependencies/lockfile-check.js';

describe('installsNothing', () => {
  it('is true for devDependencies only, or no dependencies at all', () => {
    expect(installsNothing({ devDependencies: { 'groundwork-gitops': 'file:/opt/gw' } })).toBe(true);
    expect(installsNothing({ type: 'module' })).toBe(true);
    expect(installsNothing({ dependencies: {} })).toBe(true);
  });

  it('is false when npm ci --omit=dev installs something: dependencies or optionalDependencies', () => {
    expect(installsNothing({ dependencies: { constructs: '10.8.1' } })).toBe(false);
    expect(installsNothing({ optionalDependencies: { 'cdk8s-plus-33': '2.5.57' } })).toBe(false);
  });

  it('is false for a package.json that does not read as one, so the lockfile check refuses it', () => {
    expect(installsNothing({ dependencies: ['constructs'] })).toBe(false);
    expect(installsNothing('not an object')).toBe(false);
  });
});
