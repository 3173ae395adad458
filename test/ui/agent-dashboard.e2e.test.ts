import { afterEach, describe, expect, it } from 'vitest';
import { AgentHttpServer } from '../../src/agent/http-server.js';
import { startAgentDashboard } from '../../src/ui/agent-dashboard.js';
import { useCluster } from '../harness/cluster.js';
import { bindRole, serviceAccountToken } from '../harness/service-account.js';

/**
 * The agent's dashboard behind TokenReview and SubjectAccessReview, against the real apiserver's
 * authenticator and RBAC authorizer: ServiceAccount tokens from the TokenRequest API, one allowed to
 * get PlatformSyncs in the namespace and one not.
 */
const cluster = useCluster({ namespacePrefix: 'gw-ui-agent' });
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await Promise.resolve(c()).catch(() => undefined);
});

/** A new ServiceAccount `name` in `ns` and a token of it. */
async function newAccountToken(ns: string, name: string): Promise<string> {
  await cluster.client.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
    body: { metadata: { name } },
  });
  return serviceAccountToken(cluster.client, ns, name, 600);
}

describe("the agent's dashboard (bearer token, TokenReview, SubjectAccessReview)", () => {
  it('serves readers allowed to get the PlatformSync, refuses others, and keeps /healthz and /metrics open', async () => {
    const ns = cluster.namespace;
    await bindRole(cluster.client, {
      namespace: ns,
      name: 'psync-reader',
      rules: [{ apiGroups: ['groundwork.io'], resources: ['platformsyncs'], verbs: ['get'] }],
      subjects: [{ namespace: ns, name: 'reader' }],
    });
    const reader = await newAccountToken(ns, 'reader');
    const stranger = await newAccountToken(ns, 'stranger');
    const dashboard = await startAgentDashboard({ client: cluster.client, namespace: ns });
    cleanups.push(() => dashboard.stop());
    const server = new AgentHttpServer({
      host: '127.0.0.1',
      port: 0,
      metrics: { text: () => Promise.resolve('# metrics\n'), contentType: 'text/plain' },
      ready: () => true,
      dashboard: dashboard.handler,
    });
    const { port } = await server.start();
    cleanups.push(() => server.close());
    const get = (path: string, headers: Record<string, string> = {}) =>
      fetch(`http://127.0.0.1:${port}${path}`, { headers });

    expect((await get('/')).status).toBe(401);
    expect((await get('/events')).status).toBe(401);
    expect((await get('/', { authorization: 'Bearer not-a-token' })).status).toBe(403);
    const refused = await get('/', { authorization: `Bearer ${stranger}` });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain(`system:serviceaccount:${ns}:stranger may not get platformsyncs`);
    const page = await get('/', { authorization: `Bearer ${reader}` });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await page.text()).toContain('<h1>Overview</h1>');
    // As OpenShift's oauth-proxy passes the user's token (--pass-access-token).
    expect((await get('/drift', { 'x-forwarded-access-token': reader })).status).toBe(200);
    // The agent's own endpoints stay as they were: no token asked.
    expect((await get('/healthz')).status).toBe(200);
    expect((await get('/metrics')).status).toBe(200);
    expect((await get('/nothing-here', { authorization: `Bearer ${reader}` })).status).toBe(404);
  });
});
