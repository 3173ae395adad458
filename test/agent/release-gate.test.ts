import { describe, expect, it } from 'vitest';
import {
  releaseOutcome,
  releaseTarget,
  type ReleaseTarget,
  type ReleaseTargetInput,
} from '../../src/agent/release-gate.js';
import type { MemberRelease } from '../../src/hub/member-schema.js';

const c1 = '1'.repeat(40);
const c2 = '2'.repeat(40);
const c3 = '3'.repeat(40);
const release = (commit: string, ref = 'prod'): MemberRelease => ({
  revision: `${ref}@sha1:${commit}`,
  rollout: 'prod-abc',
  wave: 1,
  releasedAt: '2026-11-28T07:00:00Z',
});
const base: ReleaseTargetInput = { policy: 'auto', branch: 'prod', hub: undefined, kept: undefined };

describe('releaseTarget', () => {
  it.each<[string, Partial<ReleaseTargetInput>, ReleaseTarget['kind'], string?]>([
    ['off: the tip, whatever the hub says', { policy: 'off', hub: release(c2) }, 'tip'],
    ['a tag or commit pin: never moved by a release', { branch: undefined, hub: release(c2) }, 'tip'],
    ['auto, never released: the tip, as without --hub', {}, 'tip'],
    ['required, never released: nothing', { policy: 'required' }, 'none'],
    ['auto, released before but none in hand (a refused one): nothing', { gated: true }, 'none'],
    ['off, released before: the tip', { policy: 'off', gated: true }, 'tip'],
    ['auto, the hub released c2', { hub: release(c2) }, 'release', c2],
    ['required, the hub released c2', { policy: 'required', hub: release(c2) }, 'release', c2],
    ['the hub unreachable: the kept release holds', { kept: release(c1) }, 'release', c1],
    ['the hub release wins over the kept one', { kept: release(c1), hub: release(c2) }, 'release', c2],
    ['a release back to an older commit is followed', { kept: release(c3), hub: release(c1) }, 'release', c1],
  ])('%s', (_name, input, kind, commit) => {
    const target = releaseTarget({ ...base, ...input });
    expect(target.kind).toBe(kind);
    if (commit) expect(target).toMatchObject({ commit });
  });

  it.each<[string, unknown, RegExp]>([
    ['another ref', release(c2, 'dev'), /of ref dev; this agent follows branch prod/],
    ['a dirty work tree', { ...release(c2), revision: `prod@sha1:${c2}+dirty` }, /not a commit of a ref/],
    ['a short commit', { ...release(c2), revision: 'prod@sha1:abc' }, /must be <ref>@sha1/],
    ['a bare commit id', { ...release(c2), revision: c2 }, /must be <ref>@sha1/],
    ['an oversized revision', { ...release(c2), revision: `${'p'.repeat(5000)}@sha1:${c2}` }, /revision/],
    ['a missing field', { revision: `prod@sha1:${c2}` }, /rollout/],
    ['not an object', 'prod@sha1:' + c2, /does not read/],
  ])('refuses a release with %s (never falls back to the tip or the kept one)', (_name, hub, message) => {
    const target = releaseTarget({ ...base, hub, kept: release(c1) });
    expect(target.kind).toBe('refused');
    expect(target.kind === 'refused' && target.message).toMatch(message);
    expect(target.kind === 'refused' && target.message.length).toBeLessThanOrEqual(300);
  });
});

describe('releaseOutcome', () => {
  const target = releaseTarget({ ...base, hub: release(c1) }) as Extract<ReleaseTarget, { kind: 'release' }>;
  it('applies the tip when the tip is the release', () => {
    expect(releaseOutcome(target, { tip: c1, onRef: true }, 'prod')).toEqual({
      apply: c1,
      release: release(c1),
    });
  });
  it('applies exactly the released commit when the branch moved past it: the tip waits', () => {
    expect(releaseOutcome(target, { tip: c2, onRef: true, verified: true }, 'prod')).toEqual({
      apply: c1,
      release: release(c1),
      waiting: c2,
    });
  });
  it('refuses a released commit that is not on the branch', () => {
    expect(releaseOutcome(target, { tip: c2, onRef: false }, 'prod')).toMatchObject({
      refused: 'NotOnRef',
      message: expect.stringContaining('is not a commit of branch prod'),
    });
  });
  it('refuses a released commit whose signature does not verify, where verification is on', () => {
    expect(releaseOutcome(target, { tip: c1, onRef: true, verified: false }, 'prod')).toMatchObject({
      refused: 'NotVerified',
    });
  });
});
