import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { agentRbac } from '../../src/install/rbac.js';
import { agentRedactionKey, REDACTION_KEY_SECRET } from '../../src/agent/redaction-key-secret.js';
import { startAgent } from '../../src/agent/start.js';
import type { KubeClient } from '../../src/cluster/client.js';
import { hasCode } from '../../src/core/errors.js';
import { idOf } from '../../src/core/object-id.js';
import type { K8sObject } from '../../src/core/object.js';
import { redactionTag } from '../../src/core/redaction-key.js';
import { memoryLogger, platformRepo } from '../harness/agent-repo.js';
import { agentOptions } from '../harness/agent-run.js';
import { eventually, useCluster } from '../harness/cluster.js';
import { agentAccountClient } from '../harness/service-account.js';

// The agent's redaction key (issue 19, item 12): a Secret in its namespace, made by the first agent.

const cluster = useCluster({ namespacePrefix: 'gw-rkey' });
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

const b64 = (s: string) => Buffer.from(s).toString('base64');
const secretPath = (ns: string) => `/api/v1/namespaces/${ns}/secrets/${REDACTION_KEY_SECRET}`;

/** A client on a ServiceAccount's own token, bound to the agent's Role in `ns` when `bound`. */
async function agentClient(ns: string, opts: { bound: boolean }): Promise<KubeClient> {
  const rules = opts.bound
    ? agentRbac({ objects: [], namespace: ns, inventory: { namespace: ns, name: 'inv' } }).namespaced.find(
        (n) => n.namespace === ns,
      )!.rules
    : undefined;
  const client = await agentAccountClient({
    admin: cluster.client,
    adminKubeconfig: cluster.kubeconfig,
    namespace: ns,
    ...(rules ? { rules } : {}),
  });
  cleanups.push(async () => client.close());
  return client;
}

describe('agentRedactionKey', () => {
  it("with the agent's RBAC: creates the Secret once, every later or concurrent caller reads the same key", async () => {
    const ns = cluster.namespace;
    const client = await agentClient(ns, { bound: true });
    const keys = await Promise.all(
      [1, 2, 3, 4].map(() => agentRedactionKey(client, { namespace: ns, env: {} })),
    );
    for (const k of keys) {
      expect(k.source).toBe('secret');
      expect(k.bytes).toHaveLength(32);
      expect(k.bytes.equals(keys[0]!.bytes)).toBe(true);
    }
    const stored = await cluster.client.request<{ data: { key: string } }>('GET', secretPath(ns));
    expect(Buffer.from(stored.data.key, 'base64').equals(keys[0]!.bytes)).toBe(true);
    const again = await agentRedactionKey(client, { namespace: ns, env: {} });
    expect(again.bytes.equals(keys[0]!.bytes)).toBe(true);
  });

  it('without RBAC for it: a warning and a per-run key, nothing created', async () => {
    const ns = cluster.namespace;
    const client = await agentClient(ns, { bound: false });
    const warnings: string[] = [];
    const key = await agentRedactionKey(client, {
      namespace: ns,
      env: {},
      onWarning: (m) => warnings.push(m),
    });
    expect(key.source).toBe('per-run');
    expect(warnings.join('\n')).toMatch(/forbidden: run groundwork bootstrap again/);
    await expect(cluster.client.request('GET', secretPath(ns))).rejects.toMatchObject({ status: 404 });
  });

  it('GROUNDWORK_REDACTION_KEY wins and creates nothing; a Secret with a short key is refused', async () => {
    const ns = cluster.namespace;
    const env = { GROUNDWORK_REDACTION_KEY: 'x'.repeat(32) };
    expect((await agentRedactionKey(cluster.client, { namespace: ns, env })).source).toBe('env');
    await expect(cluster.client.request('GET', secretPath(ns))).rejects.toMatchObject({ status: 404 });
    await cluster.client.request('POST', `/api/v1/namespaces/${ns}/secrets`, {
      body: { metadata: { name: REDACTION_KEY_SECRET }, data: { key: b64('short') } },
    });
    const err = await agentRedactionKey(cluster.client, { namespace: ns, env: {} }).catch((e: unknown) => e);
    expect(hasCode(err, 'RedactionKeyInvalid')).toBe(true);
  });
});

describe('the agent', () => {
  it("tags a drifted Secret's value in its DriftDetected Event with its Secret's key, not a plain digest", async () => {
    const ns = cluster.namespace;
    const repo = await platformRepo(`r${ns.slice(-6)}`);
    cleanups.push(() => repo.stop());
    await repo.publish({ namespace: ns, items: {}, secret: 'first-value' }, {}, 'a secret');
    const agent = await startAgent(
      agentOptions(cluster, repo, { mode: 'detect-only', log: memoryLogger().log, debounceMs: 50 }),
    );
    cleanups.push(() => agent.stop());
    const creds = `/api/v1/namespaces/${ns}/secrets/creds`;
    const live = await eventually(
      () => cluster.client.request<K8sObject>('GET', creds),
      30_000,
      'the Secret applied',
    );
    // A short, guessable value set behind git's back: the Event must not let a reader confirm it.
    const guess = b64('letmein');
    await cluster.client.request('PUT', creds, { body: { ...live, data: { token: guess } } });
    const note = await eventually(
      async () => {
        const events = await cluster.client.request<{
          items: { reason: string; note: string; regarding: { name: string } }[];
        }>('GET', `/apis/events.k8s.io/v1/namespaces/${ns}/events`);
        return events.items.find((e) => e.reason === 'DriftDetected' && e.regarding.name === 'creds')?.note;
      },
      30_000,
      'a DriftDetected Event on the Secret',
    );
    const stored = await cluster.client.request<{ data: { key: string } }>('GET', secretPath(ns));
    const key = { bytes: Buffer.from(stored.data.key, 'base64'), source: 'secret' as const };
    // redactSecret's contract: the tag is of the object id, the data key and the decoded bytes.
    expect(note).toContain(redactionTag([idOf(live), 'token', Buffer.from('letmein')], key));
    // Not the bare value's tag, which would be equal for the same value in any Secret.
    expect(note).not.toContain(redactionTag([guess], key));
    expect(note).not.toContain(createHash('sha256').update(guess).digest('hex').slice(0, 8));
    expect(note).not.toContain(guess);
    expect(note).not.toContain('letmein');
  });
});
