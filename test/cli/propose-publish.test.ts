import { afterEach, describe, expect, it } from 'vitest';
import { takeForgeToken } from '../../src/cli/actions/propose-publish.js';

// `groundwork propose` without --dry-run takes the forge token before anything renders.

const VAR = 'GW_TEST_PROPOSE_TOKEN';
afterEach(() => {
  delete process.env[VAR];
  delete process.env.GROUNDWORK_FORGE_TOKEN;
});

describe('takeForgeToken', () => {
  it('reads the variable --token-env names (default GROUNDWORK_FORGE_TOKEN) and removes it from the environment', () => {
    process.env[VAR] = 'tok-from-env';
    expect(takeForgeToken({ tokenEnv: VAR })).toBe('tok-from-env');
    expect(process.env[VAR]).toBeUndefined();
    process.env.GROUNDWORK_FORGE_TOKEN = 'tok-default';
    expect(takeForgeToken({})).toBe('tok-default');
    expect(process.env.GROUNDWORK_FORGE_TOKEN).toBeUndefined();
  });

  it('refuses --trust-repository, a variable name that is not one, and an unset variable, naming the variable only', () => {
    process.env[VAR] = 'tok-never-quoted';
    expect(() => takeForgeToken({ tokenEnv: VAR, trustRepository: true })).toThrow(
      expect.objectContaining({ code: 'InvalidFlag', subject: '--trust-repository' }),
    );
    expect(process.env[VAR]).toBe('tok-never-quoted'); // refused before it was taken
    expect(() => takeForgeToken({ tokenEnv: 'tok-never-quoted' })).toThrow(
      expect.objectContaining({ code: 'InvalidFlag', subject: '--token-env' }),
    );
    delete process.env[VAR];
    const err = (() => {
      try {
        takeForgeToken({ tokenEnv: VAR });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err).toMatchObject({ code: 'MissingFlag', subject: VAR });
    expect(err?.message).not.toContain('tok-never-quoted');
  });
});
