import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent } from '../../src/agent/start.js';
import { memoryLogger, platformRepo, type PlatformRepo } from '../harness/agent-repo.js';
import { agentOptions, appliedRevision, syncStatus } from '../harness/agent-run.js';
import { eventually, useCluster } from '../harness/cluster.js';
import { makeKey, startSshServer, type SshServer } from '../harness/ssh-server.js';

// Issue 32, item 3: the agent follows a repository over SSH, as Flux and Argo CD do. Debian's real
// sshd on loopback serves the bare repository the test pushes to; the agent reads its deploy key and
// known_hosts from a Secret laid out as Flux's (identity, known_hosts), fetches, renders and applies
// on the real control plane. A wrong host key stops the fetch with the fingerprint in the status;
// the private key is in no status, Event or log line.

const cluster = useCluster({ namespacePrefix: 'gw-ssh' });
let sshd: SshServer;
let port22: SshServer;

beforeAll(async () => {
  sshd = await startSshServer();
  // scp-like URLs cannot name a port: this one listens on port 22 of its own loopback address.
  port22 = await startSshServer({ address: '127.61.0.2', port: 22 });
});
afterAll(async () => {
  await sshd?.stop();
  await port22?.stop();
});

const configMaps = async (): Promise<string[]> =>
  (
    await cluster.client.request<{ items: { metadata: { name: string } }[] }>(
      'GET',
      `/api/v1/namespaces/${cluster.namespace}/configmaps`,
    )
  ).items.map((i) => i.metadata.name);

async function sshSecret(name: string, data: Record<string, string>): Promise<void> {
  await cluster.client.request('POST', `/api/v1/namespaces/${cluster.namespace}/secrets`, {
    body: { apiVersion: 'v1', kind: 'Secret', metadata: { name }, stringData: data },
  });
}

/** Everything the agent wrote that people read: the status, the Events and its log. */
async function visible(logText: string): Promise<string> {
  const events = await cluster.client.request(
    'GET',
    `/apis/events.k8s.io/v1/namespaces/${cluster.namespace}/events`,
  );
  return [JSON.stringify(await syncStatus(cluster)), JSON.stringify(events), logText].join('\n');
}

const keyBody = (privateKey: string) => privateKey.split('\n')[1]!.slice(0, 40);

describe('the agent over SSH', () => {
  it('applies a platform over ssh:// with the deploy key and known_hosts from a Secret, then the next commit', async () => {
    const ns = cluster.namespace;
    const name = `s${ns.slice(-6)}`;
    const repo: PlatformRepo = await platformRepo(name);
    await sshSecret('git-ssh', { identity: sshd.deployKey.privateKey, known_hosts: sshd.knownHosts });
    const { log, text } = memoryLogger();
    const first = await repo.publish({ namespace: ns, items: { a: '1' } });
    const agent = await startAgent(
      agentOptions(cluster, repo, {
        repository: { url: sshd.sshUrl(repo.repo.bareDir), ref: { branch: 'main' } },
        credentialsSecret: 'git-ssh',
        log,
      }),
    );
    try {
      await appliedRevision(cluster, first, 'the first revision applied over ssh://');
      const second = await repo.publish({ namespace: ns, items: { a: '1', b: '2' } });
      await appliedRevision(cluster, second, 'the next commit applied over ssh://');
      expect(await configMaps()).toEqual(expect.arrayContaining(['a', 'b']));
      expect(sshd.log()).toMatch(/Accepted publickey/);
      const shown = await visible(text());
      expect(shown).not.toContain(keyBody(sshd.deployKey.privateKey));
      expect(shown).not.toContain('PRIVATE KEY');
    } finally {
      await agent.stop();
      await repo.stop();
    }
  });

  it('applies a platform over a scp-like user@host:path URL', async () => {
    const ns = cluster.namespace;
    const name = `c${ns.slice(-6)}`;
    const repo = await platformRepo(name);
    const sha = await repo.publish({ namespace: ns, items: { scp: '1' } });
    const agent = await startAgent(
      agentOptions(cluster, repo, {
        repository: { url: `${port22.user}@127.61.0.2:${repo.repo.bareDir}`, ref: { branch: 'main' } },
        auth: { ssh: { identity: port22.deployKey.privateKey, knownHosts: port22.knownHosts } },
      }),
    );
    try {
      await appliedRevision(cluster, sha, 'the revision applied over scp-like syntax');
      expect(await configMaps()).toContain('scp');
    } finally {
      await agent.stop();
      await repo.stop();
    }
  });

  it('refuses a host key other than the pinned one: FetchFailed naming the host and the fingerprint, nothing applied, no key shown', async () => {
    const ns = cluster.namespace;
    const name = `m${ns.slice(-6)}`;
    const repo = await platformRepo(name);
    await repo.publish({ namespace: ns, items: { never: '1' } });
    const impostor = makeKey(repo.repo.workDir, 'impostor');
    const hostName = `[${sshd.address}]:${sshd.port}`;
    await sshSecret('git-ssh-wrong', {
      identity: sshd.deployKey.privateKey,
      known_hosts: `${hostName} ${impostor.publicKey}\n`,
    });
    const { log, text } = memoryLogger();
    const agent = await startAgent(
      agentOptions(cluster, repo, {
        repository: { url: sshd.sshUrl(repo.repo.bareDir), ref: { branch: 'main' } },
        credentialsSecret: 'git-ssh-wrong',
        // A fetch that never succeeds cannot read the platform's name from a checkout.
        platform: name,
        log,
      }),
    );
    try {
      const presented = execFileSync('ssh-keygen', ['-lf', '-'], {
        input: `${sshd.hostKeys.ed25519}\n`,
        encoding: 'utf8',
      }).split(' ')[1]!;
      const ready = await eventually(
        async () => {
          const c = (await syncStatus(cluster))?.conditions?.find((x) => x.type === 'Ready');
          return c?.reason === 'FetchFailed' ? c : undefined;
        },
        30_000,
        'Ready=False FetchFailed on the wrong host key',
      );
      expect(ready.message).toContain(hostName);
      expect(ready.message).toContain(presented);
      expect(ready.message).toContain('ssh-keyscan');
      expect(await configMaps()).not.toContain('never');
      const shown = await visible(text());
      expect(shown).not.toContain(keyBody(sshd.deployKey.privateKey));
      expect(shown).not.toContain('PRIVATE KEY');
    } finally {
      await agent.stop();
      await repo.stop();
    }
  });
});
