import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroundworkError } from '../../src/core/errors.js';
import { PromotionRepo } from '../../src/source/promote.js';
import { parseSshUrl } from '../../src/source/ssh/ssh-url.js';
import { SSH_REMOTE_URL, sshTransport } from '../../src/source/ssh/ssh-http.js';
import { createGitRepo, runGit, type GitRepo } from '../harness/git-repo.js';
import { startSshServer, type SshServer } from '../harness/ssh-server.js';

// Promotions over SSH (`groundwork promote`, `fleet status`): the promotion repository fetches and
// pushes through the same SSH adapter, with git-receive-pack; the agent's fetch transport runs
// nothing but git-upload-pack. Debian's real sshd and a real bare repository.

let root: string;
let repo: GitRepo;
let server: SshServer;
let main: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'gw-ssh-promote-'));
  repo = createGitRepo({ root: join(root, 'repos'), name: 'platform' });
  repo.writeFiles({ 'groundwork.yaml': 'name: demo\n' });
  main = repo.commit('first');
  await repo.push();
  server = await startSshServer();
});

afterAll(async () => {
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});

const auth = () => ({ ssh: { identity: server.deployKey.privateKey, knownHosts: server.knownHosts } });

describe('PromotionRepo over SSH', () => {
  it('fetches a branch, and pushes a new branch and an annotated tag with git-receive-pack', async () => {
    const promotion = await PromotionRepo.open({ url: server.sshUrl(repo.bareDir), auth: auth() });
    try {
      expect(await promotion.fetchBranch('main')).toBe(main);
      expect(await promotion.fetchBranch('env/prod')).toBeUndefined();
      const state = await promotion.stateOf(main, undefined);
      expect(state.fastForward).toBe(true);
      await promotion.push('env/prod', main, { name: 'promote/prod/1', message: 'promote main to prod' });
    } finally {
      await promotion.dispose();
    }
    expect(runGit(repo.bareDir, ['rev-parse', 'refs/heads/env/prod'])).toBe(main);
    expect(runGit(repo.bareDir, ['cat-file', '-t', 'refs/tags/promote/prod/1'])).toBe('tag');
  });
});

describe("the agent's SSH transport", () => {
  it('refuses to run git-receive-pack: it fetches only', async () => {
    const transport = sshTransport(parseSshUrl(server.sshUrl(repo.bareDir)), auth().ssh);
    try {
      for (const [method, path] of [
        ['GET', '/info/refs?service=git-receive-pack'],
        ['POST', '/git-receive-pack'],
        ['GET', '/HEAD'],
      ] as const) {
        const err = await transport.http
          .request({ url: `${SSH_REMOTE_URL}${path}`, method, headers: {} })
          .then(
            () => undefined,
            (e: unknown) => e,
          );
        expect(err).toBeInstanceOf(GroundworkError);
        expect(String(err)).toContain('serves git-upload-pack only');
      }
    } finally {
      transport.close();
    }
  });
});
