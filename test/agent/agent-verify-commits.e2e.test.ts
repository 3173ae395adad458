import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startAgent } from '../../src/agent/start.js';
import { useCluster, eventually } from '../harness/cluster.js';
import {
  PLATFORM_MAIN,
  platformRepo,
  type PlatformRepo,
  type PlatformValues,
} from '../harness/agent-repo.js';
import { agentOptions, appliedRevision, syncStatus } from '../harness/agent-run.js';
import { gpgKey, signedCommit, sshKey } from '../harness/signing.js';

// Done-when of issue 24's trusted commits: on the local control plane, with the agent and the real
// git smart-HTTP server, commits signed by `git commit -S` (gpg and gpg.format=ssh) apply; an
// unsigned one is refused with a clear status and an Event, and the last good revision stays.

const cluster = useCluster({ namespacePrefix: 'gw-verify' });
const keysDir = mkdtempSync(join(tmpdir(), 'gw-verify-keys-'));
const alice = gpgKey(keysDir, 'alice');
const carol = sshKey(keysDir, 'carol');

/** Writes what `publish` writes (plus `groundworkYaml` extra lines) and commits it signed by `signer`. */
async function publishSigned(
  repo: PlatformRepo,
  name: string,
  values: PlatformValues,
  signer: { gitConfig: readonly string[] } | undefined,
  groundworkYaml = '',
): Promise<string> {
  repo.repo.writeFiles({
    'groundwork.yaml': `name: ${name}\nentry: platform/main.ts\noverlays: overlays\ndefaultOverlay: test\n${groundworkYaml}`,
    'package.json': '{ "type": "module" }\n',
    'platform/main.ts': PLATFORM_MAIN,
    'overlays/test.yaml': JSON.stringify(values, null, 2),
  });
  const sha = signer ? signedCommit(repo.repo, 'signed', signer) : repo.repo.commit('unsigned');
  await repo.repo.push();
  return sha;
}

async function trustedKeysSecret(name: string): Promise<void> {
  await cluster.client.request('POST', `/api/v1/namespaces/${cluster.namespace}/secrets`, {
    body: {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name },
      stringData: { 'alice.asc': alice.publicKey, allowed_signers: carol.allowedSigner('carol@example.com') },
    },
  });
}

async function stalledOnVerification(what: string) {
  return eventually(
    async () => {
      const s = await syncStatus(cluster);
      const c = s?.conditions?.find((x) => x.type === 'Stalled');
      return s && c?.status === 'True' && c.reason === 'VerificationFailed' ? { s, c } : undefined;
    },
    30_000,
    what,
  );
}

/** The VerificationFailed Events on the PlatformSync `sync` (recorded beside the status, not before it). */
async function verificationEvent(sync: string) {
  return eventually(
    async () => {
      const events = await cluster.client.request<{
        items: { reason: string; note: string; regarding: { kind: string; name: string } }[];
      }>('GET', `/apis/events.k8s.io/v1/namespaces/${cluster.namespace}/events`);
      return events.items.find((e) => e.reason === 'VerificationFailed' && e.regarding.name === sync);
    },
    30_000,
    'the VerificationFailed Event',
  );
}

const configMaps = async (): Promise<string[]> =>
  (
    await cluster.client.request<{ items: { metadata: { name: string } }[] }>(
      'GET',
      `/api/v1/namespaces/${cluster.namespace}/configmaps`,
    )
  ).items.map((i) => i.metadata.name);

describe('the agent with --verify-commits', () => {
  it('applies signed commits (OpenPGP and SSH), refuses an unsigned one with the status and an Event, and keeps the last good revision', async () => {
    const ns = cluster.namespace;
    const name = `v${ns.slice(-6)}`;
    await trustedKeysSecret('trusted-keys');
    const repo = await platformRepo(name);
    const agent = await startAgent(
      agentOptions(cluster, repo, { verifyCommits: 'trusted-keys', syncName: `${name}-test` }),
    );
    try {
      const signed = await publishSigned(repo, name, { namespace: ns, items: { a: '1' } }, alice);
      await appliedRevision(cluster, signed, 'the OpenPGP-signed revision applied');

      const unsigned = await publishSigned(
        repo,
        name,
        { namespace: ns, items: { a: '1', b: '2' } },
        undefined,
      );
      const { s, c } = await stalledOnVerification('Stalled on the unsigned commit');
      expect(c.message).toContain(`commit ${unsigned.slice(0, 12)}: Unsigned: not signed`);
      expect(s.lastAppliedRevision).toBe(`main@sha1:${signed}`);
      expect((s as { lastAttemptedRevision?: string }).lastAttemptedRevision).toBe(`main@sha1:${unsigned}`);
      expect(s.conditions?.find((x) => x.type === 'Ready')).toMatchObject({
        status: 'False',
        reason: 'VerificationFailed',
      });
      expect(await configMaps()).not.toContain('b');
      const refused = await verificationEvent(`${name}-test`);
      expect(refused).toMatchObject({ regarding: { kind: 'PlatformSync' } });
      expect(refused?.note).toContain(unsigned.slice(0, 12));

      const bySsh = await publishSigned(repo, name, { namespace: ns, items: { a: '1', c: '3' } }, carol);
      await appliedRevision(cluster, bySsh, 'the SSH-signed revision applied');
      expect(await configMaps()).toContain('c');
      expect(await configMaps()).not.toContain('b');
    } finally {
      await agent.stop();
      await repo.stop();
    }
  });

  it('an unsigned head before any verified revision: the status and an Event on the PlatformSync --sync-name names', async () => {
    const ns = cluster.namespace;
    const name = `u${ns.slice(-6)}`;
    await trustedKeysSecret('first-keys');
    const repo = await platformRepo(name);
    // groundwork.yaml of the refused commit names another platform: it must not name the PlatformSync.
    const unsigned = await publishSigned(
      repo,
      'chosen-by-attacker',
      { namespace: ns, items: { x: '1' } },
      undefined,
    );
    const agent = await startAgent(
      agentOptions(cluster, repo, { verifyCommits: 'first-keys', syncName: `${name}-test` }),
    );
    try {
      const { c } = await stalledOnVerification('Stalled on the unsigned first head');
      expect(c.message).toContain(`commit ${unsigned.slice(0, 12)}: Unsigned: not signed`);
      const syncs = await cluster.client.request<{ items: { metadata: { name: string } }[] }>(
        'GET',
        `/apis/groundwork.io/v1alpha1/namespaces/${ns}/platformsyncs`,
      );
      expect(syncs.items.map((i) => i.metadata.name)).toEqual([`${name}-test`]);
      expect((await verificationEvent(`${name}-test`)).note).toContain(unsigned.slice(0, 12));
      expect(await configMaps()).not.toContain('x');
    } finally {
      await agent.stop();
      await repo.stop();
    }
  });

  it('with --trusted-keys only: an environment with verify: true is checked, and a commit that drops verify: is still refused', async () => {
    const ns = cluster.namespace;
    const name = `w${ns.slice(-6)}`;
    await trustedKeysSecret('keys');
    const repo = await platformRepo(name);
    const env = 'environments:\n  - name: prod\n    overlays: [test]\n    ref: main\n    verify: true\n';
    const agent = await startAgent(
      agentOptions(cluster, repo, { trustedKeys: 'keys', syncName: `${name}-test` }),
    );
    try {
      const signed = await publishSigned(repo, name, { namespace: ns, items: { a: '1' } }, carol, env);
      await appliedRevision(cluster, signed, 'the signed revision of a verify: true environment applied');
      // An attacker with push access removes verify: and pushes an unsigned commit.
      const attack = await publishSigned(
        repo,
        name,
        { namespace: ns, items: { a: '1', evil: 'x' } },
        undefined,
      );
      const { s, c } = await stalledOnVerification('Stalled on the commit that drops verify:');
      expect(c.message).toContain(`commit ${attack.slice(0, 12)}`);
      expect(c.message).toContain('applied revision’s groundwork.yaml requires verification');
      expect(s.lastAppliedRevision).toBe(`main@sha1:${signed}`);
      expect(await configMaps()).not.toContain('evil');
    } finally {
      await agent.stop();
      await repo.stop();
    }
  });
});
