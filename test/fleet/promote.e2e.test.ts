import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../../src/agent/start.js';
import { installCrds } from '../../src/cluster/crds.js';
import { KubeClient } from '../../src/cluster/client.js';
import { defaultCrdDirs } from '../../src/core/crd-dirs.js';
import { LocalControlPlane } from '../../src/dev/controlplane/control-plane.js';
import { readObjects } from '../../src/core/yaml-files.js';
import type { PromotionResult } from '../../src/fleet/promotion.js';
import { startGitServer, type GitServer } from '../../src/dev/git-server.js';
import { memoryLogger } from '../harness/agent-repo.js';
import { groundwork } from '../harness/cli.js';
import { eventually } from '../harness/cluster.js';
import { createGitRepo, type GitRepo } from '../harness/git-repo.js';

/**
 * A fleet of three local control planes (dev, staging, prod), each with its own pull-mode agent
 * following its environment's branch of one repository on a real git smart-HTTP server (with a
 * token). `groundwork promote` reads the clusters through their kube contexts and fast-forwards
 * the branches; the agents then apply what the promotion moved.
 */

const TOKEN = 'fleet-s3cret';
const ENVS = ['dev', 'staging', 'prod'] as const;
type Env = (typeof ENVS)[number];

const PLATFORM = `import { ApiObject, Platform, definePlatform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({ release: z.string(), degrade: z.boolean().default(false) }),
  build(scope, v) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new ApiObject(platform, 'ns', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'app' } });
    new ApiObject(platform, 'release', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'release', namespace: 'app' }, data: { release: v.release } });
    if (v.degrade) {
      // No node runs it: the deployment controller reports ProgressDeadlineExceeded after 1 s.
      new ApiObject(platform, 'api', {
        apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'api', namespace: 'app' },
        spec: { progressDeadlineSeconds: 1, replicas: 1, selector: { matchLabels: { app: 'api' } },
          template: { metadata: { labels: { app: 'api' } }, spec: { containers: [{ name: 'api', image: 'registry.invalid/api:1' }] } } },
      });
    }
  },
});
`;

function config(soak: { dev?: string; staging?: string } = {}): string {
  return [
    'name: fleet',
    'entry: platform/main.ts',
    'overlays: overlays',
    'environments:',
    '  - name: dev',
    '    overlays: [dev]',
    '    ref: main',
    `    soak: ${soak.dev ?? '0s'}`,
    '  - name: staging',
    '    overlays: [staging]',
    '    ref: env/staging',
    '    promotedFrom: dev',
    `    soak: ${soak.staging ?? '0s'}`,
    '  - name: prod',
    '    overlays: [prod]',
    '    ref: env/prod',
    '    promotedFrom: staging',
    '',
  ].join('\n');
}

const clusters = {} as Record<Env, LocalControlPlane>;
const clients = {} as Record<Env, KubeClient>;
const agents = {} as Record<Env, RunningAgent>;
let server: GitServer;
let repo: GitRepo;
let url: string;
let local: string;
let fleetFile: string;

/** Publishes overlay values on main (dev follows it); returns the commit. */
async function publish(
  values: Partial<Record<Env, { release: string; degrade?: boolean }>>,
  message: string,
) {
  repo.writeFiles({
    'groundwork.yaml': config(),
    'package.json': '{ "type": "module" }\n',
    'platform/main.ts': PLATFORM,
    ...Object.fromEntries(
      Object.entries(values).map(([env, v]) => [`overlays/${env}.yaml`, JSON.stringify(v)]),
    ),
  });
  const sha = repo.commit(message);
  await repo.push();
  return sha;
}

interface SyncStatus {
  conditions?: { type: string; status: string; reason: string; message: string }[];
  lastAppliedRevision?: string;
}

async function syncOf(env: Env): Promise<SyncStatus | undefined> {
  const list = await clients[env].request<{ items: { status?: SyncStatus }[] }>(
    'GET',
    '/apis/groundwork.io/v1alpha1/namespaces/groundwork-system/platformsyncs',
  );
  return list.items[0]?.status;
}

/** Waits until the environment's agent reports `commit` applied with Ready=`ready`. */
async function settled(env: Env, commit: string, ready: 'True' | 'False' = 'True') {
  // What a push's webhook does: the agent fetches now rather than at its next interval.
  agents[env]?.runner()?.trigger('webhook');
  return eventually(
    async () => {
      const s = await syncOf(env);
      const r = s?.conditions?.find((c) => c.type === 'Ready');
      return s?.lastAppliedRevision?.endsWith(commit) && r?.status === ready ? s : undefined;
    },
    90_000,
    `${env} at ${commit.slice(0, 8)} with Ready=${ready}`,
  );
}

/** Wall times of the CLI calls, written to $GROUNDWORK_FLEET_TIMINGS when set (docs/fleet.md's figures). */
const timings: { command: string; ms: number }[] = [];

async function promoteCli(env: string, ...more: string[]) {
  const started = performance.now();
  const r = await groundwork(['promote', env, '--dir', local, '--fleet', fleetFile, '-o', 'json', ...more], {
    env: { GROUNDWORK_GIT_TOKEN: TOKEN },
    timeoutMs: 180_000,
  });
  timings.push({
    command: `promote ${env} ${more.join(' ')}`.trim(),
    ms: Math.round(performance.now() - started),
  });
  let result: PromotionResult | undefined;
  try {
    result = JSON.parse(r.stdout) as PromotionResult;
  } catch {
    result = undefined;
  }
  return { ...r, result };
}

const failedGates = (r: PromotionResult | undefined) =>
  (r?.gates ?? []).filter((g) => !g.passed).map((g) => g.gate);

const branchHead = (branch: string) =>
  repo.git('ls-remote', 'origin', `refs/heads/${branch}`).split(/\s/)[0]!;

beforeAll(async () => {
  // Three control planes with only the controllers the test needs (Deployments for the Degraded case).
  const started = await Promise.all(
    ENVS.map(() => LocalControlPlane.start({ controllers: ['deployment', 'replicaset'] })),
  );
  const crds = (await Promise.all(defaultCrdDirs().map((d) => readObjects(d)))).flat();
  for (const [i, env] of ENVS.entries()) {
    clusters[env] = started[i]!;
    clients[env] = await KubeClient.load({ kubeconfig: started[i]!.info.kubeconfig, userAgent: 'fleet-e2e' });
    await installCrds(clients[env], crds);
    await clients[env].request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'groundwork-system' } },
    });
  }
  const root = mkdtempSync(join(tmpdir(), 'gw-fleet-'));
  repo = createGitRepo({ root, name: 'fleet' });
  server = await startGitServer({ root, auth: { token: TOKEN } });
  url = server.url(repo.path);
  const first = await publish(
    { dev: { release: 'r1' }, staging: { release: 'r1' }, prod: { release: 'r1' } },
    'first',
  );
  repo.git('push', '-q', 'origin', `${first}:refs/heads/env/staging`, `${first}:refs/heads/env/prod`);

  // The person running promote: a directory with groundwork.yaml, and a fleet file of contexts.
  local = join(root, 'local');
  mkdirSync(local);
  writeFileSync(join(local, 'groundwork.yaml'), config());
  fleetFile = join(root, 'fleet.yaml');
  writeFileSync(
    fleetFile,
    `clusters:\n${ENVS.map((e) => `  - name: ${e}-1\n    context: groundwork-local\n    kubeconfig: ${clusters[e].info.kubeconfig}\n`).join('')}`,
  );
  for (const env of ENVS) {
    agents[env] = await startAgent({
      repository: { url, ref: { branch: env === 'dev' ? 'main' : `env/${env}` } },
      overlay: env,
      mode: 'self-heal',
      // Pushes are announced as a webhook would (`settled`); the interval is the fallback poll.
      intervalMs: 3000,
      namespace: 'groundwork-system',
      kubeconfig: clusters[env].info.kubeconfig,
      cacheDir: join(root, `cache-${env}`),
      auth: { token: TOKEN },
      log: memoryLogger().log,
      debounceMs: 50,
    });
  }
  for (const env of ENVS) await settled(env, first);
}, 300_000);

afterAll(async () => {
  if (process.env.GROUNDWORK_FLEET_TIMINGS)
    writeFileSync(process.env.GROUNDWORK_FLEET_TIMINGS, JSON.stringify(timings, null, 2));
  for (const env of ENVS) await agents[env]?.stop().catch(() => undefined);
  for (const env of ENVS) clients[env]?.close();
  await server?.stop();
  await Promise.all(ENVS.map((e) => clusters[e]?.stop().catch(() => undefined)));
});

describe('promotion through git and the clusters themselves', () => {
  it('flows a healthy change dev -> staging -> prod, each step recorded in an annotated tag', async () => {
    const c2 = await publish(
      { dev: { release: 'r2' }, staging: { release: 'r2' }, prod: { release: 'r2' } },
      'r2',
    );
    await settled('dev', c2);
    // Staging and prod do not move on their own.
    expect(branchHead('env/staging')).not.toBe(c2);

    const toStaging = await promoteCli('staging');
    expect(toStaging.stderr).toBe('');
    expect(toStaging.code).toBe(0);
    expect(toStaging.result).toMatchObject({ outcome: 'promoted', commit: c2, ref: 'env/staging', ahead: 1 });
    repo.git('fetch', '-q', 'origin', '--tags');
    expect(branchHead('env/staging')).toBe(c2);
    await settled('staging', c2);

    const toProd = await promoteCli('prod');
    expect(toProd.code).toBe(0);
    expect(toProd.result).toMatchObject({ outcome: 'promoted', commit: c2, ref: 'env/prod' });
    await settled('prod', c2);
    const release = await clients.prod.request<{ data: { release: string } }>(
      'GET',
      '/api/v1/namespaces/app/configmaps/release',
    );
    expect(release.data.release).toBe('r2');

    // The history of every environment reads from the repository alone.
    repo.git('fetch', '-q', 'origin', '--tags');
    const tag = toProd.result!.tag!;
    const message = repo.git('tag', '-l', '--format=%(contents)', tag);
    expect(message).toContain(`Promote ${c2.slice(0, 12)} to prod (env/prod) from staging`);
    expect(message).toContain(
      'Groundwork-Gates-Passed: Reachable, Ready, Healthy, NoDrift, NoPendingWaits, SameRevision, Soaked, FastForward, Window',
    );
    expect(repo.git('rev-list', '-n', '1', tag).trim()).toBe(c2);
  });

  it('refuses a revision still inside its soak time, and says when it becomes promotable', async () => {
    const c3 = await publish(
      { dev: { release: 'r3' }, staging: { release: 'r3' }, prod: { release: 'r3' } },
      'r3',
    );
    await settled('dev', c3);
    const soaking = mkdtempSync(join(tmpdir(), 'gw-fleet-soak-'));
    writeFileSync(join(soaking, 'groundwork.yaml'), config({ dev: '1h' }));
    const r = await groundwork(['promote', 'staging', '--dir', soaking, '--fleet', fleetFile], {
      env: { GROUNDWORK_GIT_TOKEN: TOKEN },
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      // Ready for 45s, or 1m10s on a loaded machine (the CLI takes seconds to start).
      /FAIL Soaked\n\s+dev-1 \(dev\): Ready for (?:\d+m(?:\d+s)?|\d+s) of the 1h soak time of dev; promotable in \d+m/,
    );
    expect(r.stdout).toContain('refused: 1 gate failed');
    expect(branchHead('env/staging')).not.toBe(c3);
    // Without the soak, it goes.
    const ok = await promoteCli('staging');
    expect(ok.result?.outcome).toBe('promoted');
    await settled('staging', c3);
  });

  it('refuses a promotion that is not a fast-forward, even with --force', async () => {
    // A hotfix pushed straight to env/prod: prod's branch now has a commit staging never ran.
    const before = branchHead('env/prod');
    repo.git('checkout', '-q', '-b', 'hotfix', before);
    repo.writeFiles({ 'overlays/prod.yaml': JSON.stringify({ release: 'hotfix' }) });
    const hotfix = repo.commit('hotfix straight to prod');
    repo.git('push', '-q', 'origin', 'hotfix:refs/heads/env/prod');
    repo.git('checkout', '-q', 'main');
    repo.git('branch', '-q', '-D', 'hotfix');

    const r = await promoteCli('prod', '--force', '--reason', 'try anyway');
    expect(r.code).toBe(1);
    expect(failedGates(r.result)).toEqual(['FastForward']);
    expect(r.result!.gates.find((g) => g.gate === 'FastForward')!.failures[0]!.message).toContain(
      'merge env/prod into env/staging first',
    );
    expect(branchHead('env/prod')).toBe(hotfix);
    // Put prod's branch back where it was (what a person would do after merging the hotfix).
    repo.git('push', '-q', '--force', 'origin', `${before}:refs/heads/env/prod`);
  });

  it('blocks promotion to prod while staging is Degraded, naming the object; --force --reason goes past and records why', async () => {
    const c4 = await publish(
      { dev: { release: 'r4' }, staging: { release: 'r4', degrade: true }, prod: { release: 'r4' } },
      'r4: a Deployment in staging that never becomes available',
    );
    await settled('dev', c4);
    expect((await promoteCli('staging')).result?.outcome).toBe('promoted');
    await settled('staging', c4, 'False');

    const dry = await promoteCli('prod', '--dry-run');
    expect(dry.code).toBe(1);
    expect(failedGates(dry.result)).toContain('Healthy');
    const healthy = dry.result!.gates.find((g) => g.gate === 'Healthy')!.failures[0]!;
    expect(healthy.cluster).toBe('staging-1 (staging)');
    expect(healthy.message).toContain('Deployment/app/api');

    const forced = await promoteCli(
      'prod',
      '--force',
      '--reason',
      'r4 fixes a CVE; the api Deployment is known broken on staging',
    );
    expect(forced.code).toBe(0);
    expect(forced.result).toMatchObject({ outcome: 'promoted', commit: c4 });
    expect(forced.result!.forced!.gates).toEqual(expect.arrayContaining(['Ready', 'Healthy']));
    repo.git('fetch', '-q', 'origin', '--tags');
    const message = repo.git('tag', '-l', '--format=%(contents)', forced.result!.tag!);
    expect(message).toContain(
      'Groundwork-Force-Reason: r4 fixes a CVE; the api Deployment is known broken on staging',
    );
    expect(message).toMatch(/Groundwork-Gates-Forced: Ready, Healthy/);
  });

  it('shows every cluster in fleet status, and an unreachable one blocks promotion and shows as such', async () => {
    const started = performance.now();
    const status = await groundwork(['fleet', 'status', '--dir', local, '--fleet', fleetFile, '-o', 'json'], {
      env: { GROUNDWORK_GIT_TOKEN: TOKEN },
    });
    timings.push({ command: 'fleet status (3 clusters)', ms: Math.round(performance.now() - started) });
    expect(status.code).toBe(0);
    const rows = (
      JSON.parse(status.stdout) as {
        clusters: { cluster: string; environment?: string; ready: string; behind?: number }[];
      }
    ).clusters;
    expect(rows.map((r) => [r.cluster, r.environment])).toEqual([
      ['dev-1', 'dev'],
      ['prod-1', 'prod'],
      ['staging-1', 'staging'],
    ]);
    expect(rows.find((r) => r.cluster === 'dev-1')!.behind).toBe(0);

    await agents.staging.stop();
    await clusters.staging.stop();
    const r = await promoteCli('prod', '--cluster-timeout', '3s');
    expect(r.code).toBe(1);
    expect(failedGates(r.result)).toEqual(['Reachable']);
    const text = await groundwork(
      ['fleet', 'status', '--dir', local, '--fleet', fleetFile, '--cluster-timeout', '3s'],
      {
        env: { GROUNDWORK_GIT_TOKEN: TOKEN },
      },
    );
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/staging-1\s+-\s+-\s+-\s+-\s+Unreachable/);
  });
});
