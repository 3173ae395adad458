// The agent reads its notification Secrets by name with the RBAC bootstrap gives it, and no others.
import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { startNotifications } from '../../src/agent/notifications.js';
import { agentRbac } from '../../src/install/rbac.js';
import type { KubeClient } from '../../src/cluster/client.js';
import { hasCode } from '../../src/core/errors.js';
import { GroundworkMetrics } from '../../src/report/metrics.js';
import type { HttpRequest, Transport } from '../../src/report/notifications/http-request.js';
import type { ProjectConfig } from '../../src/project/config.js';
import { notificationsSchema } from '../../src/project/notifications-config.js';
import { useCluster } from '../harness/cluster.js';
import { agentAccountClient } from '../harness/service-account.js';

const cluster = useCluster({ namespacePrefix: 'gw-notify-rbac' });
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

/** A client on a ServiceAccount token bound to the agent's Role with `notificationSecrets`. */
async function agentClient(ns: string, notificationSecrets: string[]): Promise<KubeClient> {
  const rules = agentRbac({
    objects: [],
    namespace: ns,
    inventory: { namespace: ns, name: 'inv' },
    notificationSecrets,
  }).namespaced.find((n) => n.namespace === ns)!.rules;
  const client = await agentAccountClient({
    admin: cluster.client,
    adminKubeconfig: cluster.kubeconfig,
    namespace: ns,
    rules,
  });
  cleanups.push(async () => client.close());
  return client;
}

async function secret(
  ns: string,
  name: string,
  data: Record<string, string>,
  labels: Record<string, string> = {},
) {
  await cluster.client.request('POST', `/api/v1/namespaces/${ns}/secrets`, {
    body: { apiVersion: 'v1', kind: 'Secret', metadata: { name, labels }, stringData: data },
  });
}

/** Records requests and answers 201 (stands in for the network only, never for the apiserver). */
function recording(): { transport: Transport; sent: HttpRequest[] } {
  const sent: HttpRequest[] = [];
  return { sent, transport: { send: async (r) => (sent.push(r), { status: 201 }) } };
}

const config = (secretName: string): ProjectConfig => ({
  name: 'shop',
  entry: 'platform/main.ts',
  overlays: 'overlays',
  defaultOverlay: 'test',
  catalogs: [],
  graphs: [],
  environments: [
    {
      name: 'staging',
      overlays: ['test'],
      ref: 'main',
      soak: '0s',
      soakMs: 0,
      windows: [],
      notifications: notificationsSchema.parse({
        secret: secretName,
        alerts: [{ name: 'ops', type: 'webhook', url: 'https://hooks.example.com/gw' }],
      }),
    },
  ],
});

const failed = {
  type: 'cycle-ended' as const,
  revision: `main@sha1:${'c'.repeat(40)}`,
  good: false,
  suspended: false,
  failure: { reason: 'ApplyFailed', message: 'x' },
  drift: [],
  mode: 'self-heal' as const,
};

describe('notification Secrets under the agent RBAC', () => {
  it('reads the forge token and the alert Secret named in its Role; the git credentials stay Forbidden', async () => {
    const ns = cluster.namespace;
    await secret(ns, 'forge-token', { token: 'forge-token-value' });
    await secret(ns, 'alerts', { 'hmac-key': 'k' }, { 'groundwork.io/notifications': 'true' });
    await secret(
      ns,
      'groundwork-git-credentials',
      { token: 'git-token-value' },
      { 'groundwork.io/notifications': 'true' },
    );
    const client = await agentClient(ns, ['forge-token', 'alerts']);
    const { transport, sent } = recording();
    const n = await startNotifications({
      client,
      namespace: ns,
      repoUrl: 'https://github.com/acme/platform.git',
      overlay: 'test',
      commitStatus: { secret: 'forge-token' },
      metrics: new GroundworkMetrics({ processMetrics: false }),
      log: pino({ level: 'silent' }),
      transport,
    });
    cleanups.push(() => n.close());
    await n.configure(config('alerts'));
    n.notify(failed);
    await n.close();
    expect(sent.map((r) => new URL(r.url).host).sort()).toEqual(['api.github.com', 'hooks.example.com']);
    expect(sent.find((r) => r.url.includes('api.github.com'))!.headers.Authorization).toBe(
      'Bearer forge-token-value',
    );

    // A groundwork.yaml pointing at the git credentials gets nothing: the Role names other Secrets.
    const err: unknown = await client
      .request('GET', `/api/v1/namespaces/${ns}/secrets/groundwork-git-credentials`)
      .catch((e: unknown) => e);
    expect(hasCode(err, 'Forbidden')).toBe(true);
    const lines: string[] = [];
    const log = pino({ level: 'warn' }, { write: (l: string) => void lines.push(l) });
    const other = recording();
    const m = await startNotifications({
      client,
      namespace: ns,
      repoUrl: 'https://github.com/acme/platform.git',
      overlay: 'test',
      metrics: new GroundworkMetrics({ processMetrics: false }),
      log,
      transport: other.transport,
    });
    await m.configure(config('groundwork-git-credentials'));
    m.notify(failed);
    await m.close();
    expect(other.sent).toEqual([]);
    expect(lines.join('')).toContain('alerts off');
    expect(lines.join('')).not.toContain('git-token-value');
  });

  it('without the names in its Role, the agent does not start commit statuses (Forbidden)', async () => {
    const ns = cluster.namespace;
    await secret(ns, 'forge-token', { token: 'forge-token-value' });
    const client = await agentClient(ns, []);
    const err: unknown = await startNotifications({
      client,
      namespace: ns,
      repoUrl: 'https://github.com/acme/platform.git',
      overlay: 'test',
      commitStatus: { secret: 'forge-token' },
      metrics: new GroundworkMetrics({ processMetrics: false }),
      log: pino({ level: 'silent' }),
    }).catch((e: unknown) => e);
    expect(hasCode(err, 'Forbidden')).toBe(true);
    expect(String(err)).not.toContain('forge-token-value');
  });
});
