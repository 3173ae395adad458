import { afterEach, describe, expect, it } from 'vitest';
import { AgentHttpServer } from '../../src/agent/http-server.js';
import { startAgentDashboard } from '../../src/ui/agent-dashboard.js';
import type { StreamLimitsOptions } from '../../src/ui/stream-limits.js';
import { useCluster } from '../harness/cluster.js';
import { bindRole, serviceAccountToken } from '../harness/service-account.js';

/**
 * Issue 31, item 16: one dashboard reader could hold all 100 event streams. Against the real
 * apiserver (TokenReview, SubjectAccessReview) and real HTTP: readers are ServiceAccounts allowed to
 * get the PlatformSync; each is capped on its own (429 with Retry-After), another reader still
 * connects, and the global cap still holds (503).
 */
const cluster = useCluster({ namespacePrefix: 'gw-sec-streams' });
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await Promise.resolve(c()).catch(() => undefined);
});

/** ServiceAccounts `names` allowed to get PlatformSyncs in the test's namespace, and a token of each. */
async function readers(...names: string[]): Promise<string[]> {
  const ns = cluster.namespace;
  await bindRole(cluster.client, {
    namespace: ns,
    name: 'psync-reader',
    rules: [{ apiGroups: ['groundwork.io'], resources: ['platformsyncs'], verbs: ['get'] }],
    subjects: names.map((name) => ({ namespace: ns, name })),
  });
  const tokens: string[] = [];
  for (const name of names) {
    await cluster.client.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
      body: { metadata: { name } },
    });
    tokens.push(await serviceAccountToken(cluster.client, ns, name, 600));
  }
  return tokens;
}

/** The agent's dashboard on a loopback port, and a way to open `/events` as a token's reader. */
async function dashboard(streams?: StreamLimitsOptions) {
  const d = await startAgentDashboard({
    client: cluster.client,
    namespace: cluster.namespace,
    ...(streams ? { streams } : {}),
  });
  cleanups.push(() => d.stop());
  const server = new AgentHttpServer({
    host: '127.0.0.1',
    port: 0,
    metrics: { text: () => Promise.resolve(''), contentType: 'text/plain' },
    ready: () => true,
    dashboard: d.handler,
  });
  const { port } = await server.start();
  cleanups.push(() => server.close());
  const open = async (token: string) => {
    const ctrl = new AbortController();
    const res = await fetch(`http://127.0.0.1:${port}/events`, {
      headers: { authorization: `Bearer ${token}` },
      signal: ctrl.signal,
    });
    const close = () => ctrl.abort();
    cleanups.push(close);
    return { res, close };
  };
  return { open };
}

describe('event streams are capped per reader (issue 31, item 16)', () => {
  it('a reader at its cap of 8 gets 429 with Retry-After, with any of its tokens; another reader connects', async () => {
    const [a, b] = await readers('reader-a', 'reader-b');
    const aAgain = await serviceAccountToken(cluster.client, cluster.namespace, 'reader-a', 600);
    const { open } = await dashboard();
    const mine = [];
    for (let i = 0; i < 8; i++) {
      const s = await open(a!);
      expect(s.res.status, `stream ${i + 1}`).toBe(200);
      mine.push(s);
    }
    for (const token of [a!, aAgain]) {
      const refused = await open(token);
      expect(refused.res.status).toBe(429);
      expect(refused.res.headers.get('retry-after')).toBe('30');
      expect(await refused.res.text()).toContain('at most 8 per reader');
    }
    const other = await open(b!);
    expect(other.res.status).toBe(200);
    expect(other.res.headers.get('content-type')).toContain('text/event-stream');

    // A closed stream frees its place (once the server sees the close).
    mine[0]!.close();
    let again = 0;
    for (let i = 0; i < 50 && again !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const s = await open(a!);
      again = s.res.status;
      if (again !== 200) s.close();
    }
    expect(again).toBe(200);
  });

  it('keeps the global cap: when every stream is taken, 503 with Retry-After', async () => {
    const [a, b, c] = await readers('reader-a', 'reader-b', 'reader-c');
    const { open } = await dashboard({ perReader: 3, total: 5 });
    for (let i = 0; i < 3; i++) expect((await open(a!)).res.status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await open(b!)).res.status).toBe(200);
    const full = await open(c!);
    expect(full.res.status).toBe(503);
    expect(full.res.headers.get('retry-after')).toBe('30');
    // Refused before the cap is looked at: no token, no stream, no place taken.
    expect((await fetch(full.res.url)).status).toBe(401);
  });
});
