import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReleasedFetch, type ReleaseHold } from '../../src/agent/released-fetch.js';
import { hasCode } from '../../src/core/errors.js';
import type { MemberRelease } from '../../src/hub/member-schema.js';
import { fetchRevision } from '../../src/source/fetch-revision.js';
import { createGitRepo, type GitRepo } from '../harness/git-repo.js';
import { startGitServer, type GitServer } from '../harness/git-server.js';
import { signedCommit, trustedSigners } from '../harness/signing.js';
import type { TrustedKeys } from '../../src/source/trust/trusted-keys.js';

// The hub only says *when*: whatever it writes into FleetMember.spec.release, the agent applies
// nothing that is not a commit of its own branch. The real fetch (isomorphic-git over a real git
// smart-HTTP server) and the agent's release gate, fed hostile releases: a commit of another
// branch, a commit that does not exist, a release of another ref, malformed and oversized fields.
// None is checked out, none is kept as the agent's release, and each is `ReleaseRefused`.

let root: string;
let repo: GitRepo;
let server: GitServer;
let c1: string;
let c2: string;
let other: string;
let keys: TrustedKeys;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'gw-release-hostile-'));
  repo = createGitRepo({ root: join(root, 'repos'), name: 'platform' });
  repo.writeFiles({ 'groundwork.yaml': 'name: demo\n', 'a.txt': '1' });
  c1 = repo.commit('first');
  // The tip is signed by a trusted key, its parent c1 is not.
  const signers = await trustedSigners(join(root, 'keys'));
  keys = signers.keys;
  repo.writeFiles({ 'a.txt': '2' });
  c2 = signedCommit(repo, 'second', signers.carol);
  // A branch the agent does not follow: its content must never reach the agent's cluster.
  repo.git('checkout', '-q', '-b', 'attacker', c1);
  repo.writeFiles({ 'a.txt': 'evil' });
  other = repo.commit('not on main');
  repo.git('checkout', '-q', 'main');
  await repo.push();
  server = await startGitServer({ root: join(root, 'repos') });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});

const release = (revision: unknown, more: Record<string, unknown> = {}) => ({
  revision,
  rollout: 'prod-1',
  wave: 0,
  releasedAt: '2026-11-28T07:00:00Z',
  ...more,
});

/** The agent's gated fetch of branch main, with `hub` as the FleetMember's spec.release. */
function gated(hub: unknown, trust?: TrustedKeys) {
  const cacheDir = mkdtempSync(join(root, 'cache-'));
  const kept: MemberRelease[] = [];
  const holds: ReleaseHold[] = [];
  let fetches = 0;
  const fetch = new ReleasedFetch({
    policy: 'required',
    branch: 'main',
    fetch: (pin, { verify }) => {
      fetches++;
      return fetchRevision({
        url: server.url(repo.path),
        ref: pin ? { commit: pin, branch: 'main' } : { branch: 'main' },
        cacheDir,
        ...(trust && verify ? { trust: { keys: trust, required: true } } : {}),
      });
    },
    hubRelease: () => hub,
    kept: {
      readKept: async () => ({ ...(kept.length ? { release: kept.at(-1)! } : {}), gated: kept.length > 0 }),
      writeRelease: async (r) => void kept.push(r),
      markGated: async () => undefined,
    },
    onHold: (h) => holds.push(h),
  });
  return { fetch, kept, holds, cacheDir, fetches: () => fetches };
}

describe('a hostile hub release', () => {
  it('control: a release of an ancestor of the tip is applied exactly, the tip waits', async () => {
    const g = gated(release(`main@sha1:${c1}`));
    const r = await g.fetch.fetch();
    expect(r).toMatchObject({ commit: c1, tip: c2, revision: `main@sha1:${c1}` });
    expect(g.kept).toEqual([release(`main@sha1:${c1}`)]);
    expect(g.holds.at(-1)).toMatchObject({ waiting: `main@sha1:${c2}` });
  });

  it.each([
    ['a commit of another branch, named as main', () => `main@sha1:${other}`],
    ['a commit that does not exist', () => `main@sha1:${'d'.repeat(40)}`],
  ])('refuses %s after looking for it on main: nothing checked out or kept', async (_name, revision) => {
    const g = gated(release(revision()));
    const err = await g.fetch.fetch().catch((e: unknown) => e);
    expect(hasCode(err, 'ReleaseRefused'), String(err)).toBe(true);
    expect(String(err)).toContain('is not a commit of branch main');
    expect(g.fetches()).toBe(1);
    expect(g.kept).toEqual([]);
    expect(existsSync(join(g.cacheDir, 'checkouts', other))).toBe(false);
    // The hub sees the refused release as the member's attempt.
    expect(g.holds.at(-1)).toEqual({ refused: revision() });
  });

  it.each<[string, unknown]>([
    ['a release of the other branch', release(`attacker@sha1:${'0'.repeat(40)}`)],
    ['a bare commit id', release('0'.repeat(40))],
    ['an abbreviated commit', release('main@sha1:abc123')],
    ['upper-case hex', release(`main@sha1:${'A'.repeat(40)}`)],
    ['a +dirty work tree', release(`main@sha1:${'0'.repeat(40)}+dirty`)],
    ['a ref with a path', release(`../../etc@sha1:${'0'.repeat(40)}`)],
    ['an argv-looking revision', release(`--upload-pack=touch /tmp/x@sha1:${'0'.repeat(40)}`)],
    ['an oversized revision', release(`${'m'.repeat(100_000)}@sha1:${'0'.repeat(40)}`)],
    ['an oversized rollout name', release(`main@sha1:${'0'.repeat(40)}`, { rollout: 'r'.repeat(100_000) })],
    ['a negative wave', release(`main@sha1:${'0'.repeat(40)}`, { wave: -1 })],
    ['a release that is not an object', `main@sha1:${'0'.repeat(40)}`],
    ['null', null],
  ])('refuses %s before any fetch', async (_name, hub) => {
    const g = gated(hub);
    const err = await g.fetch.fetch().catch((e: unknown) => e);
    expect(hasCode(err, 'ReleaseRefused'), String(err)).toBe(true);
    expect(String(err).length).toBeLessThan(1000);
    expect(g.fetches()).toBe(0);
    expect(g.kept).toEqual([]);
  });

  it('under --verify-commits, refuses an unsigned released commit of main and applies a signed one', async () => {
    const unsigned = gated(release(`main@sha1:${c1}`), keys);
    const err = await unsigned.fetch.fetch().catch((e: unknown) => e);
    expect(hasCode(err, 'VerificationFailed'), String(err)).toBe(true);
    expect(unsigned.kept).toEqual([]);
    expect(existsSync(join(unsigned.cacheDir, 'checkouts', c1))).toBe(false);
    const signed = gated(release(`main@sha1:${c2}`), keys);
    expect(await signed.fetch.fetch()).toMatchObject({
      commit: c2,
      signature: { verdict: { verified: true } },
    });
    expect(signed.kept).toEqual([release(`main@sha1:${c2}`)]);
  });

  it('keeps the last release it took up when the hub names a commit not on main', async () => {
    const g = gated(release(`main@sha1:${c1}`));
    await g.fetch.fetch();
    const hostile = gated(release(`main@sha1:${other}`));
    hostile.kept.push(...g.kept);
    await expect(hostile.fetch.fetch()).rejects.toThrow(/not a commit of branch main/);
    expect(hostile.kept).toEqual([release(`main@sha1:${c1}`)]);
  });
});
