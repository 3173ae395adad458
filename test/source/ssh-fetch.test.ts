import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroundworkError } from '../../src/core/errors.js';
import type { GitAuth } from '../../src/source/credentials.js';
import { fetchRevision } from '../../src/source/fetch-revision.js';
import { createGitRepo, runGit, type GitRepo } from '../harness/git-repo.js';
import { makeKey, startSshServer, type SshServer } from '../harness/ssh-server.js';

// The SSH transport end to end: Debian's real OpenSSH server on loopback (its own host keys, a
// deploy key in authorized_keys with `restrict`), a real bare repository, fetched by
// isomorphic-git through the SSH client adapter. Nothing of SSH or git is mocked.

let root: string;
let repo: GitRepo;
let server: SshServer;
const commits: string[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'gw-ssh-fetch-'));
  repo = createGitRepo({ root: join(root, 'repos'), name: 'platform' });
  for (let i = 1; i <= 20; i++) {
    repo.writeFiles({
      'groundwork.yaml': `name: demo\nrevision: ${i}\n`,
      'platform/main.ts': 'export default 1;\n',
    });
    commits.push(repo.commit(`change ${i}`));
  }
  await repo.push();
  server = await startSshServer();
});

afterAll(async () => {
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});

let caches = 0;
const cache = () => join(root, `cache-${++caches}`);
const auth = (over: Partial<NonNullable<GitAuth['ssh']>> = {}): GitAuth => ({
  ssh: { identity: server.deployKey.privateKey, knownHosts: server.knownHosts, ...over },
});
const url = () => server.sshUrl(repo.bareDir);

/** The error a promise rejects with, checked to hold no key material. */
async function refusal(p: Promise<unknown>): Promise<GroundworkError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GroundworkError);
  const text = [String(err), (err as Error).stack, String((err as Error).cause ?? '')].join('\n');
  for (const key of [server.deployKey, server.strangerKey]) {
    expect(text).not.toContain(key.privateKey.split('\n')[1]!.slice(0, 40));
  }
  expect(text).not.toContain('PRIVATE KEY');
  return err as GroundworkError;
}

/** `ssh-keygen -lf -`'s fingerprint of a public key line (independent of ours). */
const fingerprintOf = (line: string) =>
  execFileSync('ssh-keygen', ['-lf', '-'], { input: `${line}\n`, encoding: 'utf8' }).split(' ')[1]!;

describe('fetchRevision over ssh://', () => {
  it('fetches a branch with a deploy key and a pinned host key, and then only what is new', async () => {
    const dir = cache();
    const first = await fetchRevision({ url: url(), ref: { branch: 'main' }, cacheDir: dir, auth: auth() });
    expect(first.commit).toBe(commits.at(-1));
    expect(first.revision).toBe(`main@sha1:${commits.at(-1)}`);
    expect(readFileSync(join(first.dir, 'groundwork.yaml'), 'utf8')).toContain('revision: 20');
    repo.writeFiles({ 'groundwork.yaml': 'name: demo\nrevision: 21\n' });
    commits.push(repo.commit('change 21'));
    await repo.push();
    const second = await fetchRevision({ url: url(), ref: { branch: 'main' }, cacheDir: dir, auth: auth() });
    expect(second.commit).toBe(commits.at(-1));
    // The store remembers the SSH URL (no placeholder, no secret).
    expect(runGit(join(dir, 'repo'), ['config', 'remote.origin.url'])).toBe(url());
    expect(server.log()).toMatch(/Accepted publickey for/);
  });

  it('finds a pinned commit below the head by deepening, over several upload-pack requests', async () => {
    const r = await fetchRevision({
      url: url(),
      ref: { commit: commits[0]!, branch: 'main' },
      cacheDir: cache(),
      auth: auth(),
    });
    expect(r.commit).toBe(commits[0]);
  });

  it('offers only the pinned key types, so a server with several keys presents the pinned one', async () => {
    const name = `[${server.address}]:${server.port}`;
    const r = await fetchRevision({
      url: url(),
      ref: { branch: 'main' },
      cacheDir: cache(),
      auth: auth({ knownHosts: `${name} ${server.hostKeys.ecdsa}\n` }),
    });
    expect(r.commit).toBe(commits.at(-1));
  });

  it('decrypts an encrypted deploy key with its passphrase (then offers it), and refuses a wrong passphrase', async () => {
    const keys = mkdtempSync(join(root, 'keys-'));
    const encrypted = join(keys, 'enc');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', 'correct horse', '-f', encrypted]);
    const identity = readFileSync(encrypted, 'utf8');
    // Decrypted and offered: the server does not know this key, so the login is refused.
    const offered = await refusal(
      fetchRevision({
        url: url(),
        ref: { branch: 'main' },
        cacheDir: cache(),
        auth: auth({ identity, passphrase: 'correct horse' }),
      }),
    );
    expect(offered.code).toBe('AuthFailed');
    const err = await refusal(
      fetchRevision({
        url: url(),
        ref: { branch: 'main' },
        cacheDir: cache(),
        auth: auth({ identity, passphrase: 'wrong' }),
      }),
    );
    expect(err.code).toBe('InvalidCredentials');
    expect(String(err)).not.toContain('wrong');
  });
});

describe('fetchRevision over ssh:// refuses', () => {
  it('a host key that known_hosts does not pin: HostKeyMismatch naming the host and the presented fingerprint', async () => {
    const other = makeKey(mkdtempSync(join(root, 'other-')), 'other-host');
    const name = `[${server.address}]:${server.port}`;
    const err = await refusal(
      fetchRevision({
        url: url(),
        ref: { branch: 'main' },
        cacheDir: cache(),
        auth: auth({ knownHosts: `${name} ${other.publicKey}\n` }),
      }),
    );
    expect(err.code).toBe('HostKeyMismatch');
    expect(err.subject).toBe(name);
    expect(err.message).toContain(fingerprintOf(server.hostKeys.ed25519));
    expect(err.fix).toContain(`ssh-keyscan -p ${server.port} ${server.address}`);
    // The deploy key was never offered: the connection ended at the key exchange.
    expect(server.log()).not.toMatch(
      new RegExp(`Failed publickey.*${fingerprintOf(server.deployKey.publicKey)}`),
    );
  });

  it('a host key known_hosts marks @revoked', async () => {
    const name = `[${server.address}]:${server.port}`;
    const line = `${name} ${server.hostKeys.ed25519}`;
    const err = await refusal(
      fetchRevision({
        url: url(),
        ref: { branch: 'main' },
        cacheDir: cache(),
        auth: auth({ knownHosts: `${line}\n@revoked ${line}\n` }),
      }),
    );
    expect(err.code).toBe('HostKeyMismatch');
    expect(err.message).toContain('@revoked');
  });

  it('no known_hosts, or none for this host: HostKeyNotPinned with the presented fingerprint (no trust on first use)', async () => {
    const none = await refusal(
      fetchRevision({
        url: url(),
        ref: { branch: 'main' },
        cacheDir: cache(),
        auth: auth({ knownHosts: undefined }),
      }),
    );
    expect(none.code).toBe('HostKeyNotPinned');
    expect(none.message).toContain('no known_hosts was given');
    expect(none.message).toContain(fingerprintOf(server.hostKeys.ed25519));
    const elsewhere = await refusal(
      fetchRevision({
        url: url(),
        ref: { branch: 'main' },
        cacheDir: cache(),
        // The right key, but pinned for port 22: a port is part of the name.
        auth: auth({ knownHosts: `${server.address} ${server.hostKeys.ed25519}\n` }),
      }),
    );
    expect(elsewhere.code).toBe('HostKeyNotPinned');
    expect(elsewhere.message).toContain(`no line for [${server.address}]:${server.port}`);
  });

  it('a deploy key the server does not know: AuthFailed', async () => {
    const err = await refusal(
      fetchRevision({
        url: url(),
        ref: { branch: 'main' },
        cacheDir: cache(),
        auth: auth({ identity: server.strangerKey.privateKey }),
      }),
    );
    expect(err.code).toBe('AuthFailed');
    expect(err.message).toContain(`for the user ${server.user}`);
  });

  it('no deploy key, or text that is not one: InvalidCredentials', async () => {
    const missing = await refusal(
      fetchRevision({
        url: url(),
        ref: { branch: 'main' },
        cacheDir: cache(),
        auth: auth({ identity: undefined }),
      }),
    );
    expect(missing.code).toBe('InvalidCredentials');
    const garbage = await refusal(
      fetchRevision({
        url: url(),
        ref: { branch: 'main' },
        cacheDir: cache(),
        auth: auth({ identity: 'not a key' }),
      }),
    );
    expect(garbage.code).toBe('InvalidCredentials');
  });

  it('a path that is no repository: FetchFailed with what git-upload-pack said', async () => {
    const err = await refusal(
      fetchRevision({
        url: server.sshUrl(join(root, 'nothing-here.git')),
        ref: { branch: 'main' },
        cacheDir: cache(),
        auth: auth(),
      }),
    );
    expect(err.code).toBe('FetchFailed');
    expect(err.message).toMatch(/does not appear to be a git repository/);
  });
});

// scp-like URLs have no port: a second sshd listens on port 22 of another loopback address (the
// tests run as root, as CI does; sshd's privilege separation then needs /run/sshd).
describe('fetchRevision over scp-like user@host:path', () => {
  let port22: SshServer;
  beforeAll(async () => {
    port22 = await startSshServer({ address: '127.61.0.1', port: 22 });
  });
  afterAll(async () => port22?.stop());

  it('fetches with the host pinned under its bare name', async () => {
    const r = await fetchRevision({
      url: `${port22.user}@127.61.0.1:${repo.bareDir}`,
      ref: { branch: 'main' },
      cacheDir: cache(),
      auth: { ssh: { identity: port22.deployKey.privateKey, knownHosts: port22.knownHosts } },
    });
    expect(r.commit).toBe(commits.at(-1));
    expect(port22.knownHosts.startsWith('127.61.0.1 ssh-ed25519 ')).toBe(true);
  });
});
