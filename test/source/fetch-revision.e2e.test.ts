import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroundworkError } from '../../src/core/errors.js';
import { fetchRevision, type FetchRevisionOptions } from '../../src/source/fetch-revision.js';
import { createGitRepo, runGit, type GitRepo } from '../harness/git-repo.js';
import { startGitServer, type GitServer } from '../harness/git-server.js';

// Real git end to end: bare repositories served by `git http-backend` behind a loopback front,
// fetched by isomorphic-git. No part of git is mocked.

const PASSWORD = 'pa55-w0rd-never-printed';
const TOKEN = 'tok_8f3a9c1d2e4b5a6f-never-printed';

let root: string;
let repo: GitRepo;
let anon: GitServer;
let basic: GitServer;
let token: GitServer;
const history: string[] = []; // main's commits, oldest first
let v1: string;
let lightweight: string;
let feature: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'gw-fetch-revision-'));
  const repos = join(root, 'repos');
  repo = createGitRepo({ root: repos, name: 'platform' });
  repo.writeFiles({
    'groundwork.yaml': 'name: one\n',
    'platform/main.ts': 'export default 1;\n',
    'clusters/prod/groundwork.yaml': 'name: prod\n',
  });
  history.push(repo.commit('first'));
  repo.tag('v1', 'release one');
  v1 = history[0]!;
  // Twenty more commits: a pin on the first one needs more than one deepening step.
  for (let i = 2; i <= 21; i++) {
    repo.writeFiles({ 'groundwork.yaml': `name: one\nrevision: ${i}\n` });
    history.push(repo.commit(`change ${i}`));
    if (i === 5) {
      repo.tag('light');
      lightweight = history.at(-1)!;
    }
  }
  repo.checkout('feature');
  repo.writeFiles({ 'feature.txt': 'only on feature\n' });
  feature = repo.commit('feature work');
  repo.checkout('main');
  await repo.push();
  createGitRepo({ root: repos, name: 'empty' });
  anon = await startGitServer({ root: repos });
  basic = await startGitServer({ root: repos, auth: { username: 'deploy', password: PASSWORD } });
  token = await startGitServer({ root: repos, auth: { token: TOKEN } });
});

afterAll(async () => {
  await Promise.all([anon?.stop(), basic?.stop(), token?.stop()]);
  rmSync(root, { recursive: true, force: true });
});

let n = 0;
const cacheDir = (): string => join(root, `cache-${n++}`);
const fetchFrom = (opts: Partial<FetchRevisionOptions> & Pick<FetchRevisionOptions, 'ref'>) =>
  fetchRevision({ url: anon.url(repo.path), cacheDir: cacheDir(), ...opts });

async function failure(p: Promise<unknown>): Promise<GroundworkError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GroundworkError);
  return err as GroundworkError;
}

/** Everything an error exposes: message, toString, fix, and the cause chain with stacks. */
function everythingIn(err: unknown): string {
  const parts: string[] = [];
  for (let e = err as (Error & { fix?: string }) | undefined; e; e = e.cause as typeof e) {
    parts.push(String(e), e.message, e.stack ?? '', e.fix ?? '', JSON.stringify(e));
  }
  return parts.join('\n');
}

describe('fetchRevision over smart HTTP', () => {
  it('clones shallow and single-branch, then fetches the next commit into a new checkout', async () => {
    const dir = cacheDir();
    const url = anon.url(repo.path);
    const first = await fetchRevision({ url, ref: { branch: 'main' }, cacheDir: dir });
    const head = history.at(-1)!;
    expect(first).toEqual({
      revision: `main@sha1:${head}`,
      commit: head,
      // The branch head: the commit itself, since nothing pinned an older one.
      tip: head,
      dir: join(dir, 'checkouts', head),
      ref: 'refs/heads/main',
      // The commit's message and author name, for the status's lastAppliedCommit.
      commitInfo: { message: 'change 21\n', author: 'Groundwork Test' },
    });
    expect(readFileSync(join(first.dir, 'groundwork.yaml'), 'utf8')).toBe('name: one\nrevision: 21\n');
    expect(existsSync(join(first.dir, '.git'))).toBe(false);
    const store = join(dir, 'repo');
    expect(runGit(store, ['rev-parse', '--is-shallow-repository'])).toBe('true');
    expect(runGit(store, ['rev-list', '--count', head])).toBe('1');
    expect(readFileSync(join(store, '.git', 'shallow'), 'utf8').trim()).toBe(head);
    // Single branch: nothing of `feature` came along.
    expect(() => runGit(store, ['cat-file', '-e', feature])).toThrow();

    repo.writeFiles({ 'groundwork.yaml': 'name: one\nrevision: 22\n' });
    const next = repo.commit('change 22');
    await repo.push();
    try {
      const second = await fetchRevision({ url, ref: { branch: 'main' }, cacheDir: dir });
      expect(second.revision).toBe(`main@sha1:${next}`);
      expect(readFileSync(join(second.dir, 'groundwork.yaml'), 'utf8')).toBe('name: one\nrevision: 22\n');
      expect(readFileSync(join(first.dir, 'groundwork.yaml'), 'utf8')).toBe('name: one\nrevision: 21\n');
      // Still depth 1: the new head is a shallow boundary too (isomorphic-git marks it so).
      expect(runGit(store, ['rev-list', '--count', next])).toBe('1');
      expect(runGit(store, ['fsck', '--connectivity-only', '--no-dangling'])).toBe('');
    } finally {
      repo.git('reset', '-q', '--hard', head);
      await repo.push({ force: true });
    }
  });

  it('writes {"type":"module"} as package.json when the commit has none, and keeps one that exists', async () => {
    const r = await fetchFrom({ ref: { branch: 'main' } });
    expect(JSON.parse(readFileSync(join(r.dir, 'package.json'), 'utf8'))).toEqual({ type: 'module' });
    const withPkg = createGitRepo({ root: join(root, 'repos'), name: 'with-package' });
    withPkg.writeFiles({
      'groundwork.yaml': 'name: pkg\n',
      'package.json': '{"name":"p","type":"module"}\n',
    });
    withPkg.commit('first');
    await withPkg.push();
    const p = await fetchRevision({
      url: anon.url(withPkg.path),
      ref: { branch: 'main' },
      cacheDir: cacheDir(),
    });
    expect(readFileSync(join(p.dir, 'package.json'), 'utf8')).toBe('{"name":"p","type":"module"}\n');
  });

  it('checks out an annotated tag (peeled) and a lightweight tag', async () => {
    const a = await fetchFrom({ ref: { tag: 'v1' } });
    expect(a).toMatchObject({ revision: `v1@sha1:${v1}`, commit: v1, ref: 'refs/tags/v1' });
    expect(readFileSync(join(a.dir, 'groundwork.yaml'), 'utf8')).toBe('name: one\n');
    const b = await fetchFrom({ ref: { tag: 'light' } });
    expect(b).toMatchObject({ revision: `light@sha1:${lightweight}`, commit: lightweight });
  });

  it('pins a commit older than the branch head, deepening the shallow clone as far as needed', async () => {
    const dir = cacheDir();
    const before = anon.requests.length;
    const r = await fetchRevision({
      url: anon.url(repo.path),
      ref: { commit: v1, branch: 'main' },
      cacheDir: dir,
    });
    expect(r).toMatchObject({ revision: `main@sha1:${v1}`, commit: v1, ref: 'refs/heads/main' });
    expect(readFileSync(join(r.dir, 'groundwork.yaml'), 'utf8')).toBe('name: one\n');
    // v1 is 21 commits below the head: depth 1, then 16, then 256.
    const packs = anon.requests.slice(before).filter((line) => line.startsWith('POST'));
    expect(packs).toHaveLength(3);
    expect(runGit(join(dir, 'repo'), ['rev-list', '--count', history.at(-1)!])).toBe(String(history.length));
    const near = history.at(-3)!;
    const s = await fetchRevision({
      url: anon.url(repo.path),
      ref: { commit: near, branch: 'main' },
      cacheDir: dir,
    });
    expect(s.revision).toBe(`main@sha1:${near}`);
  });

  it('pins a commit without a branch on the remote HEAD', async () => {
    const pin = history.at(-2)!;
    const r = await fetchFrom({ ref: { commit: pin } });
    expect(r).toMatchObject({ revision: `HEAD@sha1:${pin}`, commit: pin, ref: 'HEAD' });
  });

  it('points dir at a subdirectory and writes package.json there', async () => {
    const r = await fetchFrom({ ref: { branch: 'main' }, path: 'clusters/prod' });
    expect(r.dir).toBe(
      join(r.dir.slice(0, r.dir.indexOf('/checkouts/')), 'checkouts', r.commit, 'clusters', 'prod'),
    );
    expect(readFileSync(join(r.dir, 'groundwork.yaml'), 'utf8')).toBe('name: prod\n');
    expect(JSON.parse(readFileSync(join(r.dir, 'package.json'), 'utf8'))).toEqual({ type: 'module' });
    expect(existsSync(join(r.dir, '..', '..', 'platform', 'main.ts'))).toBe(true);
  });

  it('keeps the last three checkouts', async () => {
    const dir = cacheDir();
    const pins = history.slice(-4);
    for (const pin of pins)
      await fetchRevision({ url: anon.url(repo.path), ref: { commit: pin, branch: 'main' }, cacheDir: dir });
    expect(readdirSync(join(dir, 'checkouts')).sort()).toEqual(pins.slice(1).sort());
  });

  it('serializes concurrent calls on one cache directory', async () => {
    const dir = cacheDir();
    const url = anon.url(repo.path);
    const [a, b] = await Promise.all([
      fetchRevision({ url, ref: { branch: 'main' }, cacheDir: dir }),
      fetchRevision({ url, ref: { tag: 'v1' }, cacheDir: dir }),
    ]);
    expect(a.commit).toBe(history.at(-1));
    expect(b.commit).toBe(v1);
  });

  it('fetches what was pushed over HTTP (receive-pack through the same server)', async () => {
    const pusher = createGitRepo({ root: join(root, 'repos'), name: 'pushed' });
    pusher.writeFiles({ 'groundwork.yaml': 'name: pushed\n' });
    const sha = pusher.commit('over http');
    await pusher.push({ remote: basic.url(pusher.path, { username: 'deploy', password: PASSWORD }) });
    const r = await fetchRevision({
      url: anon.url(pusher.path),
      ref: { branch: 'main' },
      cacheDir: cacheDir(),
    });
    expect(r.commit).toBe(sha);
  });

  const missing: [string, () => Promise<unknown>, string][] = [
    ['a missing branch', () => fetchFrom({ ref: { branch: 'nope' } }), 'RevisionNotFound'],
    ['a missing tag', () => fetchFrom({ ref: { tag: 'v9' } }), 'RevisionNotFound'],
    ['a missing path', () => fetchFrom({ ref: { branch: 'main' }, path: 'clusters/dev' }), 'PathNotFound'],
    [
      'a path that is a file',
      () => fetchFrom({ ref: { branch: 'main' }, path: 'groundwork.yaml' }),
      'PathNotFound',
    ],
    [
      'a path out of the repository',
      () => fetchFrom({ ref: { branch: 'main' }, path: '../repo' }),
      'PathNotFound',
    ],
    [
      'a commit on another branch',
      () => fetchFrom({ ref: { commit: feature, branch: 'main' } }),
      'RevisionNotFound',
    ],
    [
      'an unknown commit',
      () => fetchFrom({ ref: { commit: 'f'.repeat(40), branch: 'main' } }),
      'RevisionNotFound',
    ],
    ['an abbreviated commit', () => fetchFrom({ ref: { commit: v1.slice(0, 8) } }), 'RevisionNotFound'],
    [
      'a missing repository',
      () => fetchFrom({ ref: { branch: 'main' }, url: anon.url('nope.git') }),
      'FetchFailed',
    ],
    [
      'an empty repository',
      () => fetchFrom({ ref: { branch: 'main' }, url: anon.url('empty.git') }),
      'RevisionNotFound',
    ],
    [
      'an ssh:// URL without a deploy key',
      () => fetchFrom({ ref: { branch: 'main' }, url: 'ssh://git@127.0.0.1/x.git' }),
      'InvalidCredentials',
    ],
    [
      'a file:// URL',
      () => fetchFrom({ ref: { branch: 'main' }, url: `file://${root}` }),
      'UnsupportedRepoUrl',
    ],
  ];
  for (const [name, run, code] of missing) {
    it(`fails on ${name} with ${code}`, async () => {
      const err = await failure(run());
      expect(err.code).toBe(code);
      expect(err.fix).toBeTruthy();
    });
  }

  it('reports the HTTP status of a failed fetch', async () => {
    const err = await failure(fetchFrom({ ref: { branch: 'main' }, url: anon.url('nope.git') }));
    expect(err).toMatchObject({ code: 'FetchFailed', statusCode: 404 });
  });
});

describe('fetchRevision with credentials', () => {
  it('sends a username and password', async () => {
    const r = await fetchRevision({
      url: basic.url(repo.path),
      ref: { branch: 'main' },
      cacheDir: cacheDir(),
      auth: { username: 'deploy', password: PASSWORD },
    });
    expect(r.commit).toBe(history.at(-1));
  });

  it('sends a token', async () => {
    const r = await fetchRevision({
      url: token.url(repo.path),
      ref: { tag: 'v1' },
      cacheDir: cacheDir(),
      auth: { token: TOKEN },
    });
    expect(r.commit).toBe(v1);
  });

  it('takes credentials from the URL and keeps them out of the cache', async () => {
    const dir = cacheDir();
    const url = basic.url(repo.path, { username: 'deploy', password: PASSWORD });
    await fetchRevision({ url, ref: { branch: 'main' }, cacheDir: dir });
    expect(readFileSync(join(dir, 'repo', '.git', 'config'), 'utf8')).not.toContain(PASSWORD);
    const bad = await failure(
      fetchRevision({ url: url.replace(PASSWORD, `${PASSWORD}x`), ref: { branch: 'main' }, cacheDir: dir }),
    );
    expect(bad.code).toBe('AuthFailed');
    expect(everythingIn(bad)).not.toContain(PASSWORD);
  });

  const wrong: [string, () => GitServer, FetchRevisionOptions['auth'], string][] = [
    ['a wrong password', () => basic, { username: 'deploy', password: `${PASSWORD}-wrong` }, PASSWORD],
    ['a wrong token', () => token, { token: `${TOKEN}-wrong` }, TOKEN],
    ['no credentials', () => token, undefined, TOKEN],
  ];
  for (const [name, server, auth, secret] of wrong) {
    it(`fails on ${name} with AuthFailed and no secret in the error`, async () => {
      const err = await failure(
        fetchRevision({ url: server().url(repo.path), ref: { branch: 'main' }, cacheDir: cacheDir(), auth }),
      );
      expect(err).toMatchObject({ code: 'AuthFailed', statusCode: 401 });
      expect(everythingIn(err)).not.toContain(secret);
    });
  }
});

describe('fetchRevision when the server is down', () => {
  it('fails with FetchFailed while the server is stopped, and succeeds after restart', async () => {
    const server = await startGitServer({ root: join(root, 'repos'), auth: { token: TOKEN } });
    const dir = cacheDir();
    const opts = {
      url: server.url(repo.path),
      ref: { branch: 'main' },
      cacheDir: dir,
      auth: { token: TOKEN },
    };
    try {
      expect((await fetchRevision(opts)).commit).toBe(history.at(-1));
      await server.stop();
      const err = await failure(fetchRevision(opts));
      expect(err.code).toBe('FetchFailed');
      expect(err.message).toContain('ECONNREFUSED');
      expect(everythingIn(err)).not.toContain(TOKEN);
      await server.restart();
      expect((await fetchRevision(opts)).revision).toBe(`main@sha1:${history.at(-1)}`);
    } finally {
      await server.stop();
    }
  });

  it('aborts a hung fetch with FetchTimeout', async () => {
    const sockets = new Set<Socket>();
    const hung = createServer(() => {}); // accepts, never answers
    hung.on('connection', (s) => sockets.add(s));
    await new Promise<void>((r) => hung.listen(0, '127.0.0.1', r));
    try {
      const port = (hung.address() as AddressInfo).port;
      const err = await failure(
        fetchRevision({
          url: `http://127.0.0.1:${port}/platform.git`,
          ref: { branch: 'main' },
          cacheDir: cacheDir(),
          timeoutMs: 300,
        }),
      );
      expect(err.code).toBe('FetchTimeout');
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((r) => hung.close(r));
    }
  });
});
