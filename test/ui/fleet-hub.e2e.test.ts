import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/cluster/client.js';
import {
  HUB_API_VERSION,
  HUB_NAMESPACE,
  HUB_PATHS,
  LABELS,
  memberNamespace,
} from '../../src/hub/hub-names.js';
import type { MemberReport } from '../../src/hub/member-schema.js';
import { ROLLOUT_PATHS } from '../../src/hub/rollout-schema.js';
import { eventually } from '../harness/cluster.js';
import { installHubWithCli, removeHub, stopProcess } from '../harness/hub.js';
import { runControlPlane } from '../harness/run-control-plane.js';
import { startUi, type UiProcess } from '../harness/ui-process.js';

// `groundwork ui --hub`: the Fleet page drawn from the hub's watches. The hub is the run's control
// plane with the hub installed by the CLI; members and a rollout are written here as admin (no
// controller: the page only draws what the hub holds), the real `groundwork ui --hub` serves the
// page, fetched over HTTP.

const run = randomBytes(2).toString('hex');
const SHA = randomBytes(20).toString('hex');
const [canary, eu, us] = ['canary', 'eu', 'us'].map((n) => `ui-${n}-${run}`) as [string, string, string];
let admin: KubeClient;
let child: ChildProcess | undefined;
let ui: UiProcess;

function report(ready: 'True' | 'False', reason: string): MemberReport {
  return {
    sequence: Date.now(),
    reportedAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    revision: { applied: `env/prod@sha1:${SHA}` },
    ready: { status: ready, reason },
  };
}

async function setReport(name: string, status: MemberReport): Promise<void> {
  await admin.request('PATCH', `${HUB_PATHS.fleetMember(name)}/status`, {
    body: { status },
    contentType: 'application/merge-patch+json',
  });
}

async function addMember(name: string, labels: Record<string, string>): Promise<void> {
  const ns = memberNamespace(name);
  await admin.request('POST', '/api/v1/namespaces', {
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { [LABELS.member]: name } } },
  });
  await admin.request('POST', `/apis/${HUB_API_VERSION}/namespaces/${ns}/fleetmembers`, {
    body: {
      apiVersion: HUB_API_VERSION,
      kind: 'FleetMember',
      metadata: { name, namespace: ns, labels: { ...labels, [LABELS.member]: name } },
      spec: { environment: 'prod', leaseDurationSeconds: 3600 },
    },
  });
  await setReport(name, report('True', 'ReconciliationSucceeded'));
}

async function page(query = ''): Promise<string> {
  const token = ui.url.searchParams.get('token')!;
  const res = await fetch(new URL(`/fleet${query}`, ui.url), {
    headers: { authorization: `token ${token}` },
  });
  expect(res.status).toBe(200);
  return res.text();
}

beforeAll(async () => {
  const kubeconfig = runControlPlane().kubeconfig;
  admin = await KubeClient.load({ kubeconfig });
  await installHubWithCli();
  await addMember(canary, { ring: 'canary', region: 'eu' });
  await addMember(eu, { region: 'eu' });
  await addMember(us, { region: 'us' });
  const name = `prod-${run}`;
  await admin.request('POST', ROLLOUT_PATHS.list(HUB_NAMESPACE), {
    body: {
      apiVersion: HUB_API_VERSION,
      kind: 'FleetRollout',
      metadata: { name, namespace: HUB_NAMESPACE },
      spec: {
        environment: 'prod',
        ref: 'env/prod',
        revision: SHA,
        waves: [
          { name: 'canary', selector: [{ key: 'ring', value: 'canary' }] },
          { name: 'rest', percent: 100 },
        ],
        maxUnavailable: '1',
        maxFailures: '0',
        bakeSeconds: 0,
        progressDeadlineSeconds: 600,
      },
    },
  });
  await admin.request('PATCH', ROLLOUT_PATHS.status(HUB_NAMESPACE, name), {
    contentType: 'application/merge-patch+json',
    body: {
      status: {
        phase: 'Progressing',
        waves: [
          { name: 'canary', state: 'Completed', members: 1, succeeded: 1, failed: 0, held: 0 },
          { name: 'rest', state: 'Progressing', members: 2, succeeded: 0, failed: 0, held: 1 },
        ],
        members: [
          { name: canary, wave: 0, state: 'Succeeded' },
          { name: eu, wave: 1, state: 'Released' },
          { name: us, wave: 1, state: 'Held', reason: 'OutsideWindow', message: 'closed until 22:00 UTC' },
        ],
      },
    },
  });
  ui = await startUi(['--kubeconfig', kubeconfig, '--hub', kubeconfig], { track: (c) => (child = c) });
}, 120_000);

afterAll(async () => {
  await stopProcess(child);
  if (admin) {
    await removeHub(admin);
    admin.close();
  }
});

describe('groundwork ui --hub', () => {
  it('draws the rollout and the members filtered by label, and follows a member status change', async () => {
    const all = await page();
    expect(all).toMatch(new RegExp(`data-held="${us}">[\\s\\S]*?OutsideWindow: closed until 22:00 UTC`));
    expect(all).toContain(`data-rollout="prod-${run}"`);
    const filtered = await page('?selector=region%3Deu');
    expect(filtered).toContain(`data-member="${canary}"`);
    expect(filtered).toContain(`data-member="${eu}"`);
    expect(filtered).not.toContain(`data-member="${us}"`);
    expect(filtered).not.toContain('HealthDegraded');
    expect(await page('?selector=region%3D%3D%3D')).toContain('The selector is refused');

    await setReport(eu, report('False', 'HealthDegraded'));
    await eventually(
      async () => {
        expect(await page('?selector=region%3Deu')).toMatch(
          new RegExp(`data-member="${eu}">[\\s\\S]*?False[\\s\\S]*?HealthDegraded`),
        );
        return true;
      },
      20_000,
      'the member status change on the page',
    );
  });
});
