// Issue 31, Low 17: an object named `..` sent its server-side apply to the Namespace's URL, because
// the URL parser resolves dot segments. Names become request paths only through `resourcePath`
// (valid names only), and the client refuses any dot segment before a request leaves.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/cluster/client.js';
import type { Discovery, ResourceInfo } from '../../src/cluster/discovery.js';
import { ssaPatch } from '../../src/cluster/ssa.js';
import { hasCode } from '../../src/core/errors.js';

const CONFIGMAPS: ResourceInfo = {
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  resource: 'configmaps',
  namespaced: true,
  verbs: ['patch'],
};
// Resolves every kind to ConfigMap: the server below only records where requests go.
const discovery = { resolve: async () => CONFIGMAPS } as unknown as Discovery;

let server: Server;
let client: KubeClient;
let dir: string;
const seen: string[] = [];

beforeAll(async () => {
  // A recorder, not an apiserver: it answers every request with an empty object, and the test
  // asserts which paths reached it.
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  dir = mkdtempSync(join(tmpdir(), 'gw-dotdot-'));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(
    kubeconfig,
    `apiVersion: v1
kind: Config
clusters: [{ name: c, cluster: { server: "http://127.0.0.1:${port}", insecure-skip-tls-verify: true } }]
users: [{ name: u, user: { token: t } }]
contexts: [{ name: c, context: { cluster: c, user: u } }]
current-context: c
`,
  );
  client = await KubeClient.load({ kubeconfig, retries: 1 });
});

afterAll(async () => {
  client?.close();
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  seen.length = 0;
});

const configMap = (name: string, namespace = 'team-a') => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace },
  data: { a: '1' },
});

describe('an object named ".." never reaches another URL', () => {
  it.each(['..', '.', 'a/b', '%2e%2e', '../../api/v1/namespaces/kube-system'])(
    'server-side apply of a ConfigMap named %j is refused before any request',
    async (name) => {
      const err = await ssaPatch(client, discovery, configMap(name)).catch((e: unknown) => e);
      expect(hasCode(err, 'InvalidObjectName'), String(err)).toBe(true);
      expect(seen).toEqual([]);
    },
  );

  it('a namespace ".." is refused too', async () => {
    const err = await ssaPatch(client, discovery, configMap('a', '..')).catch((e: unknown) => e);
    expect(hasCode(err, 'InvalidObjectName')).toBe(true);
    expect(seen).toEqual([]);
  });

  it.each([
    '/api/v1/namespaces/team-a/configmaps/..',
    '/api/v1/namespaces/team-a/configmaps/%2E%2e',
    '/api/v1/namespaces/../configmaps/a',
    '/api/v1/namespaces//configmaps/a',
  ])('a path built by hand, %s, is never sent', async (path) => {
    const err = await client.request('PATCH', path, { body: {} }).catch((e: unknown) => e);
    expect(hasCode(err, 'InvalidObjectName')).toBe(true);
    expect(seen).toEqual([]);
  });

  it('a valid name goes to its own URL', async () => {
    await ssaPatch(client, discovery, configMap('platform.info'));
    expect(seen).toEqual([
      'PATCH /api/v1/namespaces/team-a/configmaps/platform.info?fieldManager=groundwork',
    ]);
  });
});
