import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroundworkError } from '../../src/core/errors.js';
import { fetchRevision, type FetchRevisionOptions } from '../../src/source/fetch-revision.js';
import { createGitRepo, type GitRepo } from '../harness/git-repo.js';
import { startSshServer, type SshServer, type TestKey } from '../harness/ssh-server.js';

// A git host that answers with hostile bytes, over Debian's real sshd: each deploy key's logins run
// a script (`restrict,command=`) in place of git-upload-pack. Every answer is refused or bounded by
// the SSH transport's limits and the fetch timeout, and the agent's memory and time stay bounded.

let root: string;
let repo: GitRepo;
let server: SshServer;
const keys: Record<string, TestKey> = {};

/** A script the server runs for one key's logins. */
function script(name: string, body: string): void {
  const file = join(server.dir, `${name}.sh`);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  keys[name] = server.authorizeCommand(`key-${name}`, file);
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'gw-ssh-hostile-'));
  repo = createGitRepo({ root: join(root, 'repos'), name: 'platform' });
  repo.writeFiles({ 'groundwork.yaml': 'name: demo\n' });
  repo.commit('first');
  await repo.push();
  server = await startSshServer();
  // An advertisement that never ends: valid pkt-lines, never a flush.
  script('endless-refs', `exec yes 0009abcd`);
  // A real advertisement, then (for the fetch itself) acknowledgements and endless progress.
  script(
    'endless-pack',
    `git-upload-pack --advertise-refs '${repo.bareDir}'\nprintf '0000'\nprintf '0008NAK\\n'\nexec yes "$(printf '000a\\002abcd')"`,
  );
  // Says nothing, ever.
  script('silent', 'exec sleep 600');
  // An ERR line, the protocol's way to refuse.
  script('err-line', `printf '0010ERR go away\\n'`);
  // Terminal escapes and a fake prompt on stderr, then failure.
  script('escapes', `printf '\\033[2J\\033]0;owned\\007fatal: \\033[31mnope\\n' >&2\nexit 1`);
  // Not git at all.
  script('html', `printf '<html>hello</html>\\n'`);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});

let n = 0;
async function refused(
  name: string,
  more: Partial<FetchRevisionOptions> = {},
): Promise<{ err: GroundworkError; ms: number }> {
  const started = Date.now();
  const err = await fetchRevision({
    url: server.sshUrl(repo.bareDir),
    ref: { branch: 'main' },
    cacheDir: join(root, `cache-${++n}`),
    auth: { ssh: { identity: keys[name]!.privateKey, knownHosts: server.knownHosts } },
    ...more,
  }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, name).toBeInstanceOf(GroundworkError);
  expect(String(err)).not.toContain('PRIVATE KEY');
  return { err: err as GroundworkError, ms: Date.now() - started };
}

describe('the SSH transport against a hostile git host', () => {
  it('stops an advertisement that never ends at its byte limit', async () => {
    const { err } = await refused('endless-refs', { ssh: { maxAdvertisementBytes: 1024 * 1024 } });
    expect(err.code).toBe('FetchFailed');
    expect(err.message).toContain('more than 1048576 bytes');
  });

  it('stops an answer that never ends at its byte limit', async () => {
    const { err } = await refused('endless-pack', { ssh: { maxResponseBytes: 2 * 1024 * 1024 } });
    expect(err.code).toBe('FetchFailed');
    expect(err.message).toContain('more than 2097152 bytes');
  });

  it('gives up on a server that says nothing when the fetch times out', async () => {
    const { err, ms } = await refused('silent', { timeoutMs: 3000 });
    expect(err.code).toBe('FetchTimeout');
    expect(ms).toBeLessThan(60_000);
  });

  it('reports an ERR line as the server refusing', async () => {
    const { err } = await refused('err-line');
    expect(err.code).toBe('FetchFailed');
    expect(err.message).toContain('the server refused: go away');
  });

  it('shows what the server printed without its control characters', async () => {
    const { err } = await refused('escapes');
    expect(err.code).toBe('FetchFailed');
    expect(err.message).toContain('nope');
    // eslint-disable-next-line no-control-regex
    expect(String(err)).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });

  it('refuses an answer that is not the pkt-line protocol', async () => {
    const { err } = await refused('html');
    expect(err.code).toBe('FetchFailed');
    expect(err.message).toContain('pkt-line');
  });
});
