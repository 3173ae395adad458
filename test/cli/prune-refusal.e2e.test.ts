import { afterAll, describe, expect, it } from 'vitest';
import { groundwork } from '../harness/cli.js';
import { useCluster } from '../harness/cluster.js';
import { platformRepo, type PlatformRepo } from '../harness/agent-repo.js';

const cluster = useCluster({ namespacePrefix: 'gw-cli-prune' });
const repos: PlatformRepo[] = [];

function run(args: string[], cwd: string) {
  return groundwork(args, { cwd, env: { KUBECONFIG: cluster.kubeconfig } });
}

afterAll(async () => Promise.all(repos.map((r) => r.stop())));

describe('a prune guard refusal through the CLI', () => {
  it('shows in plan, prints one summary line in apply, deletes nothing and exits 3', async () => {
    const ns = cluster.namespace;
    const repo = await platformRepo(`p${ns.slice(-6)}`);
    repos.push(repo);
    const dir = repo.repo.workDir;
    const items = Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((k) => [k, k]));
    await repo.publish({ namespace: ns, items }, {}, 'five');
    expect((await run(['apply', '--prune', '--no-wait'], dir)).code).toBe(0);

    // 4 of 5 leave git: 80% > the 30% guard.
    await repo.publish({ namespace: ns, items: { a: 'a' } }, {}, 'one');
    const plan = await run(['plan'], dir);
    expect(plan.code).toBe(1);
    expect(plan.stdout).toContain(
      'Prune would be refused (TooManyPrunes): would prune 4 of 5 inventory objects',
    );

    const apply = await run(['apply', '--prune', '--no-wait'], dir);
    expect(apply.code).toBe(3);
    const refusalLines = apply.stdout.split('\n').filter((l) => l.includes('TooManyPrunes'));
    expect(refusalLines).toHaveLength(1);
    expect(refusalLines[0]).toContain('4 object(s) kept');
    const left = await cluster.client.request<{ items: { metadata: { name: string } }[] }>(
      'GET',
      `/api/v1/namespaces/${ns}/configmaps`,
    );
    expect(
      left.items
        .map((c) => c.metadata.name)
        .filter((n) => n.length === 1)
        .sort(),
    ).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});
