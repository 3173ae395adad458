import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroundworkError } from '../../src/core/errors.js';
import { PROPOSAL_AUTHOR, ProposalRepo, treePathProblem } from '../../src/source/proposal-branch.js';
import { createGitRepo, runGit, type GitRepo } from '../harness/git-repo.js';
import { startGitServer, type GitServer } from '../harness/git-server.js';

// The branches `groundwork propose` writes, against a real bare repository behind the real
// smart-HTTP server (git http-backend), read back with the real git CLI.

const TOKEN = 'tok_proposal_branch_never_printed';
let root: string;
let repo: GitRepo;
let server: GitServer;
let url: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'gw-proposal-branch-'));
  repo = createGitRepo({ root, name: 'platform' });
  repo.writeFiles({
    'groundwork.yaml': 'name: demo\n',
    'platform/main.ts': "const version = '1.0.0'; // pinned\n",
    'charts/lock.yaml': 'podinfo: 6.0.0\n',
  });
  repo.commit('first');
  await repo.push();
  server = await startGitServer({ root, auth: { token: TOKEN } });
  url = server.url('platform.git');
});

afterAll(async () => {
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('ProposalRepo', () => {
  it('writes one commit on the base with whole-file contents, pushes it, replaces it by force, lists and deletes the branch', async () => {
    const r = await ProposalRepo.open({ url, auth: { token: TOKEN } });
    try {
      const base = (await r.fetchBranch('main'))!;
      expect(await r.fetchBranch('no-such-branch')).toBeUndefined();
      const first = await r.commitFiles({
        parent: base,
        files: [
          { path: 'platform/main.ts', content: "const version = '1.0.1'; // pinned\n" },
          { path: 'new/dir/file.txt', content: 'made\n' },
        ],
        message: 'podinfo 1.0.0 → 1.0.1',
        date: new Date('2026-01-01T00:00:00Z'),
      });
      await r.push('groundwork/propose/podinfo', first, { force: false });
      expect(runGit(repo.bareDir, ['show', 'groundwork/propose/podinfo:platform/main.ts'])).toBe(
        "const version = '1.0.1'; // pinned",
      );
      expect(runGit(repo.bareDir, ['show', 'groundwork/propose/podinfo:charts/lock.yaml'])).toBe(
        'podinfo: 6.0.0',
      );
      expect(runGit(repo.bareDir, ['show', 'groundwork/propose/podinfo:new/dir/file.txt'])).toBe('made');
      expect(runGit(repo.bareDir, ['log', '-1', '--format=%ae %P', 'groundwork/propose/podinfo'])).toBe(
        `${PROPOSAL_AUTHOR.email} ${base}`,
      );
      expect(await r.changedPaths(base, first)).toEqual(['new/dir/file.txt', 'platform/main.ts']);
      expect(await r.commitFacts(first)).toEqual({ parents: [base], authorEmail: PROPOSAL_AUTHOR.email });
      expect((await r.readFiles(first, ['platform/main.ts', 'missing'])).get('missing')).toBeUndefined();

      // A second, unrelated commit on the same parent: a fast-forward push is refused, a forced one replaces.
      const second = await r.commitFiles({
        parent: base,
        files: [{ path: 'platform/main.ts', content: "const version = '1.0.2'; // pinned\n" }],
        message: 'podinfo 1.0.0 → 1.0.2',
      });
      await expect(r.push('groundwork/propose/podinfo', second, { force: false })).rejects.toMatchObject({
        code: 'NotFastForward',
      });
      await r.push('groundwork/propose/podinfo', second, { force: true });
      expect(await r.listBranches('groundwork/propose/')).toEqual([
        { branch: 'groundwork/propose/podinfo', oid: second },
      ]);
      // Deleted from a repository that never had the branch locally (a later run's).
      const later = await ProposalRepo.open({ url, auth: { token: TOKEN } });
      await later.deleteBranch('groundwork/propose/podinfo').finally(() => later.dispose());
      expect(await r.listBranches('groundwork/propose/')).toEqual([]);
      await r.deleteBranch('groundwork/propose/podinfo'); // gone already: nothing
    } finally {
      await r.dispose();
    }
  });

  it('refuses a path that leaves the tree or names .git before anything is written, and a wrong token is an auth failure without the token', async () => {
    for (const bad of [
      '../x',
      '/etc/passwd',
      'a//b',
      'a/./b',
      '.git/config',
      'a/.GIT/hooks/x',
      'a\\b',
      'a\nb',
      '',
    ])
      expect(treePathProblem(bad), bad).toBeDefined();
    expect(treePathProblem('platform/main.ts')).toBeUndefined();
    const r = await ProposalRepo.open({ url, auth: { token: TOKEN } });
    try {
      const base = (await r.fetchBranch('main'))!;
      const err = await r
        .commitFiles({ parent: base, files: [{ path: '../outside', content: 'x' }], message: 'm' })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GroundworkError);
      expect((err as GroundworkError).code).toBe('PathOutsideCheckout');
    } finally {
      await r.dispose();
    }
    const wrong = await ProposalRepo.open({ url, auth: { token: 'wrong-token-value' } });
    try {
      const err = (await wrong.fetchBranch('main').catch((e: unknown) => e)) as GroundworkError;
      expect(err).toBeInstanceOf(GroundworkError);
      expect(String(err.message)).not.toContain('wrong-token-value');
    } finally {
      await wrong.dispose();
    }
  });
});
