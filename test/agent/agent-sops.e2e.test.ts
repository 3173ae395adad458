import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { generateX25519Identity } from 'age-encryption';
import { pino, type Logger } from 'pino';
import { parseDocument } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent } from '../../src/agent/start.js';
import { eventually, useCluster } from '../harness/cluster.js';
import { platformRepo, PLATFORM_MAIN } from '../harness/agent-repo.js';
import { agentOptions, appliedRevision, stalledOnSynth, syncStatus } from '../harness/agent-run.js';
import { toolPath, useTools } from '../harness/tools.js';

useTools('sops');

// Issue 24, done when: an htpasswd identity-provider secret and a pull secret, encrypted with the
// real sops for an age key, are applied by the agent with the plaintext nowhere but in the Secret
// objects; a tampered file or one for another key stalls with the file named, the last good
// revision stays applied, and nothing is pruned.

const run = promisify(execFile);
const HTPASSWD = 'admin:$2y$05$planted.HtPasswd.Value.8d1e';
const PULL_AUTH = 'cGxhbnRlZC1wdWxsLWF1dGgtNGIyYw=='; // base64 of planted-pull-auth-4b2c
const LIVE_EDIT = 'planted-live-edit-77aa';
const PLANTED = [HTPASSWD, 'planted.HtPasswd', PULL_AUTH, 'planted-pull-auth-4b2c', LIVE_EDIT];
const cacheSaved = process.env.GROUNDWORK_CACHE_DIR;
process.env.GROUNDWORK_CACHE_DIR = mkdtempSync(join(tmpdir(), 'gw-agent-cache-'));
afterAll(() => {
  if (cacheSaved === undefined) delete process.env.GROUNDWORK_CACHE_DIR;
  else process.env.GROUNDWORK_CACHE_DIR = cacheSaved;
});

const cluster = useCluster({ namespacePrefix: 'gw-sops' });

const MAIN = PLATFORM_MAIN.replace('import { ApiObject,', 'import { SopsSecret, ApiObject,').replace(
  '    if (v.secret) {',
  `    new SopsSecret(platform, 'htpass-secret', { file: 'secrets/htpasswd.sops.yaml', namespace: v.namespace });
    new SopsSecret(platform, 'pull', { file: 'secrets/pull.sops.yaml', namespace: v.namespace });
    if (v.secret) {`,
);

let sops: string;
let work: string;
let identity: string;
let recipient: string;
let otherRecipient: string;

/** Encrypts `text` with the real sops for `to`. */
async function sopsEncrypt(name: string, text: string, to: string, extra: string[] = []): Promise<string> {
  writeFileSync(join(work, name), text);
  const { stdout } = await run(sops, ['--encrypt', '--age', to, ...extra, name], {
    cwd: work,
    env: { PATH: process.env.PATH, HOME: work },
  });
  return stdout;
}

/** Every line the agent logs, at every level. */
function traceLogger(): { log: Logger; text: () => string } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { log: pino({ level: 'trace' }, stream), text: () => lines.join('') };
}

/** Every file under `dir`, as text. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'latin1'));
}

beforeAll(async () => {
  sops = await toolPath('sops');
  work = mkdtempSync(join(tmpdir(), 'gw-sops-agent-'));
  identity = await generateX25519Identity();
  const { identityToRecipient } = await import('age-encryption');
  recipient = await identityToRecipient(identity);
  otherRecipient = await identityToRecipient(await generateX25519Identity());
}, 600_000);

describe('the agent with SopsSecrets encrypted by the real sops', () => {
  it('applies them with the plaintext only in the Secrets; refuses a tampered file and one for another key, keeping the last good revision', async () => {
    const ns = cluster.namespace;
    const secretsApi = `/api/v1/namespaces/${ns}/secrets`;
    await cluster.client.request('POST', secretsApi, {
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'sops-age', namespace: ns },
        data: { 'age.agekey': Buffer.from(`# test key\n${identity}\n`).toString('base64') },
      },
    });
    const htpasswd = await sopsEncrypt('htpasswd.yaml', `htpasswd: '${HTPASSWD}'\n`, recipient);
    const pull = await sopsEncrypt(
      'pull.yaml',
      `apiVersion: v1\nkind: Secret\nmetadata:\n  name: pull-secret\n  namespace: ${ns}\ntype: kubernetes.io/dockerconfigjson\nstringData:\n  .dockerconfigjson: '{"auths":{"registry.example.com":{"auth":"${PULL_AUTH}"}}}'\n`,
      recipient,
      ['--encrypted-regex', '^(data|stringData)$'],
    );
    const files = (h: string, p: string) => ({
      'platform/main.ts': MAIN,
      'secrets/htpasswd.sops.yaml': h,
      'secrets/pull.sops.yaml': p,
    });

    const repo = await platformRepo(`s${ns.slice(-6)}`);
    const logs = traceLogger();
    const agentCache = `${repo.repo.workDir}-cache`;
    const agent = await startAgent(
      agentOptions(cluster, repo, {
        log: logs.log,
        debounceMs: 50,
        decryptionSecret: 'sops-age',
        http: { host: '127.0.0.1', port: 0 },
      }),
    );
    try {
      const good = await repo.publish({ namespace: ns, items: { a: '1' } }, files(htpasswd, pull), 'good');
      await appliedRevision(cluster, good, 'the encrypted Secrets applied');
      type Live = {
        type: string;
        data: Record<string, string>;
        metadata: { annotations?: Record<string, string> };
      };
      const live = (name: string) => cluster.client.request<Live>('GET', `${secretsApi}/${name}`);
      const idp = await live('htpass-secret');
      expect(Buffer.from(idp.data.htpasswd!, 'base64').toString()).toBe(HTPASSWD);
      expect(idp.metadata.annotations).toMatchObject({
        'groundwork.io/sops-file': 'secrets/htpasswd.sops.yaml',
      });
      expect(idp.metadata.annotations?.['groundwork.io/sops']).toBeUndefined();
      const ps = await live('pull-secret');
      expect(ps.type).toBe('kubernetes.io/dockerconfigjson');
      expect(Buffer.from(ps.data['.dockerconfigjson']!, 'base64').toString()).toContain(PULL_AUTH);

      // Drift on a decrypted Secret: found by comparing (values tagged, never printed) and healed.
      await cluster.client.request('PATCH', `${secretsApi}/htpass-secret`, {
        body: { data: { htpasswd: Buffer.from(LIVE_EDIT).toString('base64') } },
        contentType: 'application/merge-patch+json',
      });
      await eventually(
        async () =>
          Buffer.from((await live('htpass-secret')).data.htpasswd!, 'base64').toString() === HTPASSWD
            ? true
            : undefined,
        30_000,
        'the edited Secret healed',
      );

      // A value swapped between files' keys: the MAC refuses it; nothing applied, nothing pruned.
      const tampered = parseDocument(htpasswd);
      tampered.set(
        'htpasswd',
        parseDocument(await sopsEncrypt('h2.yaml', `htpasswd: '${LIVE_EDIT}'\n`, recipient)).get('htpasswd'),
      );
      await repo.publish({ namespace: ns, items: { a: '2' } }, files(tampered.toString(), pull), 'tampered');
      const mac = await stalledOnSynth(cluster, 'Stalled on the tampered file');
      expect(mac.c.message).toContain('secrets/htpasswd.sops.yaml');
      expect(mac.c.message).toContain('does not verify');
      expect(mac.s.lastAppliedRevision).toBe(`main@sha1:${good}`);

      // A file for another key: named with both recipients.
      const foreign = await sopsEncrypt('h3.yaml', `htpasswd: '${HTPASSWD}'\n`, otherRecipient);
      await repo.publish({ namespace: ns, items: { a: '3' } }, files(foreign, pull), 'other key');
      const other = await eventually(
        async () => {
          const c = (await syncStatus(cluster))?.conditions?.find((x) => x.type === 'Stalled');
          return c?.message.includes(otherRecipient) ? c : undefined;
        },
        30_000,
        'Stalled on the file for another key',
      );
      expect(other.message).toContain(recipient);
      expect((await syncStatus(cluster))?.lastAppliedRevision).toBe(`main@sha1:${good}`);
      const cm = await cluster.client.request<{ data: Record<string, string> }>(
        'GET',
        `/api/v1/namespaces/${ns}/configmaps/a`,
      );
      expect(cm.data.value).toBe('1');
      expect(Buffer.from((await live('htpass-secret')).data.htpasswd!, 'base64').toString()).toBe(HTPASSWD);
      expect((await live('pull-secret')).type).toBe('kubernetes.io/dockerconfigjson');

      // The plaintext is nowhere else: status, Events, every ConfigMap of the namespace (inventory),
      // metrics, logs at every level, the agent's cache and the synth bundle cache on disk.
      const metrics = await (await fetch(`http://127.0.0.1:${agent.port}/metrics`)).text();
      expect(metrics).toContain('groundwork_');
      const outputs = {
        status: JSON.stringify(await syncStatus(cluster)),
        events: JSON.stringify(
          await cluster.client.request('GET', `/apis/events.k8s.io/v1/namespaces/${ns}/events`),
        ),
        coreEvents: JSON.stringify(await cluster.client.request('GET', `/api/v1/namespaces/${ns}/events`)),
        configMaps: JSON.stringify(
          await cluster.client.request('GET', `/api/v1/namespaces/${ns}/configmaps`),
        ),
        metrics,
        logs: logs.text(),
        agentCache: filesUnder(agentCache).join('\n'),
        bundleCache: filesUnder(process.env.GROUNDWORK_CACHE_DIR!).join('\n'),
      };
      expect(outputs.logs.length).toBeGreaterThan(1000);
      expect(outputs.events).toContain('htpass-secret'); // the drift was reported, by name
      for (const [where, text] of Object.entries(outputs))
        for (const value of PLANTED)
          expect({ where, found: text.includes(value) }).toEqual({ where, found: false });
    } finally {
      await agent.stop();
      await repo.stop();
    }
  });
});
