import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/cluster/client.js';
import { startGitServer, type GitServer } from '../../src/dev/git-server.js';
import type { PromotionResult } from '../../src/fleet/promotion.js';
import { ANNOTATIONS, HUB_API_VERSION, HUB_PATHS, LABELS, memberNamespace } from '../../src/hub/hub-names.js';
import type { MemberReport } from '../../src/hub/member-schema.js';
import { groundwork } from '../harness/cli.js';
import { createGitRepo, type GitRepo } from '../harness/git-repo.js';
import { installHubWithCli, removeHub } from '../harness/hub.js';
import { runControlPlane } from '../harness/run-control-plane.js';

// `groundwork promote --hub` on a real apiserver: the hub installed with `groundwork hub bootstrap`,
// the source environment's members played by FleetMember objects written as admin (their agents'
// side is hub-agent.e2e.test.ts), and the target ref a real repository on a git smart-HTTP server.

const TOKEN = 'promote-hub-s3cret';
const run = randomBytes(2).toString('hex');
const STAGING = `staging-${run}`;
const PROD = `prod-${run}`;
let admin: KubeClient;
let server: GitServer;
let repo: GitRepo;
let url: string;
let local: string;
let R: string;

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');

function report(over: Partial<MemberReport> = {}): MemberReport {
  return {
    sequence: 1,
    reportedAt: iso(Date.now()),
    platform: 'demo',
    overlay: 'staging',
    source: { url, ref: 'env/staging' },
    revision: { applied: `env/staging@sha1:${R}` },
    // Ready for two minutes: past staging's one-minute soak.
    ready: { status: 'True', reason: 'ReconciliationSucceeded', since: iso(Date.now() - 120_000) },
    health: { status: 'Healthy', reason: 'AllHealthy' },
    drift: { count: 0 },
    ...over,
  };
}

async function setMember(name: string, env: string, status: MemberReport, create = true) {
  const ns = memberNamespace(name);
  if (create) {
    await admin.request('POST', '/api/v1/namespaces', {
      body: {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: ns, labels: { [LABELS.member]: name } },
      },
    });
    await admin.request('POST', `/apis/${HUB_API_VERSION}/namespaces/${ns}/fleetmembers`, {
      body: {
        apiVersion: HUB_API_VERSION,
        kind: 'FleetMember',
        metadata: {
          name,
          namespace: ns,
          // The hub controller's verdict, written here as it would (no controller runs in this file).
          labels: { [LABELS.member]: name, [LABELS.reachability]: 'Reachable' },
          annotations: { [ANNOTATIONS.lastSeen]: iso(Date.now()) },
        },
        spec: { environment: env, leaseDurationSeconds: 3600 },
      },
    });
  }
  await admin.request('PATCH', `${HUB_PATHS.fleetMember(name)}/status`, {
    body: { status },
    contentType: 'application/merge-patch+json',
  });
}

async function promoteCli(...more: string[]) {
  const r = await groundwork(
    ['promote', PROD, '--dir', local, '--hub', runControlPlane().kubeconfig, '-o', 'json', ...more],
    { env: { GROUNDWORK_GIT_TOKEN: TOKEN }, timeoutMs: 120_000 },
  );
  let result: PromotionResult | undefined;
  try {
    result = JSON.parse(r.stdout) as PromotionResult;
  } catch {
    result = undefined;
  }
  return { ...r, result };
}

const branchHead = (branch: string) =>
  repo.git('ls-remote', 'origin', `refs/heads/${branch}`).split(/\s/)[0]!;

beforeAll(async () => {
  admin = await KubeClient.load({ kubeconfig: runControlPlane().kubeconfig });
  await installHubWithCli();
  const root = mkdtempSync(join(tmpdir(), 'gw-promote-hub-'));
  repo = createGitRepo({ root, name: 'platform' });
  server = await startGitServer({ root, auth: { token: TOKEN } });
  url = server.url(repo.path);
  repo.writeFiles({ 'README.md': 'one\n' });
  const first = repo.commit('first');
  repo.writeFiles({ 'README.md': 'two\n' });
  R = repo.commit('second');
  await repo.push();
  repo.git('push', '-q', 'origin', `${R}:refs/heads/env/staging`, `${first}:refs/heads/env/prod`);
  local = join(root, 'local');
  mkdirSync(local);
  writeFileSync(
    join(local, 'groundwork.yaml'),
    [
      'name: demo',
      'environments:',
      `  - { name: ${STAGING}, overlays: [staging], ref: env/staging, soak: 1m }`,
      `  - { name: ${PROD}, overlays: [prod], ref: env/prod, promotedFrom: ${STAGING} }`,
      '',
    ].join('\n'),
  );
}, 120_000);

afterAll(async () => {
  await server?.stop();
  if (admin) {
    await removeHub(admin);
    admin.close();
  }
});

describe('promote --hub', () => {
  it('refuses while a source member is Degraded (not when --selector leaves it out), and promotes once all are Ready and soaked', async () => {
    const m = (n: string) => `${n}-${run}`;
    await setMember(m('s1'), STAGING, report());
    await setMember(m('s2'), STAGING, report({ health: { status: 'Degraded', reason: 'PodsCrashing' } }));
    // A Degraded member of the target environment does not count for the source.
    await setMember(m('p1'), PROD, report({ health: { status: 'Degraded', reason: 'PodsCrashing' } }));

    const refused = await promoteCli();
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.result?.outcome).toBe('refused');
    const healthy = refused.result!.gates.find((g) => g.gate === 'Healthy')!;
    expect(healthy.failures).toEqual([
      { gate: 'Healthy', cluster: `${m('s2')} (staging)`, message: 'Degraded (PodsCrashing)' },
    ]);
    expect(refused.result!.clusters).toEqual([`${m('s1')} (staging)`, `${m('s2')} (staging)`]);
    expect(branchHead('env/prod')).not.toBe(R);

    // --selector: only the selected source members gate (the Degraded one is not selected).
    const selected = await promoteCli('--selector', `${LABELS.member}=${m('s1')}`, '--dry-run');
    expect(selected.code, selected.stderr).toBe(0);
    expect(selected.result?.outcome).toBe('would-promote');
    expect(selected.result!.clusters).toEqual([`${m('s1')} (staging)`]);
    expect(branchHead('env/prod')).not.toBe(R);

    await setMember(m('s2'), STAGING, report({ sequence: 2 }), false);
    const promoted = await promoteCli();
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(promoted.result).toMatchObject({ outcome: 'promoted', commit: R, repository: url });
    expect(branchHead('env/prod')).toBe(R);
  }, 120_000);
});
