import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { groundwork } from '../harness/cli.js';
import { useCluster } from '../harness/cluster.js';
import { platformDir } from '../harness/platform-dir.js';

const cluster = useCluster({ namespacePrefix: 'gw-cli-oob' });

/** The test's Namespace (labelled), a ConfigMap, and with `fresh` a second ConfigMap. */
const MAIN = (ns: string) => `import { ApiObject, Platform, definePlatform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({ fresh: z.boolean().optional() }),
  build(scope, v) {
    const p = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new ApiObject(p, 'ns', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: '${ns}', labels: { team: 'a' } } });
    new ApiObject(p, 'edited', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'edited', namespace: '${ns}' }, data: { v: '1' } });
    if (v.fresh) new ApiObject(p, 'fresh', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fresh', namespace: '${ns}' }, data: { v: '1' } });
  },
});
`;

describe('apply and out-of-band edits', () => {
  it('restores a kubectl edit without --force-conflicts, applies the later stages past a conflict with a controller, and lists that conflict at the end', async () => {
    const ns = cluster.namespace;
    const dir = platformDir(MAIN(ns), { name: `oob-${ns.slice(-6)}` });
    const run = (args: string[]) =>
      groundwork([...args, '--dir', dir], { env: { KUBECONFIG: cluster.kubeconfig } });
    const first = await run(['apply', '--no-wait']);
    expect(first.stderr).not.toContain('error');
    expect(first.code).toBe(0);

    // A person's kubectl edit of a field git owns, and a controller taking a label git sets.
    const cm = `/api/v1/namespaces/${ns}/configmaps/edited`;
    await cluster.client.request('PATCH', cm, {
      body: { data: { v: 'by-hand' } },
      contentType: 'application/merge-patch+json',
      query: { fieldManager: 'kubectl-edit' },
    });
    await cluster.client.request('PATCH', `/api/v1/namespaces/${ns}`, {
      body: { metadata: { labels: { team: 'b' } } },
      contentType: 'application/merge-patch+json',
      query: { fieldManager: 'team-controller' },
    });

    const drift = await run(['drift']);
    expect(drift.code).toBe(1);
    expect(drift.stdout).toContain('kubectl-edit');
    expect(drift.stdout).toContain('(team-controller) need groundwork apply --force-conflicts');

    const plan = await run(['plan']);
    expect(plan.stdout).toMatch(/Namespace\/\S+ +update ! conflict with team-controller/);
    expect(plan.stdout).not.toMatch(/edited +update !/);

    // A new object in a later stage than the conflicting Namespace.
    writeFileSync(join(dir, 'overlays/dev.yaml'), '{ "fresh": true }\n');
    const apply = await run(['apply', '--no-wait']);
    expect(apply.code).toBe(2);
    const lines = apply.stdout.trimEnd().split('\n');
    const at = lines.indexOf(
      'conflicts remain (every other object was applied; --force-conflicts takes these fields):',
    );
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at + 1)).toEqual([
      expect.stringMatching(new RegExp(`^  Namespace/${ns}: field manager conflict on .*team-controller`)),
    ]);
    expect(apply.stdout).toMatch(
      /configured +ConfigMap\/\S+\/edited: restores 1 field\(s\) changed out of band by kubectl-edit/,
    );
    const edited = await cluster.client.request<{ data: { v: string } }>('GET', cm);
    expect(edited.data.v).toBe('1');
    const fresh = await cluster.client.request<{ data: { v: string } }>(
      'GET',
      `/api/v1/namespaces/${ns}/configmaps/fresh`,
    );
    expect(fresh.data.v).toBe('1');
    const namespace = await cluster.client.request<{ metadata: { labels: Record<string, string> } }>(
      'GET',
      `/api/v1/namespaces/${ns}`,
    );
    expect(namespace.metadata.labels.team).toBe('b');
  }, 120_000);
});
