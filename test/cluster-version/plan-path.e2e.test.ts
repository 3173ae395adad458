// `groundwork plan` shows the OpenShift update path and `groundwork apply` walks it, numbering each
// step against the whole path (issue 32 item 6): the real CLI, a real apiserver, the CVO simulator
// serving the real stable-4.8 and stable-4.9 update-graph responses, and the same responses committed
// to the platform repository under `graphs:`.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/cluster/client.js';
import { installClusterVersion } from '../../src/dev/simulators/cvo-install.js';
import { CvoSimulator } from '../../src/dev/simulators/cvo.js';
import { groundwork } from '../harness/cli.js';
import { auditOffset, auditedWrites, useCluster, useDedicatedControlPlane } from '../harness/cluster.js';
import { fixturePath } from '../harness/fixtures.js';
import { platformDir } from '../harness/platform-dir.js';
import { fixtureUpdateService } from '../dev/simulators/helpers.js';

// A control plane of its own: the audit log tells which writes the CLI made.
const dedicated = useDedicatedControlPlane();
const cluster = useCluster({ namespacePrefix: 'gw-cv-plan', controlPlane: dedicated });
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

/** A ClusterVersion `name` installed at 4.8.2 on stable-4.9, reconciled by the CVO simulator. */
async function installed(name: string): Promise<void> {
  const client = await KubeClient.load({ kubeconfig: cluster.kubeconfig, userAgent: 'openshift-simulators' });
  const updateService = fixtureUpdateService('stable-4.8.json', 'stable-4.9.json');
  await installClusterVersion(client, { name, version: '4.8.2', channel: 'stable-4.9', updateService });
  const cvo = new CvoSimulator(client, { name, updateService, updateTicks: 2 });
  cvo.start(100);
  stops.push(async () => {
    await cvo.stop();
    client.close();
  });
}

/** A platform repository whose overlay `dev` sets the target version of ClusterVersion `name`. */
function repository(name: string, version: string): string {
  const main = `import { ClusterVersionTarget, Platform, definePlatform, z } from 'groundwork-gitops';

export default definePlatform({
  values: z.object({ version: z.string(), accept: z.array(z.string()).optional() }),
  build(scope, v) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.9' });
    new ClusterVersionTarget(platform, 'version', {
      name: '${name}', channel: 'stable-4.9', version: v.version, acceptedRisks: v.accept,
    });
  },
});
`;
  const graph = (f: string) => readFileSync(fixturePath(`update-graphs/${f}`), 'utf8');
  return platformDir(main, {
    name: name.replace(/[^a-z0-9-]/g, '-'),
    files: {
      'groundwork.yaml': `name: ${name}\nentry: platform/main.ts\noverlays: overlays\ngraphs:\n  - graphs/stable-4.8.json\n  - graphs/stable-4.9.json\n`,
      'overlays/dev.yaml': `version: ${version}\n`,
      'graphs/stable-4.8.json': graph('stable-4.8.json'),
      'graphs/stable-4.9.json': graph('stable-4.9.json'),
    },
  });
}

const env = () => ({ KUBECONFIG: cluster.kubeconfig });

describe('the ClusterVersion path through plan and apply', () => {
  it('plan shows the two-step path; apply walks it as step 1/2 then step 2/2', async () => {
    const name = `cv-${cluster.namespace}`;
    await installed(name);
    const dir = repository(name, '4.9.53');

    const plan = await groundwork(['plan', '--dir', dir, '--overlay', 'dev'], { env: env() });
    expect(plan.code, plan.stderr).toBe(1);
    expect(plan.stdout).toContain(
      [
        `Upgrade path of ClusterVersion/${name} (runs 4.8.2, target 4.9.53):`,
        '  Update 4.8.2 -> 4.9.53 in 2 steps (channel stable-4.9):',
        '    1. 4.8.2 -> 4.8.54  patch',
        '    2. 4.8.54 -> 4.9.53  minor',
        `  planned over graphs/stable-4.8.json + graphs/stable-4.9.json + ClusterVersion/${name}`,
      ].join('\n'),
    );
    const json = await groundwork(['plan', '--dir', dir, '--overlay', 'dev', '-o', 'json'], { env: env() });
    const upgrade = (
      JSON.parse(json.stdout) as {
        upgradePaths: { path: { steps: { to: string }[] }; blockers: unknown[] }[];
      }
    ).upgradePaths;
    expect(upgrade.map((u) => u.path.steps.map((s) => s.to))).toEqual([['4.8.54', '4.9.53']]);
    expect(upgrade[0]!.blockers).toEqual([]);

    const apply = await groundwork(['apply', '--dir', dir, '--overlay', 'dev', '--timeout', '2m'], {
      env: env(),
    });
    expect(apply.code, apply.stderr).toBe(0);
    const first = apply.stderr.indexOf(`ClusterVersion/${name}: step 1/2 4.8.2 -> 4.8.54`);
    const second = apply.stderr.indexOf(`ClusterVersion/${name}: step 2/2 4.8.54 -> 4.9.53`);
    expect(first, apply.stderr).toBeGreaterThanOrEqual(0);
    expect(second, apply.stderr).toBeGreaterThan(first);
    expect(apply.stderr).not.toContain('step 1/1');

    const client = await KubeClient.load({ kubeconfig: cluster.kubeconfig });
    const cv = await client.request<{ status: { history: { version: string; state: string }[] } }>(
      'GET',
      `/apis/config.openshift.io/v1/clusterversions/${name}`,
    );
    client.close();
    expect(cv.status.history.map((h) => `${h.version} ${h.state}`)).toEqual([
      '4.9.53 Completed',
      '4.8.54 Completed',
      '4.8.2 Completed',
    ]);
  });

  it('a version that does not exist (4.9.99): plan says it blocks and why, apply refuses it before any write', async () => {
    const name = `cv-${cluster.namespace}`;
    await installed(name);
    const dir = repository(name, '4.9.99');

    const plan = await groundwork(['plan', '--dir', dir, '--overlay', 'dev'], { env: env() });
    expect(plan.stdout).toContain(
      '  blocked (UnknownVersion): 4.9.99 is not a published OpenShift release: it is in no channel of openshift/cincinnati-graph-data @ 731d0424 (2026-08-21), nor in graphs/stable-4.8.json, graphs/stable-4.9.json',
    );
    expect(plan.stderr).toContain(`ClusterVersion/${name}: apply would refuse target 4.9.99 (UnknownVersion`);

    const offset = auditOffset(dedicated.auditLog);
    const apply = await groundwork(['apply', '--dir', dir, '--overlay', 'dev', '--timeout', '1m'], {
      env: env(),
    });
    expect(apply.code).toBe(2);
    const said = apply.stdout + apply.stderr;
    expect(said).toContain(
      `nothing was applied: ClusterVersion/${name}: target 4.9.99 refused (UnknownVersion)`,
    );
    expect(said).toContain("acceptedRisks: ['UnknownVersion']");
    expect(auditedWrites(offset, 'groundwork', { log: dedicated.auditLog })).toEqual([]);

    // Accepted (say, a release newer than the snapshot), it no longer blocks: apply would walk
    // towards it as far as the update service offers.
    writeFileSync(join(dir, 'overlays', 'dev.yaml'), 'version: 4.9.99\naccept: [UnknownVersion]\n');
    const accepted = await groundwork(['plan', '--dir', dir, '--overlay', 'dev'], { env: env() });
    expect(accepted.stdout).toContain(
      '  accepted UnknownVersion: 4.9.99 is not a published OpenShift release',
    );
    expect(accepted.stdout).not.toContain('blocked (UnknownVersion)');
    expect(accepted.stderr).not.toContain('apply would refuse');
  });
});
