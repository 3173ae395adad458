import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startAgent } from '../../src/agent/start.js';
import { useCluster } from '../harness/cluster.js';
import { memoryLogger, platformRepo, PLATFORM_MAIN } from '../harness/agent-repo.js';
import { agentOptions, appliedRevision, stalledOnSynth, syncStatus } from '../harness/agent-run.js';

// The secret where the red team found the agent's token: in the agent's environment (the bundler,
// started by this process, inherits it) and in a file outside any checkout. The synth bundle
// cache goes to a directory of this test, to be searched.
const SECRET = `gw-planted-${randomBytes(8).toString('hex')}`;
const saved = { token: process.env.GROUNDWORK_GIT_TOKEN, cache: process.env.GROUNDWORK_CACHE_DIR };
process.env.GROUNDWORK_GIT_TOKEN = SECRET;
process.env.GROUNDWORK_CACHE_DIR = mkdtempSync(join(tmpdir(), 'gw-agent-cache-'));
const OUTSIDE = mkdtempSync(join(tmpdir(), 'gw-outside-'));
writeFileSync(join(OUTSIDE, 'token.json'), JSON.stringify({ token: SECRET }));
afterAll(() => {
  for (const [key, value] of [
    ['GROUNDWORK_GIT_TOKEN', saved.token],
    ['GROUNDWORK_CACHE_DIR', saved.cache],
  ] as const)
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
});

const cluster = useCluster({ namespacePrefix: 'gw-outside' });

/** The agent test platform, plus a ConfigMap `loot` holding what it imported from outside. */
const stealing = PLATFORM_MAIN.replace(
  'import { ApiObject,',
  `import env from '/proc/self/environ' with { type: 'text' };\nimport file from '${OUTSIDE}/token.json';\nimport { ApiObject,`,
).replace(
  '    if (v.secret) {',
  "    new ApiObject(platform, 'loot', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'loot', namespace: v.namespace }, data: { env, file: JSON.stringify(file) } });\n    if (v.secret) {",
);

describe('the agent, given a commit whose platform imports files outside the checkout', () => {
  it('fails synth with the import named, keeps the previous revision, and shows the secret nowhere', async () => {
    expect(stealing).toContain("name: 'loot'");
    const ns = cluster.namespace;
    const repo = await platformRepo(`o${ns.slice(-6)}`);
    const logs = memoryLogger();
    const options = agentOptions(cluster, repo, { log: logs.log, debounceMs: 50 });
    const agent = await startAgent(options);
    try {
      const good = await repo.publish({ namespace: ns, items: { a: '1' } }, {}, 'good');
      await appliedRevision(cluster, good, 'the good revision applied');

      await repo.publish({ namespace: ns, items: { a: '2' } }, { 'platform/main.ts': stealing }, 'steal');
      const stalled = await stalledOnSynth(cluster, 'Stalled on the stealing commit');
      expect(stalled.c.message).toMatch(/ platform\/main\.ts:[12]: import '/);
      expect(stalled.c.message).toContain('outside the repository');
      expect(stalled.s?.lastAppliedRevision).toBe(`main@sha1:${good}`);
      const cm = (name: string) =>
        cluster.client.request<{ data: Record<string, string> }>(
          'GET',
          `/api/v1/namespaces/${ns}/configmaps/${name}`,
        );
      expect((await cm('a')).data.value).toBe('1');
      await expect(cm('loot')).rejects.toThrow();

      const events = JSON.stringify(
        await cluster.client.request('GET', `/apis/events.k8s.io/v1/namespaces/${ns}/events`),
      );
      const filesIn = (dir: string) =>
        readdirSync(dir, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => readFileSync(join(e.parentPath, e.name), 'latin1'));
      // The renderer's caches are the agent's trust domain's, under its cache directory.
      expect(filesIn(join(options.cacheDir!, 'render', 'agent', 'bundles')).length).toBeGreaterThan(0); // the good revision's bundle
      const cached = [...filesIn(process.env.GROUNDWORK_CACHE_DIR!), ...filesIn(options.cacheDir!)];
      for (const text of [JSON.stringify(await syncStatus(cluster)), events, logs.text(), ...cached])
        expect(text).not.toContain(SECRET);
    } finally {
      await agent.stop();
      await repo.stop();
    }
  });
});
