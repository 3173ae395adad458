import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroundworkError } from '../../../src/core/errors.js';
import { fetchRevision, type SourceRef } from '../../../src/source/fetch-revision.js';
import { PromotionRepo } from '../../../src/source/promote.js';
import { parseTrustedKeys, type TrustedKeys } from '../../../src/source/trust/trusted-keys.js';
import { createGitRepo, runGit, type GitRepo } from '../../harness/git-repo.js';
import { startGitServer, type GitServer } from '../../harness/git-server.js';
import {
  gpgKey,
  revokeGpgKey,
  signedCommit,
  signedTag,
  trustedSigners,
  type GpgKey,
  type SshKey,
} from '../../harness/signing.js';

// Commits signed by the real `git commit -S` (gpg, ssh-keygen), pushed to the real git smart-HTTP
// server, fetched by fetchRevision with trusted keys: what verifies is checked out, what does not
// is VerificationFailed and never reaches `checkouts`.

let root: string;
let repo: GitRepo;
let server: GitServer;
let alice: GpgKey;
let carol: SshKey;
let keys: TrustedKeys;
let n = 0;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'gw-verify-fetch-'));
  repo = createGitRepo({ root: join(root, 'repos'), name: 'platform' });
  server = await startGitServer({ root: join(root, 'repos') });
  ({ alice, carol, keys } = await trustedSigners(root));
});
afterAll(async () => {
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});

/** A fresh cache per call; required verification. */
function fetchVerified(ref: SourceRef = { branch: 'main' }, trust: TrustedKeys | undefined = keys) {
  const cacheDir = join(root, `cache-${n++}`);
  const result = fetchRevision({
    url: server.url(repo.path),
    ref,
    cacheDir,
    trust: { keys: trust, required: true },
  });
  return { cacheDir, result };
}

async function refused(p: Promise<unknown>): Promise<GroundworkError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GroundworkError);
  expect((err as GroundworkError).code).toBe('VerificationFailed');
  return err as GroundworkError;
}

const checkouts = (cacheDir: string): string[] =>
  existsSync(join(cacheDir, 'checkouts'))
    ? readdirSync(join(cacheDir, 'checkouts')).filter((d) => !d.startsWith('.'))
    : [];

describe('fetchRevision with required verification', () => {
  it('a commit signed with a trusted OpenPGP key is checked out, its signer reported', async () => {
    repo.writeFiles({ 'groundwork.yaml': 'name: demo\n' });
    const oid = signedCommit(repo, 'signed by alice', alice);
    await repo.push();
    const { result } = fetchVerified();
    const r = await result;
    expect(r.commit).toBe(oid);
    expect(r.signature).toMatchObject({
      type: 'commit',
      verdict: { verified: true, keyId: alice.fingerprint, signer: 'alice <alice@example.com>' },
    });
    expect(existsSync(join(r.dir, 'groundwork.yaml'))).toBe(true);
  });

  it('a commit signed with a trusted SSH key (gpg.format=ssh) is checked out', async () => {
    repo.writeFiles({ 'groundwork.yaml': 'name: demo\nx: ssh\n' });
    signedCommit(repo, 'signed by carol', carol);
    await repo.push();
    const r = await fetchVerified().result;
    expect(r.signature?.verdict).toMatchObject({
      verified: true,
      format: 'ssh',
      signer: 'carol@example.com',
    });
  });

  it('an unsigned commit is refused and nothing is checked out', async () => {
    repo.writeFiles({ 'groundwork.yaml': 'name: demo\nx: unsigned\n' });
    const oid = repo.commit('unsigned');
    await repo.push();
    const { cacheDir, result } = fetchVerified();
    const err = await refused(result);
    expect(err.message).toBe(`commit ${oid.slice(0, 12)}: Unsigned: not signed`);
    expect(err.fix).toMatch(/git commit -S/);
    expect(checkouts(cacheDir)).toEqual([]);
  });

  it('a commit signed by an unknown key names that key', async () => {
    const mallory = gpgKey(root, 'mallory');
    repo.writeFiles({ 'groundwork.yaml': 'name: demo\nx: mallory\n' });
    signedCommit(repo, 'by mallory', mallory);
    await repo.push();
    const err = await refused(fetchVerified().result);
    expect(err.message).toContain('UnknownKey');
    expect(err.message).toContain(mallory.fingerprint.slice(-16));
    expect(err.message).toContain('secret/groundwork-system/trusted-keys');
  });

  it('a tampered commit (its content changed under a good signature) is refused', async () => {
    repo.writeFiles({ 'groundwork.yaml': 'name: demo\nx: to-tamper\n' });
    const good = signedCommit(repo, 'deploy v1', alice);
    const raw = runGit(repo.workDir, ['cat-file', 'commit', good]);
    const forged = raw.replace('deploy v1', 'deploy v2');
    const { execFileSync } = await import('node:child_process');
    const oid = execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], {
      cwd: repo.workDir,
      input: `${forged}\n`,
      encoding: 'utf8',
    }).trim();
    repo.git('update-ref', 'refs/heads/main', oid);
    await repo.push({ force: true });
    const err = await refused(fetchVerified().result);
    expect(err.message).toContain('BadSignature');
    expect(err.message).toContain('alice <alice@example.com>');
  });

  it('a commit signed by a key that has expired is refused', async () => {
    const old = gpgKey(root, 'old', { expire: '1d', fakedTime: '20200101T000000' });
    repo.writeFiles({ 'groundwork.yaml': 'name: demo\nx: expired\n' });
    signedCommit(repo, 'old key', old);
    await repo.push();
    const withOld = await parseTrustedKeys({ 'old.asc': old.publicKey }, 'configmap/gw/keys');
    expect((await refused(fetchVerified({ branch: 'main' }, withOld).result)).message).toContain(
      'ExpiredKey: the key has expired',
    );
  });

  it('a commit signed by a key revoked since is refused', async () => {
    const gone = gpgKey(root, 'gone');
    repo.writeFiles({ 'groundwork.yaml': 'name: demo\nx: revoked\n' });
    signedCommit(repo, 'then revoked', gone);
    await repo.push();
    const revoked = await parseTrustedKeys({ 'gone.asc': revokeGpgKey(gone) }, 'configmap/gw/keys');
    expect((await refused(fetchVerified({ branch: 'main' }, revoked).result)).message).toContain(
      'RevokedKey',
    );
  });

  it('a force-push of an unsigned commit over a signed one is refused in a cache that had the signed one', async () => {
    repo.writeFiles({ 'groundwork.yaml': 'name: demo\nx: good\n' });
    const good = signedCommit(repo, 'good', alice);
    await repo.push({ force: true });
    const cacheDir = join(root, `cache-${n++}`);
    const opts = {
      url: server.url(repo.path),
      ref: { branch: 'main' },
      cacheDir,
      trust: { keys, required: true },
    };
    expect((await fetchRevision(opts)).commit).toBe(good);
    repo.git('reset', '-q', '--hard', 'HEAD~1');
    repo.writeFiles({ 'groundwork.yaml': 'name: demo\nx: rewritten\n' });
    const rewritten = repo.commit('rewritten history, unsigned');
    await repo.push({ force: true });
    const err = await refused(fetchRevision(opts));
    expect(err.subject).toBe(`commit ${rewritten.slice(0, 12)}`);
    expect(checkouts(cacheDir)).toEqual([good]);
  });

  it('following a tag: a signed annotated tag verifies (on an unsigned commit); an unsigned one is refused; a lightweight tag is its commit', async () => {
    repo.writeFiles({ 'groundwork.yaml': 'name: demo\nx: tags\n' });
    const plain = repo.commit('release candidate (unsigned commit)');
    signedTag(repo, 'v1', carol);
    repo.tag('v1-unsigned', 'not signed');
    repo.tag('v1-light');
    await repo.push({ force: true });
    const v1 = await fetchVerified({ tag: 'v1' }).result;
    expect(v1.commit).toBe(plain);
    expect(v1.signature).toMatchObject({
      type: 'tag',
      verdict: { verified: true, signer: 'carol@example.com' },
    });
    const err = await refused(fetchVerified({ tag: 'v1-unsigned' }).result);
    expect(err.subject).toMatch(/^tag v1-unsigned \([0-9a-f]{12}\)$/);
    expect((await refused(fetchVerified({ tag: 'v1-light' }).result)).subject).toBe(
      `commit ${plain.slice(0, 12)}`,
    );
  });

  it('without required verification the verdict is returned and the commit checked out', async () => {
    const r = await fetchRevision({
      url: server.url(repo.path),
      ref: { branch: 'main' },
      cacheDir: join(root, `cache-${n++}`),
      trust: { keys, required: false },
    });
    expect(r.signature?.verdict).toMatchObject({ verified: false, problem: 'Unsigned' });
    expect(existsSync(r.dir)).toBe(true);
  });

  it('promote’s PromotionRepo checks a fetched commit the same way (signed: verified; unsigned: Unsigned)', async () => {
    repo.writeFiles({ 'groundwork.yaml': 'name: demo\nx: promote\n' });
    const signed = signedCommit(repo, 'to promote', alice);
    repo.writeFiles({ 'groundwork.yaml': 'name: demo\nx: promote-2\n' });
    const plain = repo.commit('not signed');
    await repo.push({ force: true });
    const promotion = await PromotionRepo.open({ url: server.url(repo.path) });
    try {
      expect(await promotion.fetchBranch('main')).toBe(plain);
      expect(await promotion.verify(signed, keys)).toMatchObject({
        verified: true,
        signer: 'alice <alice@example.com>',
      });
      expect(await promotion.verify(plain, keys)).toMatchObject({ verified: false, problem: 'Unsigned' });
    } finally {
      await promotion.dispose();
    }
  });
});
