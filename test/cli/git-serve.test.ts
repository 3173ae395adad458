import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { groundwork } from '../harness/cli.js';
import { git } from '../source/git.js';
import { startServe } from './git-serve-process.js';

// `groundwork git serve` through the real CLI, read by the real git client: what is served (branches
// and tags of a work tree, nothing else), to whom (the token), and that nothing can be pushed.

const root = mkdtempSync(join(tmpdir(), 'gw-git-serve-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const work = join(root, 'platform');
mkdirSync(join(work, 'clusters', 'prod'), { recursive: true });
git(root, 'init', '-q', work);
writeFileSync(join(work, 'clusters', 'prod', 'groundwork.yaml'), 'name: demo\n');
git(work, 'add', '.');
git(work, 'commit', '-qm', 'first');
git(work, 'tag', 'v1');
git(work, 'branch', 'dev');
// What a work tree holds besides branches and tags: none of it is served.
git(work, 'update-ref', 'refs/remotes/origin/secret-branch', 'HEAD');
git(work, 'update-ref', 'refs/notes/commits', 'HEAD');

/** The real git client against the server, with the token as a Bearer header when given. */
async function client(args: string[], token?: string): Promise<{ ok: boolean; out: string }> {
  const auth = token ? ['-c', `http.extraHeader=Authorization: Bearer ${token}`] : [];
  try {
    const { stdout, stderr } = await promisify(execFile)('git', [...auth, ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: root, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' },
    });
    return { ok: true, out: stdout + stderr };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return { ok: false, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('groundwork git serve', () => {
  it('serves branches and tags read-only behind a token, prints the agent command, and stops on Ctrl-C', async () => {
    const serve = await startServe([], work);
    try {
      expect(serve.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/platform\.git$/);
      expect(serve.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(serve.stdout).toContain('branches dev, main; tags v1');
      expect(serve.agentLine).toContain(`groundwork agent --repo ${serve.url}`);
      expect(serve.stdout.split(serve.token!).length - 1).toBe(1); // the token is printed once
      const refs = await client(['ls-remote', serve.url], serve.token);
      expect(refs.ok).toBe(true);
      expect(refs.out).toContain('refs/heads/main');
      expect(refs.out).toContain('refs/heads/dev');
      expect(refs.out).toContain('refs/tags/v1');
      expect(refs.out).not.toContain('secret-branch');
      expect(refs.out).not.toContain('refs/notes');
      expect((await client(['clone', '-q', serve.url, join(root, 'clone')], serve.token)).ok).toBe(true);

      expect((await client(['ls-remote', serve.url])).out).toMatch(
        /could not read Username|401|Authentication/i,
      );
      expect((await client(['ls-remote', serve.url], 'wrong-token')).ok).toBe(false);
      const push = await client(
        ['-C', join(root, 'clone'), 'push', serve.url, 'HEAD:refs/heads/evil'],
        serve.token,
      );
      expect(push.ok).toBe(false);
      expect((await client(['ls-remote', serve.url], serve.token)).out).not.toContain('evil');
      // Dumb-HTTP files of the repository are not served either.
      for (const path of ['HEAD', 'config', 'info/refs', 'objects/info/packs']) {
        const res = await fetch(`${serve.url}/${path}`, {
          headers: { Authorization: `Bearer ${serve.token}` },
        });
        expect(res.status, path).toBe(404);
      }
      // Nor another repository beside it, however the path is spelled (sent as is, not normalized).
      const { port } = new URL(serve.url);
      for (const path of [
        '/platform.git/%2e%2e/%2e%2e/other.git/info/refs?service=git-upload-pack',
        '/platform.git/..%2f..%2fother.git/info/refs?service=git-upload-pack',
        '/other.git/info/refs?service=git-upload-pack',
        '/platform.git/info/refs?service=git-receive-pack',
      ]) {
        const status = await new Promise<number>((resolve, reject) => {
          const req = request(
            { host: '127.0.0.1', port, path, headers: { Authorization: `Bearer ${serve.token}` } },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            },
          );
          req.on('error', reject);
          req.end();
        });
        expect(status, path).toBe(404);
      }
    } finally {
      expect(await serve.interrupt()).toBe(0);
    }
    const after = await fetch(serve.url).then(
      () => 'answered',
      () => 'closed',
    );
    expect(after).toBe('closed');
  });

  it('says what is not committed, names --path for a subdirectory, and serves anonymously with --no-token', async () => {
    writeFileSync(join(work, 'clusters', 'prod', 'new.yaml'), 'x: 1\n');
    const serve = await startServe(['clusters/prod', '--no-token'], work);
    try {
      expect(serve.stdout).toContain('uncommitted changes are not served');
      expect(serve.agentLine).toContain('--path clusters/prod');
      expect(serve.token).toBeUndefined();
      expect(serve.stdout).toContain('any local user can read the repository');
      expect((await client(['ls-remote', serve.url])).out).toContain('refs/heads/main');
    } finally {
      await serve.interrupt();
      rmSync(join(work, 'clusters', 'prod', 'new.yaml'));
    }
  });

  it('refuses a directory outside any repository, and a port that is none', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'gw-not-a-repo-'));
    const none = await groundwork(['git', 'serve', outside]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('not inside a git repository');
    rmSync(outside, { recursive: true, force: true });
    const port = await groundwork(['git', 'serve', work, '--port', '70000']);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('--port');
  });
});
