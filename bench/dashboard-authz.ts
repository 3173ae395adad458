// `npm run bench -- dashboard-authz [--sizes 5000] [--reps 7]`: what authorizing each reader costs the
// agent's dashboard on an Objects page of N managed objects (50 namespaces, ConfigMaps and
// Deployments), against a baseline in the same run: the same page with no authorization (as
// `groundwork ui` serves it). Real apiserver (TokenReview, SubjectAccessReview, RBAC), real HTTP;
// the objects are a snapshot in memory (reviews do not need them to exist). Readers: one bound to
// a ClusterRole that may get them everywhere, one with a Role in 10 of the 50 namespaces, one
// allowed only to get the PlatformSync. A cold load starts with empty caches (a new handler);
// a warm load follows it within the 30 s the answers are kept.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { KubeClient } from '../src/cluster/client.js';
import { LocalControlPlane } from '../src/dev/controlplane/control-plane.js';
import { dashboardHandler, type DashboardAuth, type DashboardReader } from '../src/ui/dashboard-handler.js';
import { reviewAuth } from '../src/ui/review-auth.js';
import type { DashboardSnapshot, ObjectRow } from '../src/ui/snapshot.js';
import { median, ratio } from './cli-table.js';

const NAMESPACES = 50;
const AGENT_NS = 'groundwork-bench';
/** Warm loads (and as many baseline loads) after each cold one. */
const WARM = 5;

/** A snapshot of `n` objects over `NAMESPACES` namespaces, half ConfigMaps, half Deployments. */
function source(n: number): DashboardReader {
  const objects: ObjectRow[] = Array.from({ length: n }, (_, i) => {
    const ref = {
      group: i % 2 ? 'apps' : '',
      kind: i % 2 ? 'Deployment' : 'ConfigMap',
      namespace: `bench-${Math.floor(i / 2) % NAMESPACES}`,
      name: `object-${i}`,
    };
    return {
      id: `${ref.namespace}_${ref.name}_${ref.group}_${ref.kind}`,
      ref,
      stage: 'resources',
      health: { status: 'Healthy', reason: 'Ready', message: '' },
    };
  });
  const snapshot: DashboardSnapshot = {
    at: new Date(),
    syncs: [],
    selected: undefined,
    objects,
    drift: [],
    openshift: {},
    problems: [],
  };
  return {
    snapshot: () => snapshot,
    detail: () => undefined,
    onChange: () => () => undefined,
    resourceOf: (group, kind) =>
      kind === 'ConfigMap' && group === ''
        ? { resource: 'configmaps', namespaced: true }
        : kind === 'Deployment' && group === 'apps'
          ? { resource: 'deployments', namespaced: true }
          : undefined,
  };
}

async function serve(reader: DashboardReader, auth: DashboardAuth): Promise<{ url: string; server: Server }> {
  const handle = dashboardHandler({ source: reader, auth });
  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** One GET of /objects: its wall time, and the POSTs (reviews) the apiserver received meanwhile. */
async function load(
  url: string,
  token: string,
  client: KubeClient,
): Promise<{ ms: number; reviews: number }> {
  const before = client.counts.POST ?? 0;
  const t0 = performance.now();
  const res = await fetch(`${url}/objects`, { headers: { authorization: `Bearer ${token}` } });
  await res.text();
  if (res.status !== 200) throw new Error(`/objects answered ${res.status}`);
  return { ms: performance.now() - t0, reviews: (client.counts.POST ?? 0) - before };
}

async function setUp(client: KubeClient): Promise<Record<string, string>> {
  const post = (path: string, body: object) => client.request('POST', path, { body }).catch(() => undefined);
  for (const ns of [AGENT_NS, ...Array.from({ length: NAMESPACES }, (_, i) => `bench-${i}`)])
    await post('/api/v1/namespaces', { metadata: { name: ns } });
  const rbac = '/apis/rbac.authorization.k8s.io/v1';
  const bind = (path: string, name: string, roleKind: string, role: string) =>
    post(path, {
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: roleKind, name: role },
      subjects: [{ kind: 'ServiceAccount', name, namespace: AGENT_NS }],
    });
  await post(`${rbac}/namespaces/${AGENT_NS}/roles`, {
    metadata: { name: 'psync' },
    rules: [{ apiGroups: ['groundwork.io'], resources: ['platformsyncs'], verbs: ['get'] }],
  });
  const tokens: Record<string, string> = {};
  for (const name of ['cluster-viewer', 'ten-namespaces', 'platformsync-only']) {
    await post(`/api/v1/namespaces/${AGENT_NS}/serviceaccounts`, { metadata: { name } });
    await bind(`${rbac}/namespaces/${AGENT_NS}/rolebindings`, name, 'Role', 'psync');
    const token = await client.request<{ status: { token: string } }>(
      'POST',
      `/api/v1/namespaces/${AGENT_NS}/serviceaccounts/${name}/token`,
      {
        body: {
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'TokenRequest',
          spec: { expirationSeconds: 3600 },
        },
      },
    );
    tokens[name] = token.status.token;
  }
  // Not the built-in `view`: its rules are aggregated by a controller the local control plane does not run.
  await post(`${rbac}/clusterroles`, {
    metadata: { name: 'groundwork-bench-viewer' },
    rules: [{ apiGroups: ['', 'apps'], resources: ['configmaps', 'deployments'], verbs: ['get', 'list'] }],
  });
  await bind(`${rbac}/clusterrolebindings`, 'cluster-viewer', 'ClusterRole', 'groundwork-bench-viewer');
  for (let i = 0; i < 10; i++) {
    await post(`${rbac}/namespaces/bench-${i}/roles`, {
      metadata: { name: 'reader' },
      rules: [{ apiGroups: ['', 'apps'], resources: ['configmaps', 'deployments'], verbs: ['get'] }],
    });
    await bind(`${rbac}/namespaces/bench-${i}/rolebindings`, 'ten-namespaces', 'Role', 'reader');
  }
  return tokens;
}

export async function benchDashboardAuthz(sizes: readonly number[] = [5000], reps = 7): Promise<string> {
  const cp = await LocalControlPlane.start();
  const client = await KubeClient.load({ kubeconfig: cp.info.kubeconfig });
  const lines = [
    '| objects | reader | rows shown | requests, cold load | cold load | warm load | no authorization | warm / none |',
    '|---|---|---|---|---|---|---|---|',
  ];
  try {
    const tokens = await setUp(client);
    for (const n of sizes) {
      const reader = source(n);
      const open: DashboardAuth = { check: () => Promise.resolve({ ok: true, reader: { key: 'bench' } }) };
      const baseline = await serve(reader, open);
      for (const [who, token] of Object.entries(tokens)) {
        const cold: { ms: number; reviews: number }[] = [];
        const warm: number[] = [];
        const none: number[] = [];
        let shown = 0;
        for (let r = 0; r < reps; r++) {
          // A new handler: empty token and permission caches.
          const authorized = await serve(
            reader,
            reviewAuth({ client, namespace: AGENT_NS, name: () => undefined }),
          );
          cold.push(await load(authorized.url, token, client));
          // Warm loads and the baseline in turn, so both see the same load.
          for (let w = 0; w < WARM; w++) {
            const w0 = performance.now();
            const page = await fetch(`${authorized.url}/objects`, {
              headers: { authorization: `Bearer ${token}` },
            });
            const text = await page.text();
            warm.push(performance.now() - w0);
            shown = Number(/(\d+) of \d+\s+objects/.exec(text.replace(/<[^>]*>/g, ' '))?.[1] ?? NaN);
            none.push((await load(baseline.url, token, client)).ms);
          }
          authorized.server.close();
        }
        const reviews = [...new Set(cold.map((c) => c.reviews))].join(', ');
        lines.push(
          `| ${n.toLocaleString('en')} | ${who} | ${shown.toLocaleString('en')} | ${reviews} | ${median(cold.map((c) => c.ms)).toFixed(0)} ms | ${median(warm).toFixed(0)} ms | ${median(none).toFixed(0)} ms | ${ratio(median(warm), median(none))} |`,
        );
      }
      baseline.server.close();
    }
  } finally {
    await cp.stop();
  }
  const [l1, l5] = loadavg();
  return `${lines.join('\n')}\n\nMedians of ${reps} cold loads and ${reps * WARM} warm and baseline loads; load average ${l1!.toFixed(2)} / ${l5!.toFixed(2)} (1 / 5 min) on ${availableParallelism()} cores. Requests: the TokenReview, the PlatformSync's SubjectAccessReview and the page's SubjectAccessReviews. Cold: new caches; warm: the next loads within the 30 s the answers are kept (no request).\n`;
}
