import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent } from '../../src/agent/start.js';
import { useCluster } from '../harness/cluster.js';
import { platformRepo, PLATFORM_MAIN } from '../harness/agent-repo.js';
import { agentOptions, appliedRevision, stalledOnSynth, syncStatus } from '../harness/agent-run.js';
import { startNpmRegistry, type NpmRegistry } from '../harness/npm-registry.js';

// The agent route of issue 21's libraries: a checkout has no node_modules, so the agent installs
// the repository's package-lock.json (npm ci from its registry, here a local one) and synth
// resolves the library from that install; a lockfile off the registry stops the cycle.
const cluster = useCluster({ namespacePrefix: 'gw-deps' });
const work = mkdtempSync(join(tmpdir(), 'gw-agent-deps-'));
let registry: NpmRegistry;
let files: Record<string, string>;

const withLibrary = PLATFORM_MAIN.replace(
  'import { ApiObject,',
  "import { label } from 'gw-label';\nimport { ApiObject,",
).replace(
  '    if (v.secret) {',
  "    new ApiObject(platform, 'lib', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'lib', namespace: v.namespace }, data: { label } });\n    if (v.secret) {",
);

beforeAll(async () => {
  const pkg = join(work, 'gw-label');
  mkdirSync(pkg);
  writeFileSync(
    join(pkg, 'package.json'),
    JSON.stringify({ name: 'gw-label', version: '1.0.0', type: 'module', main: 'index.js' }),
  );
  writeFileSync(join(pkg, 'index.js'), "export const label = 'from-the-lockfile';\n");
  registry = await startNpmRegistry([pkg]);
  const repo = join(work, 'lock');
  mkdirSync(repo);
  const packageJson = JSON.stringify({
    name: 'p',
    private: true,
    type: 'module',
    dependencies: { 'gw-label': '1.0.0' },
  });
  writeFileSync(join(repo, 'package.json'), packageJson);
  await promisify(execFile)(
    'npm',
    ['install', '--package-lock-only', '--ignore-scripts', `--registry=${registry.url}`, '--loglevel=error'],
    { cwd: repo, env: { ...process.env, npm_config_cache: join(work, 'npm-cache') } },
  );
  files = {
    'package.json': packageJson,
    'package-lock.json': readFileSync(join(repo, 'package-lock.json'), 'utf8'),
    'platform/main.ts': withLibrary,
  };
}, 120_000);

afterAll(() => registry?.close());

describe('the agent with a platform that has a package-lock.json', () => {
  it('installs it from its registry and applies; a lockfile off the registry stalls the cycle with nothing applied', async () => {
    const ns = cluster.namespace;
    const repo = await platformRepo(`d${ns.slice(-6)}`);
    const agent = await startAgent(
      agentOptions(cluster, repo, { npmRegistry: registry.url, debounceMs: 50 }),
    );
    try {
      const good = await repo.publish({ namespace: ns, items: { a: '1' } }, files, 'with a library');
      await appliedRevision(cluster, good, 'the revision with a library applied');
      const cm = (name: string) =>
        cluster.client.request<{ data: Record<string, string> }>(
          'GET',
          `/api/v1/namespaces/${ns}/configmaps/${name}`,
        );
      expect((await cm('lib')).data.label).toBe('from-the-lockfile');
      expect(registry.requests.some((r) => r.endsWith('.tgz'))).toBe(true);

      const lock = JSON.parse(files['package-lock.json']!) as {
        packages: Record<string, { resolved?: string }>;
      };
      lock.packages['node_modules/gw-label']!.resolved = 'https://evil.example/gw-label-1.0.0.tgz';
      await repo.publish(
        { namespace: ns, items: { a: '2' } },
        // package.json still lists the library (publish writes a bare one otherwise, and a platform
        // with no production dependency installs nothing, whatever its lockfile says).
        { ...files, 'package-lock.json': JSON.stringify(lock) },
        'lockfile off the registry',
      );
      const stalled = await stalledOnSynth(cluster, 'Stalled on the lockfile off the registry');
      expect(stalled.c.message).toContain('resolves outside the registry (host evil.example)');
      expect((await syncStatus(cluster))?.lastAppliedRevision).toBe(`main@sha1:${good}`);
      expect((await cm('a')).data.value).toBe('1');
    } finally {
      await agent.stop();
      await repo.stop();
    }
  });
});
