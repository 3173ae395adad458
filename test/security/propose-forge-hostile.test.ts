// Issue 37, the forge side of `groundwork propose`: what a forge answers is data (bounded, parsed,
// never followed elsewhere), the token never shows, and a proposal's group or path cannot reach a
// branch name, a URL or a tree path it should not.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroundworkError } from '../../src/core/errors.js';
import { proposalBranch } from '../../src/propose/forge/branch-name.js';
import { pullRequestForge } from '../../src/propose/forge/open-forge.js';
import type { PullRequestForge } from '../../src/propose/forge/pull-request-forge.js';
import type { Proposal } from '../../src/propose/proposal.js';
import { proposalBody } from '../../src/propose/publish-body.js';
import { publishProposals } from '../../src/propose/publish.js';
import { buildPreview } from '../../src/report/preview/index.js';
import { createGitRepo, runGit, type GitRepo } from '../harness/git-repo.js';
import { startGitServer, type GitServer } from '../harness/git-server.js';

const TOKEN = 'glpat-hostile-forge-token-never-printed';
const policy = { allowLoopback: true };
const noWait = () => Promise.resolve();

/** A loopback server answering every request with `handler`; counts requests. */
async function serve(
  handler: (res: ServerResponse, url: string) => void,
): Promise<{ url: string; hits: string[]; close: () => Promise<void> }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)}`);
    req.resume();
    req.on('end', () => handler(res, req.url ?? ''));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

async function failure(p: Promise<unknown>): Promise<GroundworkError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GroundworkError);
  return err as GroundworkError;
}

const clientOf = (apiUrl: string) =>
  pullRequestForge({
    repoUrl: 'https://gitea.example/acme/platform.git',
    forge: 'gitea',
    apiUrl,
    token: TOKEN,
    policy,
    sleep: noWait,
    retry: { attempts: 2, baseMs: 1, maxMs: 1 },
  }).client;

describe('a hostile forge answer', () => {
  it('an oversized answer is refused unread past its bound, streamed or declared', async () => {
    const big = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`[${'{"number":1},'.repeat(400_000)}{"number":1}]`); // ~5 MiB, no content-length check needed
    });
    try {
      const err = await failure(clientOf(`${big.url}/api/v1`).find('groundwork/propose/x'));
      expect(err.code).toBe('ForgeRequestFailed');
      expect(err.message).toMatch(/larger than \d+ bytes/);
    } finally {
      await big.close();
    }
  });

  it('a wrong-shaped answer is refused by the schema, naming the field', async () => {
    const wrong = await serve((res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify([{ number: '1; rm -rf /', title: 'x', html_url: 'u', head: { ref: 'r' } }])),
    );
    try {
      const err = await failure(clientOf(`${wrong.url}/api/v1`).find('groundwork/propose/x'));
      expect(err.code).toBe('ForgeRequestFailed');
      expect(err.message).toContain('documented shape');
      expect(err.message).toContain('number');
    } finally {
      await wrong.close();
    }
  });

  it('a redirect to another host is not followed: the token never leaves for it', async () => {
    const elsewhere = await serve((res) => res.writeHead(200).end('[]'));
    const redirecting = await serve((res, url) =>
      res.writeHead(307, { location: `${elsewhere.url.replace('127.0.0.1', 'localhost')}${url}` }).end(),
    );
    try {
      const err = await failure(clientOf(`${redirecting.url}/api/v1`).find('groundwork/propose/x'));
      expect(err.code).toBe('ForgeRequestFailed');
      expect(err.message).toContain('redirect');
      expect(elsewhere.hits).toEqual([]);
      expect(redirecting.hits).toHaveLength(1); // a redirect is not retried either
    } finally {
      await Promise.all([elsewhere.close(), redirecting.close()]);
    }
  });

  it('a forge that echoes the token in its error message, and a token that is refused, never show it', async () => {
    const echo = await serve((res) =>
      res.writeHead(403, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          message: `token ${TOKEN} (${Buffer.from(TOKEN).toString('base64')}) lacks scope\n\u001b[31m`,
        }),
      ),
    );
    try {
      const err = await failure(
        clientOf(`${echo.url}/api/v1`).open({ branch: 'b', base: 'main', title: 't', body: 'b' }),
      );
      expect(err.code).toBe('ForgeRequestFailed');
      expect(`${err.message} ${err.toString()} ${String(err.stack)}`).not.toContain(TOKEN);
      expect(err.message).not.toContain(Buffer.from(TOKEN).toString('base64'));
      expect(err.message).not.toContain('\n');
      expect(err.message).not.toContain('\u001b');
      expect(echo.hits).toHaveLength(1); // a 403 is not retried
    } finally {
      await echo.close();
    }
  });

  it('a loopback or metadata API root is refused before any request without the loopback switch', () => {
    for (const apiUrl of [
      'http://169.254.169.254/api/v1',
      'http://127.0.0.1:1/api/v1',
      'https://user:pw@gitea.example/api/v1',
    ])
      expect(() =>
        pullRequestForge({
          repoUrl: 'https://gitea.example/acme/platform.git',
          forge: 'gitea',
          apiUrl,
          token: TOKEN,
          policy: { allowLoopback: false },
        }),
      ).toThrow(expect.objectContaining({ code: 'UrlNotAllowed' }));
  });
});

describe('a hostile proposal', () => {
  let root: string;
  let repo: GitRepo;
  let server: GitServer;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'gw-propose-hostile-'));
    repo = createGitRepo({ root, name: 'platform' });
    repo.writeFiles({ 'groundwork.yaml': 'name: demo\n', 'platform/main.ts': "v = '1'\n" });
    repo.commit('first');
    await repo.push();
    server = await startGitServer({ root, auth: { token: TOKEN } });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  const proposal = (over: Partial<Proposal>): Proposal => ({
    group: 'ok',
    kind: 'chart',
    title: 'x 1 → 2',
    from: '1',
    to: '2',
    edits: [{ path: 'platform/main.ts', before: "v = '1'\n", after: "v = '2'\n" }],
    notes: [],
    environment: 'dev',
    ...over,
  });

  it('a group with path traversal, a slash, ref syntax or a newline never becomes a branch name', () => {
    for (const group of [
      '../../main',
      'a/b',
      'main\nrefs/heads/x',
      'x..y',
      'x~1',
      'UPPER',
      '-x',
      '',
      'a'.repeat(64),
      'x:y',
      'x y',
    ])
      expect(() => proposalBranch(group), JSON.stringify(group)).toThrow(
        expect.objectContaining({ code: 'InvalidProposalGroup' }),
      );
    expect(proposalBranch('cert-manager-1')).toBe('groundwork/propose/cert-manager-1');
  });

  it('publishing refuses such a group and an edit path outside the tree: no push, no forge request, no token in the outcome', async () => {
    const calls: string[] = [];
    const forge: PullRequestForge = {
      forge: 'gitea',
      find: (b) => (calls.push(`find ${b}`), Promise.resolve(undefined)),
      open: (pr) => (calls.push(`open ${pr.branch}`), Promise.reject(new Error('must not open'))),
      update: () => (calls.push('update'), Promise.resolve()),
      close: () => (calls.push('close'), Promise.resolve()),
    };
    const outcomes = await publishProposals(
      {
        proposals: [
          proposal({ group: '../../main' }),
          proposal({ group: 'newline\nx' }),
          proposal({ group: 'escape', edits: [{ path: '../../etc/passwd', before: '', after: 'x' }] }),
          proposal({
            group: 'dotgit',
            edits: [{ path: '.git/hooks/post-checkout', before: '', after: 'x' }],
          }),
        ],
        refused: [],
      },
      {
        forge,
        git: { url: server.url('platform.git'), auth: { token: TOKEN } },
        baseRef: 'main',
        preview: () => Promise.reject(new Error('must not render')),
      },
    );
    expect(outcomes.map((o) => o.outcome)).toEqual(['failed', 'failed', 'failed', 'failed']);
    expect(outcomes.map((o) => o.detail).join('\n')).not.toContain(TOKEN);
    expect(outcomes[0]!.detail).toContain('not a DNS label');
    expect(outcomes[2]!.detail).toContain('may not write this path');
    expect(calls).toEqual([]);
    expect(runGit(repo.bareDir, ['for-each-ref', '--format=%(refname)'])).toBe('refs/heads/main');
  });

  it("notes and a title cannot open HTML, a link or a heading in the pull request's description", () => {
    const body = proposalBody(
      proposal({
        title: 'x\n# owned',
        notes: [
          '</details><!-- hide the rest',
          '[click](https://evil.example)\n\n# heading',
          '<img src=x onerror=alert(1)>',
        ],
      }),
      buildPreview({ base: [], head: [] }),
    );
    expect(body).not.toContain('<!-- hide');
    expect(body).not.toContain('<img');
    expect(body).not.toMatch(/(?<!\\)\]\(https:\/\/evil/); // `\[click\](…)` is text, not a link
    expect(body).not.toMatch(/^# /m);
    expect(body.split('\n')[0]).toMatch(/^<!-- groundwork-propose group=ok digest=[0-9a-f]{64} -->$/);
  });
});
