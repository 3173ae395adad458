import { describe, expect, it } from 'vitest';
import { healthyStaging } from '../harness/promotion.js';
import { promote, promotionText, type PromotionDeps, type PromotionGit } from '../../src/fleet/promotion.js';
import type { TrustedKeys } from '../../src/source/trust/trusted-keys.js';
import type { SignatureVerdict } from '../../src/source/trust/verify-signature.js';
import { environmentsSchema, toEnvironments } from '../../src/project/environments.js';

// The Verified gate of `groundwork promote` into an environment with verify: true, with git's
// signature check as a plain fake (the check itself: test/source/trust, over real signed commits).
const R = 'c'.repeat(40);
const envs = (verify: boolean) =>
  toEnvironments(
    environmentsSchema.parse([
      { name: 'staging', overlays: ['staging'], ref: 'env/staging' },
      { name: 'prod', overlays: ['prod'], ref: 'env/prod', promotedFrom: 'staging', verify },
    ]),
  );
const healthy = healthyStaging(R);
const KEYS = { source: 'k', openpgp: [], ssh: [], fingerprint: 'sha256:0' } as TrustedKeys;

function deps(verdict: SignatureVerdict) {
  const pushed: string[] = [];
  const checked: (TrustedKeys | undefined)[] = [];
  const git: PromotionGit = {
    dir: '/nonexistent',
    fetchBranch: async (b) => (b === 'env/staging' ? R : 'b'.repeat(40)),
    contains: async () => true,
    stateOf: async (_c, head) => ({ head, fastForward: true, ahead: 1 }),
    push: async (branch) => {
      pushed.push(branch);
    },
    dispose: async () => {},
    verify: async (_commit, keys) => {
      checked.push(keys);
      return verdict;
    },
  };
  const d: PromotionDeps = {
    observe: async () => [healthy],
    openGit: async () => git,
    riskyChanges: async () => [],
    now: () => new Date('2026-11-25T12:00:00Z'),
  };
  return { d, pushed, checked };
}

const unsigned: SignatureVerdict = { verified: false, problem: 'Unsigned', detail: 'not signed' };
const good: SignatureVerdict = {
  verified: true,
  format: 'ssh',
  keyId: 'SHA256:abc',
  signer: 'carol@example.com',
};

describe('promote into an environment with verify: true', () => {
  it('refuses an unsigned commit, even with --force, and pushes nothing', async () => {
    const { d, pushed } = deps(unsigned);
    const r = await promote(
      {
        platform: 'p',
        environments: envs(true),
        target: 'prod',
        dryRun: false,
        trustedKeys: KEYS,
        force: { reason: 'hotfix' },
      },
      d,
    );
    expect(r.outcome).toBe('refused');
    const gate = r.gates.find((g) => g.gate === 'Verified')!;
    expect(gate.passed).toBe(false);
    expect(gate.failures[0]!.message).toBe(
      'cccccccccccc Unsigned: not signed; prod takes only commits signed by a trusted key (verify: true)',
    );
    expect(pushed).toEqual([]);
    expect(promotionText(r)).toContain('FAIL Verified');
    expect(promotionText(r)).not.toContain('--force --reason');
  });

  it('says to pass --trusted-keys when none were given', async () => {
    const { d, checked } = deps({
      verified: false,
      problem: 'NoTrustedKeys',
      detail: 'no trusted keys are configured',
    });
    const r = await promote({ platform: 'p', environments: envs(true), target: 'prod', dryRun: false }, d);
    expect(checked).toEqual([undefined]);
    expect(r.gates.find((g) => g.gate === 'Verified')!.failures[0]!.message).toMatch(
      /pass --trusted-keys <file>$/,
    );
  });

  it('promotes a commit signed by a trusted key', async () => {
    const { d, pushed, checked } = deps(good);
    const r = await promote(
      { platform: 'p', environments: envs(true), target: 'prod', dryRun: false, trustedKeys: KEYS },
      d,
    );
    expect(r.outcome).toBe('promoted');
    expect(checked).toEqual([KEYS]);
    expect(pushed).toEqual(['env/prod']);
    expect(r.gates.find((g) => g.gate === 'Verified')!.passed).toBe(true);
  });

  it('an environment without verify has no Verified gate and checks nothing', async () => {
    const { d, checked } = deps(unsigned);
    const r = await promote({ platform: 'p', environments: envs(false), target: 'prod', dryRun: false }, d);
    expect(r.outcome).toBe('promoted');
    expect(checked).toEqual([]);
    expect(r.gates.map((g) => g.gate)).not.toContain('Verified');
  });
});
