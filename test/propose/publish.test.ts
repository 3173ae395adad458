import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PullRequest, PullRequestForge } from '../../src/propose/forge/pull-request-forge.js';
import type { Proposal } from '../../src/propose/proposal.js';
import { publishProposals, type PublishOptions } from '../../src/propose/publish.js';
import { buildPreview } from '../../src/report/preview/index.js';
import { createGitRepo, runGit, runGitAsync, type GitRepo } from '../harness/git-repo.js';
import { startGitServer, type GitServer } from '../harness/git-server.js';

// publishProposals against a real smart-HTTP git server and an in-memory forge (fault injection):
// the cases the Gitea e2e does not reach.

const TOKEN = 'tok-publish-unit';
let root: string;
let repo: GitRepo;
let server: GitServer;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'gw-publish-'));
  repo = createGitRepo({ root, name: 'platform' });
  repo.writeFiles({ 'groundwork.yaml': 'name: demo\n', 'pin.yaml': 'version: 1.0.0\n' });
  repo.commit('first');
  await repo.push();
  server = await startGitServer({ root, auth: { token: TOKEN } });
});
afterAll(async () => {
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});

/** An in-memory forge; `lostCreate` makes `open` create the pull request and then fail, as a lost answer would. */
function memoryForge(opts: { lostCreate?: boolean } = {}) {
  const pulls: (PullRequest & { branch: string; open: boolean })[] = [];
  const forge: PullRequestForge = {
    forge: 'gitea',
    find: (branch) => Promise.resolve(pulls.find((p) => p.branch === branch && p.open)),
    open: (pr) => {
      const made = {
        number: pulls.length + 1,
        title: pr.title,
        body: pr.body,
        url: `pr/${pulls.length + 1}`,
        base: pr.base,
        branch: pr.branch,
        open: true,
      };
      pulls.push(made);
      return opts.lostCreate ? Promise.reject(new Error('socket hang up')) : Promise.resolve(made);
    },
    update: (n, change) => (Object.assign(pulls[n - 1]!, change), Promise.resolve()),
    close: (n) => ((pulls[n - 1]!.open = false), Promise.resolve()),
  };
  return { forge, pulls };
}

const proposal = (to: string, group = 'pin'): Proposal => ({
  group,
  kind: 'chart',
  title: `pin 1.0.0 → ${to}`,
  from: '1.0.0',
  to,
  edits: [{ path: 'pin.yaml', before: 'version: 1.0.0\n', after: `version: ${to}\n` }],
  notes: [],
  environment: 'dev',
});

const options = (forge: PullRequestForge): PublishOptions => ({
  forge,
  git: { url: server.url('platform.git'), auth: { token: TOKEN } },
  baseRef: 'main',
  preview: () => Promise.resolve(buildPreview({ base: [], head: [] })),
});

describe('publishProposals', () => {
  it('takes the pull request a lost create made instead of failing on the duplicate', async () => {
    const { forge, pulls } = memoryForge({ lostCreate: true });
    const out = await publishProposals(
      { proposals: [proposal('1.0.1', 'lost')], refused: [] },
      options(forge),
    );
    expect(out).toMatchObject([{ group: 'lost', outcome: 'opened', url: 'pr/1' }]);
    expect(pulls).toHaveLength(1);
  });

  it("never overwrites a person's commit on the branch, and refuses a proposal computed on another base", async () => {
    const { forge } = memoryForge();
    await publishProposals({ proposals: [proposal('1.0.1', 'person')], refused: [] }, options(forge));
    // A reviewer pushes a fix-up on top of the proposal.
    repo.git('fetch', '-q', 'origin');
    repo.git('checkout', '-q', '-b', 'fixup', 'origin/groundwork/propose/person');
    repo.writeFiles({ 'notes.txt': 'checked by hand\n' });
    const fixup = repo.commit('fix-up');
    await runGitAsync(repo.workDir, ['push', '-q', 'origin', 'fixup:groundwork/propose/person']);
    repo.git('checkout', '-q', 'main');
    const out = await publishProposals(
      { proposals: [proposal('1.0.2', 'person')], refused: [] },
      options(forge),
    );
    expect(out).toMatchObject([{ outcome: 'edited' }]);
    expect(runGit(repo.bareDir, ['rev-parse', 'groundwork/propose/person'])).toBe(fixup);

    const stale = {
      ...proposal('1.0.5', 'stale'),
      edits: [{ path: 'pin.yaml', before: 'version: 0.9.0\n', after: 'version: 1.0.5\n' }],
    };
    const refused = await publishProposals({ proposals: [stale], refused: [] }, options(forge));
    // The person's open proposal is not proposed this run: kept open, not closed (the lost one's
    // branch has no open pull request in this forge: nothing to settle).
    expect(refused.map((o) => `${o.group} ${o.outcome}`).sort()).toEqual(['person kept', 'stale stale']);

    // A run for another environment's branch neither settles nor touches main's proposals.
    repo.git('push', '-q', 'origin', 'main:env/staging');
    const other = await publishProposals(
      { proposals: [proposal('1.0.1', 'person')], refused: [] },
      {
        ...options(forge),
        baseRef: 'env/staging',
      },
    );
    expect(other).toMatchObject([
      { group: 'person', outcome: 'failed', detail: expect.stringContaining('merges into main') },
    ]);
    expect(runGit(repo.bareDir, ['rev-parse', 'groundwork/propose/person'])).toBe(fixup);
    expect(runGit(repo.bareDir, ['branch', '--list', 'groundwork/propose/stale'])).toBe('');
  });
});
