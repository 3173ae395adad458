import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { GroundworkError } from '../../src/core/errors.js';
import { commitsBehind, PromotionRepo } from '../../src/source/promote.js';
import { ProposalRepo } from '../../src/source/proposal-branch.js';

/**
 * A git server that takes the request and then stalls: it never answers, or it answers and
 * trickles a few bytes forever. The promotion and proposal repositories (the Fleet page's gates,
 * `promote`, `propose`) must end every fetch, ref listing and push with `FetchTimeout` (scrubbed of
 * the token) and close the connection, so the next call can run; nothing may wait for good.
 */
const TOKEN = 'stall-s3cret-token';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Stalling {
  url: string;
  /** Requests seen, with their path. */
  requests: string[];
  /** Connections the server still holds open. */
  open(): number;
}

async function stallingServer(mode: 'silent' | 'trickle'): Promise<Stalling> {
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push(req.url ?? '');
    req.resume();
    if (mode === 'silent') return; // accepted, never answered
    res.writeHead(200, { 'Content-Type': 'application/x-git-upload-pack-advertisement' });
    const line = '001e# service=git-upload-pack\n';
    let i = 0;
    const t = setInterval(() => res.write(line[i++ % line.length]!), 50);
    timers.add(t);
    res.on('close', () => clearInterval(t));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(async () => {
    for (const t of timers) clearInterval(t);
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/platform.git`,
    requests,
    open: () => sockets.size,
  };
}

/** The rejection of `p`, and how long it took. */
async function timed(p: Promise<unknown>): Promise<{ err: GroundworkError; ms: number }> {
  const started = Date.now();
  const err = await p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GroundworkError);
  return { err: err as GroundworkError, ms: Date.now() - started };
}

function expectTimeout(err: GroundworkError, url: string, timeoutMs: number): void {
  expect(err.code).toBe('FetchTimeout');
  expect(err.subject).toBe(url);
  expect(err.message).toContain(`fetch did not finish within ${timeoutMs} ms and was aborted`);
  expect(JSON.stringify({ ...err, message: err.message, stack: err.stack })).not.toContain(TOKEN);
}

describe.each(['silent', 'trickle'] as const)('a git server that stalls (%s)', (mode) => {
  it('ends a promotion fetch with FetchTimeout, closes the connection, and lets the next fetch run', async () => {
    const server = await stallingServer(mode);
    const repo = await PromotionRepo.open({ url: server.url, auth: { token: TOKEN }, timeoutMs: 300 });
    cleanups.push(() => repo.dispose());
    const first = await timed(repo.fetchBranch('main'));
    expectTimeout(first.err, server.url, 300);
    expect(first.ms).toBeLessThan(5_000);
    expect(server.requests[0]).toMatch(/^\/platform\.git\/info\/refs\?service=git-upload-pack/);
    await expect.poll(() => server.open(), { timeout: 2_000 }).toBe(0);
    // The read after it is not held by the first: it runs, and is bounded the same way.
    const second = await timed(repo.fetchBranch('env/prod'));
    expectTimeout(second.err, server.url, 300);
    expect(server.requests).toHaveLength(2);
    await expect.poll(() => server.open(), { timeout: 2_000 }).toBe(0);
  });

  it('ends a promotion push, and commitsBehind (the Fleet page) with its own timeout', async () => {
    const server = await stallingServer(mode);
    const repo = await PromotionRepo.open({ url: server.url, timeoutMs: 300 });
    cleanups.push(() => repo.dispose());
    const commit = await emptyCommit(repo.dir);
    expectTimeout((await timed(repo.push('env/prod', commit))).err, server.url, 300);
    const behind = await timed(
      commitsBehind({ url: server.url, timeoutMs: 300, wanted: [{ branch: 'main', commit }] }),
    );
    expectTimeout(behind.err, server.url, 300);
    await expect.poll(() => server.open(), { timeout: 2_000 }).toBe(0);
  });

  it('ends a proposal ref listing, fetch and push with FetchTimeout', async () => {
    const server = await stallingServer(mode);
    const repo = await ProposalRepo.open({ url: server.url, auth: { token: TOKEN }, timeoutMs: 300 });
    cleanups.push(() => repo.dispose());
    expectTimeout((await timed(repo.listBranches('groundwork/propose/'))).err, server.url, 300);
    expectTimeout((await timed(repo.fetchBranch('main'))).err, server.url, 300);
    const commit = await emptyCommit(repo.dir);
    expectTimeout(
      (await timed(repo.push('groundwork/propose/x', commit, { force: true }))).err,
      server.url,
      300,
    );
    await expect.poll(() => server.open(), { timeout: 2_000 }).toBe(0);
  });
});

/** A commit with an empty tree in `dir` (something to push). */
async function emptyCommit(dir: string): Promise<string> {
  const fs = await import('node:fs');
  const git = (await import('isomorphic-git')).default;
  const tree = await git.writeTree({ fs, dir, tree: [] });
  const who = { name: 't', email: 't@example.invalid', timestamp: 0, timezoneOffset: 0 };
  return git.writeCommit({
    fs,
    dir,
    commit: { tree, parent: [], author: who, committer: who, message: 'x\n' },
  });
}
