import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groundwork } from '../harness/cli.js';
import { platformRepo, type PlatformRepo } from '../harness/agent-repo.js';

// `bootstrap --print` only prints: it must not need a cluster. The repository is real (git over
// smart-HTTP); there is no kubeconfig anywhere: KUBECONFIG names a missing file, HOME is empty,
// and the process is not in a pod.
let repo: PlatformRepo;
const noKube = () => ({
  KUBECONFIG: join(tmpdir(), 'gw-no-such-kubeconfig'),
  HOME: mkdtempSync(join(tmpdir(), 'gw-home-')),
  KUBERNETES_SERVICE_HOST: '',
  GROUNDWORK_GIT_TOKEN: 'git-token-must-not-print',
});

beforeAll(async () => {
  repo = await platformRepo('printed');
  await repo.publish({ namespace: 'team-a', items: { a: '1' }, secret: 'platform-secret-value' });
}, 60_000);
afterAll(() => repo?.stop());

describe('bootstrap --print without a kubeconfig', () => {
  it('prints the agent objects, says what a plan without a cluster leaves out, and never the credentials', async () => {
    const r = await groundwork(['bootstrap', '--print', '--repo', repo.url, '--overlay', 'test'], {
      env: noKube(),
      timeoutMs: 170_000,
    });
    expect(r.stderr).not.toContain('error:');
    expect(r.code).toBe(0);
    const docs = parseAllDocuments(r.stdout).map((d) => d.toJS() as Record<string, unknown> | null);
    const objects = docs.filter(
      (d): d is { kind: string; metadata: { name: string; namespace?: string } } & Record<string, unknown> =>
        d !== null,
    );
    const kinds = objects.map((o) => o.kind);
    expect(kinds).toEqual(
      expect.arrayContaining([
        'CustomResourceDefinition',
        'Deployment',
        'PlatformSync',
        'ClusterRole',
        'Role',
      ]),
    );
    // RBAC from what git declares, with Kubernetes' plurals, in the platform's namespace.
    const role = objects.find((o) => o.kind === 'Role' && o.metadata.namespace === 'team-a') as
      { rules: { resources: string[] }[] } | undefined;
    expect(role?.rules.flatMap((rule) => rule.resources)).toEqual(
      expect.arrayContaining(['configmaps', 'secrets']),
    );
    expect(objects.some((o) => o.kind === 'Namespace' && o.metadata.name === 'team-a')).toBe(true);
    // No NetworkPolicy for the agent (its egress needs the cluster's addresses), and it says so, in
    // both places; the renderer pod's (no egress at all) needs none and is printed.
    expect(objects.filter((o) => o.kind === 'NetworkPolicy').map((o) => o.metadata.name)).toEqual([
      'groundwork-renderer',
    ]);
    // The renderer pod (issue 31): its Deployment and Service, and the agent sends renders there.
    expect(
      objects
        .filter((o) => o.metadata.name === 'groundwork-renderer')
        .map((o) => o.kind)
        .sort(),
    ).toEqual(['Deployment', 'NetworkPolicy', 'Service', 'ServiceAccount']);
    expect(r.stdout).toContain('--renderer');
    expect(r.stderr).toContain('note: Planned without a cluster');
    expect(r.stderr).toContain('No NetworkPolicy');
    expect(r.stdout).toMatch(/^# Planned without a cluster/);
    expect(r.stdout + r.stderr).not.toContain('git-token-must-not-print');
    expect(r.stdout + r.stderr).not.toContain('platform-secret-value');
  }, 180_000);

  it('refuses --hub-releases without --hub before reading anything', async () => {
    const r = await groundwork(
      ['bootstrap', '--print', '--repo', repo.url, '--overlay', 'test', '--hub-releases', 'required'],
      { env: noKube() },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--hub-releases');
    expect(r.stderr).toContain('no --hub is given');
  }, 60_000);

  it('an explicit --kubeconfig that does not exist is still an error', async () => {
    const r = await groundwork(
      [
        'bootstrap',
        '--print',
        '--repo',
        repo.url,
        '--overlay',
        'test',
        '--kubeconfig',
        join(tmpdir(), 'gw-missing'),
      ],
      { env: noKube() },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('kubeconfig file not found');
  }, 60_000);
});
