import { describe, expect, it } from 'vitest';
import { ReleasedFetch, type KeptReleaseStore, type ReleaseHold } from '../../src/agent/released-fetch.js';
import type { HubReleasePolicy } from '../../src/agent/release-gate.js';
import { hasCode } from '../../src/core/errors.js';
import type { MemberRelease } from '../../src/hub/member-schema.js';
import type { FetchedRevision } from '../../src/source/fetch-revision.js';

// ReleasedFetch over a fake fetch of a branch `prod` with history c1 ← c2 (the tip): which fetch
// it makes, what it keeps, what it tells the hub link. The real fetch and hostile releases are in
// test/security/hub-release-hostile.test.ts.

const c1 = '1'.repeat(40);
const c2 = '2'.repeat(40);
const release = (commit: string): MemberRelease => ({
  revision: `prod@sha1:${commit}`,
  rollout: 'prod-1',
  wave: 0,
  releasedAt: '2026-11-28T07:00:00Z',
});

/** An in-memory KeptReleaseStore: `writes` are the releases kept, `marks` the gated marks. */
function keptStore(kept?: MemberRelease, gated = kept !== undefined) {
  const writes: MemberRelease[] = [];
  let marks = 0;
  const store: KeptReleaseStore = {
    readKept: async () => {
      const release = writes.at(-1) ?? kept;
      return { ...(release ? { release } : {}), gated: gated || marks > 0 || writes.length > 0 };
    },
    writeRelease: async (r) => void writes.push(r),
    markGated: async () => void marks++,
  };
  return { store, writes, marks: () => marks };
}

function setup(policy: HubReleasePolicy, hub: unknown, kept?: MemberRelease, gated?: boolean) {
  const calls: { pin: string | undefined; verify: boolean }[] = [];
  const k = keptStore(kept, gated);
  const writes = k.writes;
  const holds: ReleaseHold[] = [];
  const fetch = new ReleasedFetch({
    policy,
    branch: 'prod',
    fetch: async (pin, { verify }) => {
      calls.push({ pin, verify });
      const commit = pin ?? c2;
      if (![c1, c2].includes(commit))
        throw Object.assign(new Error('not found'), { code: 'RevisionNotFound' });
      return {
        revision: `prod@sha1:${commit}`,
        commit,
        tip: c2,
        dir: '/x',
        ref: 'refs/heads/prod',
      } as FetchedRevision;
    },
    hubRelease: () => hub,
    kept: k.store,
    onHold: (h) => holds.push(h),
  });
  return { fetch, calls, writes, holds, marks: k.marks };
}

describe('ReleasedFetch', () => {
  it('auto, never released: fetches and verifies the tip, keeps nothing', async () => {
    const s = setup('auto', undefined);
    expect((await s.fetch.fetch()).commit).toBe(c2);
    expect(s.calls).toEqual([{ pin: undefined, verify: true }]);
    expect(s.writes).toEqual([]);
    expect(s.holds).toEqual([{}]);
  });

  it('off: the tip, even with a release', async () => {
    const s = setup('off', release(c1), release(c1));
    expect((await s.fetch.fetch()).commit).toBe(c2);
    expect(s.calls).toEqual([{ pin: undefined, verify: true }]);
  });

  it('required, never released: ReleasePending, the tip (unverified, never applied) reported as waiting', async () => {
    const s = setup('required', undefined);
    const err = await s.fetch.fetch().catch((e: unknown) => e);
    expect(hasCode(err, 'ReleasePending')).toBe(true);
    expect(s.calls).toEqual([{ pin: undefined, verify: false }]);
    expect(s.holds).toEqual([{ waiting: `prod@sha1:${c2}` }]);
  });

  it('the hub unreachable (no release read): the kept release is fetched as a pin, nothing rewritten', async () => {
    const s = setup('auto', undefined, release(c1));
    expect((await s.fetch.fetch()).commit).toBe(c1);
    expect(s.calls).toEqual([{ pin: c1, verify: true }]);
    expect(s.writes).toEqual([]);
    expect(s.holds).toEqual([{ release: release(c1), waiting: `prod@sha1:${c2}` }]);
  });

  it('a new release is kept before its checkout is returned; the same one is not written again', async () => {
    const s = setup('auto', release(c2), release(c1));
    expect((await s.fetch.fetch()).commit).toBe(c2);
    expect(s.writes).toEqual([release(c2)]);
    await s.fetch.fetch();
    expect(s.writes).toEqual([release(c2)]);
    expect(s.holds.at(-1)).toEqual({ release: release(c2) });
  });

  it('auto, once the hub released (even a refused release): stays gated with no release in hand', async () => {
    const refused = setup('auto', { revision: 'not a revision' });
    await expect(refused.fetch.fetch()).rejects.toThrow(/does not read/);
    expect(refused.marks()).toBe(1);
    // Restarted with the hub unreachable: nothing released in hand, yet gated: nothing applied.
    const later = setup('auto', undefined, undefined, true);
    const err = await later.fetch.fetch().catch((e: unknown) => e);
    expect(hasCode(err, 'ReleasePending')).toBe(true);
    expect(later.calls).toEqual([{ pin: undefined, verify: false }]);
  });

  it('a failed write of the kept release fails the fetch (never applied unkept)', async () => {
    const s = setup('auto', release(c2));
    const failing = new ReleasedFetch({
      policy: 'auto',
      branch: 'prod',
      fetch: async () => ({ revision: `prod@sha1:${c2}`, commit: c2, tip: c2 }) as FetchedRevision,
      hubRelease: () => release(c2),
      kept: { ...keptStore().store, writeRelease: () => Promise.reject(new Error('conflict')) },
      onHold: (h) => s.holds.push(h),
    });
    await expect(failing.fetch()).rejects.toThrow('conflict');
    expect(s.holds).toEqual([]);
  });
});
