import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { startAgent } from '../../src/agent/start.js';
import { KubeClient } from '../../src/cluster/client.js';
import type { K8sObject } from '../../src/core/object.js';
import type { PolicyRule } from '../../src/install/rbac-rules.js';
import { memoryLogger, platformRepo } from '../harness/agent-repo.js';
import { agentOptions, appliedRevision } from '../harness/agent-run.js';
import { eventually, useCluster } from '../harness/cluster.js';
import { pageText } from '../harness/page-text.js';
import { bindRole, serviceAccountKubeconfig, serviceAccountToken } from '../harness/service-account.js';

/**
 * Issue 31, item 8: the agent's dashboard showed a reader allowed only to `get platformsyncs` the
 * ConfigMap values of a namespace it may not read. Against the real apiserver's authenticator and
 * RBAC authorizer, a real agent (`--dashboard`) that applied a real git revision into `team-a`, and
 * ServiceAccount tokens from the TokenRequest API: each reader sees on every page exactly what the
 * apiserver lets its token read (asked directly, as kubectl would), with planted values live, in
 * git and in an Event; Secret values reach nobody.
 */
const cluster = useCluster({ namespacePrefix: 'gw-sec-authz' });
const CM = 'planted-name-5d1e';
const PLANTED_GIT = 'planted-git-value-9a41c0';
const PLANTED_LIVE = 'planted-live-value-2b7e55';
const PLANTED_EVENT = 'planted-event-note-e3f1a8';
const PLANTED_SECRET = 'planted-secret-value-77c0d2';
const b64 = (s: string) => Buffer.from(s).toString('base64');

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await Promise.resolve(c()).catch(() => undefined);
});

const kubeconfigToken = z.object({
  users: z.array(z.object({ user: z.object({ token: z.string() }) })).min(1),
});

/** A ServiceAccount `name` in `ns`, bound to a Role per namespace with the given rules. */
async function account(ns: string, name: string, roles: Record<string, PolicyRule[]>): Promise<void> {
  await cluster.client.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
    body: { metadata: { name } },
  });
  for (const [namespace, rules] of Object.entries(roles))
    await bindRole(cluster.client, { namespace, name, rules, subjects: [{ namespace: ns, name }] });
}

/** The HTTP status the apiserver answers `path` with for this account's own token (what kubectl would get). */
async function statusAs(ns: string, name: string, path: string): Promise<number> {
  const client = await KubeClient.load({
    kubeconfig: await serviceAccountKubeconfig({
      admin: cluster.client,
      adminKubeconfig: cluster.kubeconfig,
      namespace: ns,
      name,
    }),
  });
  try {
    await client.request('GET', path, { noRetry: true });
    return 200;
  } catch (err) {
    return (err as { status?: number }).status ?? 0;
  }
}

describe("the agent's dashboard shows each reader what the apiserver would (issue 31, item 8)", () => {
  it('hides ConfigMap values (live, git, drift), Events and Secrets from readers who may not read them', async () => {
    const ns = cluster.namespace;
    const teamA = `${ns}-team-a`;
    await cluster.client.request('POST', '/api/v1/namespaces', { body: { metadata: { name: teamA } } });
    cleanups.push(() => cluster.client.request('DELETE', `/api/v1/namespaces/${teamA}`));
    const repo = await platformRepo(`z${ns.slice(-6)}`);
    cleanups.push(() => repo.stop());
    const sha = await repo.publish({
      namespace: teamA,
      items: { [CM]: PLANTED_GIT },
      secret: PLANTED_SECRET,
    });
    const logs = memoryLogger();
    const agent = await startAgent(
      agentOptions(cluster, repo, {
        mode: 'detect-only',
        log: logs.log,
        debounceMs: 50,
        http: { host: '127.0.0.1', port: 0 },
        dashboard: true,
      }),
    );
    cleanups.push(() => agent.stop());
    await appliedRevision(cluster, sha, 'first revision applied');

    // Out of band: the live value (drift), and an Event about the ConfigMap.
    const cmPath = `/api/v1/namespaces/${teamA}/configmaps/${CM}`;
    const cm = await cluster.client.request<K8sObject>('GET', cmPath);
    await cluster.client.request('PUT', cmPath, {
      body: { ...cm, data: { value: PLANTED_LIVE } },
      query: { fieldManager: 'kubectl-edit' },
    });
    const now = new Date().toISOString();
    await cluster.client.request('POST', `/api/v1/namespaces/${teamA}/events`, {
      body: {
        metadata: { name: `${CM}.planted` },
        involvedObject: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          name: CM,
          namespace: teamA,
          uid: cm.metadata.uid,
        },
        reason: 'Planted',
        message: PLANTED_EVENT,
        type: 'Normal',
        count: 1,
        firstTimestamp: now,
        lastTimestamp: now,
        source: { component: 'planter' },
      },
    });

    const psync = [{ apiGroups: ['groundwork.io'], resources: ['platformsyncs'], verbs: ['get'] }];
    await account(ns, 'narrow', { [ns]: psync });
    await account(ns, 'cm-reader', {
      [ns]: psync,
      [teamA]: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
    });
    // What kubectl would answer each of them (and the ground truth this test holds the pages to).
    const eventsPath = `/api/v1/namespaces/${teamA}/events`;
    const secretPath = `/api/v1/namespaces/${teamA}/secrets/creds`;
    expect(await statusAs(ns, 'narrow', cmPath)).toBe(403);
    expect(await statusAs(ns, 'narrow', eventsPath)).toBe(403);
    expect(await statusAs(ns, 'cm-reader', cmPath)).toBe(200);
    expect(await statusAs(ns, 'cm-reader', eventsPath)).toBe(403);
    expect(await statusAs(ns, 'cm-reader', secretPath)).toBe(403);

    const tokens = {
      admin: kubeconfigToken.parse(parse(readFileSync(cluster.kubeconfig, 'utf8'))).users[0]!.user.token,
      narrow: await serviceAccountToken(cluster.client, ns, 'narrow', 600),
      cmReader: await serviceAccountToken(cluster.client, ns, 'cm-reader', 600),
    };
    const seen: string[] = [];
    const get = async (who: keyof typeof tokens, path: string) => {
      const res = await fetch(`http://127.0.0.1:${agent.port}${path}`, {
        headers: { authorization: `Bearer ${tokens[who]}` },
      });
      const body = await res.text();
      seen.push(body);
      return { status: res.status, body, text: pageText(body) };
    };
    const cmPage = `/objects/${encodeURIComponent(`${teamA}_${CM}__ConfigMap`)}`;
    const secretPage = `/objects/${encodeURIComponent(`${teamA}_creds__Secret`)}`;

    // The administrator: everything, once the agent reported the drift and the page holds the Event.
    const adminCm = await eventually(
      async () => {
        const page = await get('admin', cmPage);
        return page.text.includes(PLANTED_EVENT) && page.text.includes(PLANTED_LIVE) ? page : undefined;
      },
      30_000,
      "the admin's object page with the live value and the Event",
    );
    expect(adminCm.text).toContain(PLANTED_GIT);
    const adminDrift = await eventually(
      async () => {
        const page = await get('admin', '/drift');
        return page.text.includes(`ConfigMap/${teamA}/${CM}`) ? page : undefined;
      },
      30_000,
      'the drift row',
    );
    expect(adminDrift.text).toContain(`"${PLANTED_GIT}" "${PLANTED_LIVE}"`);
    const adminObjects = await get('admin', '/objects');
    expect(adminObjects.text).toContain(CM);
    expect(adminObjects.text).not.toContain('hidden');
    expect((await get('admin', secretPage)).status).toBe(200);

    // Only `get platformsyncs`: the pages work, and show nothing of team-a but how much is hidden.
    for (const path of ['/', '/objects', '/drift', '/history']) {
      const page = await get('narrow', path);
      expect(page.status, path).toBe(200);
      for (const leak of [CM, PLANTED_GIT, PLANTED_LIVE, PLANTED_EVENT])
        expect(page.text, path).not.toContain(leak);
    }
    expect((await get('narrow', '/objects')).text).toContain(
      '2 managed object(s) hidden: your Kubernetes RBAC does not let you get them',
    );
    expect((await get('narrow', '/drift')).text).toMatch(
      /No drift you may see \(\d drifted object\(s\) hidden\)/,
    );
    // The Overview's counts leave them out too.
    expect((await get('narrow', '/')).text).not.toMatch(
      /(Degraded|Missing|Unknown|Progressing|Suspended|Healthy) [1-9]/,
    );
    expect((await get('admin', '/')).text).toMatch(/Healthy [1-9]/);
    const denied = await get('narrow', cmPage);
    const absent = await get('narrow', `/objects/${encodeURIComponent(`${teamA}_no-such__ConfigMap`)}`);
    expect(denied.status).toBe(404);
    expect(absent.status).toBe(404);
    expect(denied.text.replace(CM, 'X').replace(/As of \S+/, '')).toBe(
      absent.text.replace('no-such', 'X').replace(/As of \S+/, ''),
    );

    // `get configmaps` in team-a: the ConfigMap live, in git and in the drift; not its Events (no
    // `list events` there), not the Secret.
    const readerCm = await get('cmReader', cmPage);
    expect(readerCm.status).toBe(200);
    expect(readerCm.text).toContain(PLANTED_LIVE);
    expect(readerCm.text).toContain(PLANTED_GIT);
    expect(readerCm.text).not.toContain(PLANTED_EVENT);
    expect(readerCm.text).toMatch(/\d+ Event\(s\) hidden: your Kubernetes RBAC does not let you list events/);
    const readerDrift = await get('cmReader', '/drift');
    expect(readerDrift.text).toContain(`"${PLANTED_GIT}" "${PLANTED_LIVE}"`);
    expect(readerDrift.text).not.toContain(`Secret/${teamA}/creds`);
    const readerObjects = await get('cmReader', '/objects');
    expect(readerObjects.text).toContain(CM);
    expect(readerObjects.text).not.toContain('creds');
    expect(readerObjects.text).toContain('1 managed object(s) hidden');
    expect((await get('cmReader', secretPage)).status).toBe(404);

    // Secret values reach nobody, in any form.
    const leaked = [PLANTED_SECRET, b64(PLANTED_SECRET)].filter((v) => seen.some((page) => page.includes(v)));
    expect(leaked).toEqual([]);
    expect(logs.text()).not.toContain(PLANTED_SECRET);
  });
});
