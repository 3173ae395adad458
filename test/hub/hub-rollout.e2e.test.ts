import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { KubeClient } from '../../src/cluster/client.js';
import {
  HUB_API_VERSION,
  HUB_NAMESPACE,
  HUB_PATHS,
  LABELS,
  memberNamespace,
} from '../../src/hub/hub-names.js';
import { readFleetMember, type MemberReport } from '../../src/hub/member-schema.js';
import { ROLLOUT_PATHS, readFleetRollout } from '../../src/hub/rollout-schema.js';
import { ApiError } from '../../src/cluster/api-error.js';
import { memberRoleBinding } from '../../src/hub/hub-rbac.js';
import { MEMBER_SERVICE_ACCOUNT } from '../../src/hub/hub-names.js';
import { groundwork } from '../harness/cli.js';
import { eventually } from '../harness/cluster.js';
import { installHubWithCli, removeHub, startHubController, stopProcess } from '../harness/hub.js';
import { runControlPlane } from '../harness/run-control-plane.js';
import { serviceAccountKubeconfig } from '../harness/service-account.js';

// Rollouts on a real apiserver: the hub installed with `groundwork hub bootstrap`, its controller
// `groundwork hub run` with its own ServiceAccount's rights, rollouts started and steered with the
// `groundwork fleet rollout` commands, and the members played by FleetMember objects whose reports
// are written here (their agents' side is hub-release.e2e.test.ts).

const SHA = randomBytes(20).toString('hex');
const run = randomBytes(2).toString('hex');
let admin: KubeClient;
let hub: ChildProcess;
let dir: string;

const GROUNDWORK_YAML = `name: demo
environments:
${['prod', 'stage', 'edge']
  .map(
    (env) => `  - name: ${env}-${run}
    overlays: [${env}]
    ref: env/${env}
    rollout:
      waves:
        - { name: canary, selector: { ring: canary } }
        - { name: mid, selector: { ring: mid } }
        - { name: rest }
      maxUnavailable: 100%
      progressDeadline: 10m
`,
  )
  .join('')}`;

async function addMember(name: string, env: string, labels: Record<string, string>, report: MemberReport) {
  const ns = memberNamespace(name);
  await admin.request('POST', '/api/v1/namespaces', {
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { [LABELS.member]: name } } },
  });
  await admin.request('POST', `/apis/${HUB_API_VERSION}/namespaces/${ns}/fleetmembers`, {
    body: {
      apiVersion: HUB_API_VERSION,
      kind: 'FleetMember',
      metadata: {
        name,
        namespace: ns,
        labels: { ...labels, [LABELS.member]: name, [LABELS.environment]: env },
      },
      // A lease long enough that the hub, which sees no heartbeat here, keeps them Unknown, not Unreachable.
      spec: { environment: env, leaseDurationSeconds: 3600 },
    },
  });
  await setReport(name, report);
}

let sequence = 0;
function report(commit: string, over: Partial<MemberReport> = {}): MemberReport {
  return {
    sequence: ++sequence,
    reportedAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    revision: { applied: `env/x@sha1:${commit}`, attempted: `env/x@sha1:${commit}` },
    ready: { status: 'True', reason: 'ReconciliationSucceeded' },
    health: { status: 'Healthy', reason: 'AllHealthy' },
    ...over,
  };
}
const OLD = '0'.repeat(40);

async function setReport(name: string, status: MemberReport) {
  await admin.request('PATCH', `${HUB_PATHS.fleetMember(name)}/status`, {
    body: { status },
    contentType: 'application/merge-patch+json',
  });
}

const fleetMember = async (name: string) =>
  readFleetMember(await admin.request('GET', HUB_PATHS.fleetMember(name), { schema: z.unknown() }));
const rolloutObject = async (name: string) =>
  readFleetRollout(
    await admin.request('GET', ROLLOUT_PATHS.one(HUB_NAMESPACE, name), { schema: z.unknown() }),
  );
const released = async (name: string) => (await fleetMember(name)).spec.release;
const memberState = async (rollout: string, member: string) =>
  (await rolloutObject(rollout)).status?.members?.find((m) => m.name === member);

const cli = (args: string[]) =>
  groundwork(['fleet', 'rollout', ...args, '--hub', runControlPlane().kubeconfig]);

async function start(env: string, changes?: string): Promise<string> {
  const started = await cli([
    'start',
    `${env}-${run}`,
    '--revision',
    SHA,
    '--dir',
    dir,
    '-o',
    'json',
    ...(changes ? ['--changes', changes] : []),
  ]);
  expect(started, started.stderr).toMatchObject({ code: 0 });
  return (JSON.parse(started.stdout) as { metadata: { name: string } }).metadata.name;
}

beforeAll(async () => {
  admin = await KubeClient.load({ kubeconfig: runControlPlane().kubeconfig });
  await installHubWithCli();
  hub = await startHubController(admin, Boolean(process.env.HUB_E2E_LOG));
  dir = mkdtempSync(join(tmpdir(), 'gw-rollout-'));
  writeFileSync(join(dir, 'groundwork.yaml'), GROUNDWORK_YAML);
}, 120_000);

afterAll(async () => {
  await stopProcess(hub);
  if (admin) {
    await removeHub(admin);
    admin.close();
  }
});

describe('fleet rollouts on a real hub', () => {
  it('rolls a MachineConfig revision through three waves, holding a member whose pool is updating', async () => {
    const env = `prod-${run}`;
    const m = (n: string) => `${n}-${run}`;
    const updating = report(OLD, {
      openshift: {
        pools: [
          { name: 'worker', machines: 3, updated: 1, ready: 1, degraded: 0, updating: true, paused: false },
        ],
      },
    });
    await addMember(m('can'), env, { ring: 'canary' }, report(OLD));
    await addMember(m('mid1'), env, { ring: 'mid' }, report(OLD));
    await addMember(m('mid2'), env, { ring: 'mid' }, report(OLD));
    await addMember(m('rest1'), env, {}, report(OLD));
    await addMember(m('pool'), env, {}, updating);
    const name = await start('prod', 'machine-config');

    // Wave 0: the canary only.
    const release = await eventually(() => released(m('can')), 20_000, 'the canary released');
    expect(release).toMatchObject({ revision: `env/prod@sha1:${SHA}`, rollout: name, wave: 0 });
    expect(await released(m('mid1'))).toBeUndefined();

    // The canary applies it: wave 1 gets it, wave 2 not yet.
    await setReport(m('can'), report(SHA));
    await eventually(() => released(m('mid2')), 20_000, 'wave 1 released');
    expect(await released(m('mid1'))).toMatchObject({ wave: 1 });
    expect(await released(m('rest1'))).toBeUndefined();

    // Wave 1 applies it: wave 2 gets it, except the member whose pool is rolling.
    await setReport(m('mid1'), report(SHA));
    await setReport(m('mid2'), report(SHA));
    await eventually(() => released(m('rest1')), 20_000, 'wave 2 released');
    // The controller writes the releases, then the rollout's status: read it once it says so.
    const held = await eventually(
      async () => {
        const state = await memberState(name, m('pool'));
        return state?.state === 'Held' ? state : undefined;
      },
      20_000,
      'the pool member held in the status',
    );
    expect(held).toMatchObject({ state: 'Held', reason: 'PoolUpdating' });
    expect(await released(m('pool'))).toBeUndefined();

    // The pool settles: released; once it applies, the rollout has succeeded.
    await setReport(
      m('pool'),
      report(OLD, {
        openshift: {
          pools: [
            {
              name: 'worker',
              machines: 3,
              updated: 3,
              ready: 3,
              degraded: 0,
              updating: false,
              paused: false,
            },
          ],
        },
      }),
    );
    await eventually(() => released(m('pool')), 20_000, 'the held member released');
    await setReport(m('rest1'), report(SHA));
    await setReport(m('pool'), report(SHA));
    await eventually(
      async () => ((await rolloutObject(name)).status?.phase === 'Succeeded' ? true : undefined),
      20_000,
      'Succeeded',
    );
    const status = await cli(['status', name]);
    expect(status.stdout).toContain('phase: Succeeded');
    expect(status.stdout).toMatch(/2\s+rest\s+Completed\s+2\s+2\s+0\s+0/);
  }, 120_000);

  it('halts on a failing canary before the next wave gets anything, and says so in an Event', async () => {
    const env = `stage-${run}`;
    const m = (n: string) => `${n}-${run}`;
    await addMember(m('scan'), env, { ring: 'canary' }, report(OLD));
    await addMember(m('smid'), env, { ring: 'mid' }, report(OLD));
    const name = await start('stage');
    await eventually(() => released(m('scan')), 20_000, 'the canary released');
    await setReport(
      m('scan'),
      report(SHA, {
        ready: { status: 'False', reason: 'HealthCheckFailed', message: 'Deployment/web Degraded' },
      }),
    );
    const halted = await eventually(
      async () => (await rolloutObject(name)).status?.halted,
      20_000,
      'the halt',
    );
    expect(halted).toMatchObject({ reason: 'CanaryFailed' });
    expect(await released(m('smid'))).toBeUndefined();
    const events = await admin.request('GET', `/api/v1/namespaces/${HUB_NAMESPACE}/events`, {
      query: { fieldSelector: `involvedObject.name=${name}` },
      schema: z.object({ items: z.array(z.object({ reason: z.string(), type: z.string() })) }),
    });
    expect(events.items).toContainEqual({ reason: 'RolloutHalted', type: 'Warning' });
    // A halt is for good.
    const resume = await cli(['resume', name]);
    expect(resume.code).not.toBe(0);
    expect(resume.stderr).toContain('a halt is never lifted');
  }, 60_000);

  it('pauses, resumes and aborts', async () => {
    const env = `edge-${run}`;
    const m = (n: string) => `${n}-${run}`;
    await addMember(m('ecan'), env, { ring: 'canary' }, report(OLD));
    await addMember(m('emid'), env, { ring: 'mid' }, report(OLD));
    await addMember(m('erest'), env, {}, report(OLD));
    const name = await start('edge');
    // A second rollout of the environment while this one is active is refused.
    const again = await cli(['start', env, '--revision', 'f'.repeat(40), '--dir', dir]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain(`rollout ${name} of ${SHA.slice(0, 12)} is still Progressing`);

    await eventually(() => released(m('ecan')), 20_000, 'the canary released');
    expect(await cli(['pause', name])).toMatchObject({ code: 0 });
    await setReport(m('ecan'), report(SHA));
    await eventually(
      async () => ((await memberState(name, m('emid')))?.reason === 'Paused' ? true : undefined),
      20_000,
      'the next wave waiting for the pause',
    );
    expect(await released(m('emid'))).toBeUndefined();
    expect((await rolloutObject(name)).status?.phase).toBe('Paused');

    expect(await cli(['resume', name])).toMatchObject({ code: 0 });
    await eventually(() => released(m('emid')), 20_000, 'released after resume');

    // Aborted while wave 1 applies: wave 1 finishing does not open wave 2.
    expect(await cli(['abort', name])).toMatchObject({ code: 0 });
    const aborted = await eventually(
      async () => {
        const r = await rolloutObject(name);
        return r.status?.phase === 'Aborted' ? r : undefined;
      },
      20_000,
      'Aborted',
    );
    await setReport(m('emid'), report(SHA));
    expect(aborted.status?.members?.find((x) => x.name === m('erest'))).toMatchObject({
      state: 'Pending',
      reason: 'Aborted',
    });
    expect(await released(m('erest'))).toBeUndefined();
    const json = await cli(['status', name, '-o', 'json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ kind: 'FleetRollout', spec: { aborted: true } });
  }, 60_000);

  // The security side of the new kind (test/security/hub-rollout-hostile.test.ts holds the rest):
  // a member's own credentials, with the RBAC the controller gives every member.
  it("a member's credentials cannot write FleetRollouts, its own release or another member", async () => {
    const env = `prod-${run}`;
    const me = `evil-${run}`;
    const other = `can-${run}`; // a member of the first test
    await addMember(me, env, {}, report(OLD));
    const ns = memberNamespace(me);
    await admin.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
      body: { metadata: { name: MEMBER_SERVICE_ACCOUNT } },
    });
    await admin.request('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`, {
      body: memberRoleBinding(ns),
    });
    const kubeconfig = await serviceAccountKubeconfig({
      admin,
      adminKubeconfig: runControlPlane().kubeconfig,
      namespace: ns,
      name: MEMBER_SERVICE_ACCOUNT,
    });
    const member = await KubeClient.load({ kubeconfig });
    const refused = async (method: 'POST' | 'PATCH' | 'GET', path: string, body?: unknown) => {
      const err = await member
        .request(method, path, {
          ...(body ? { body } : {}),
          ...(method === 'PATCH' ? { contentType: 'application/merge-patch+json' } : {}),
        })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(err, `${method} ${path}`).toBeInstanceOf(ApiError);
      expect([403, 404]).toContain((err as ApiError).status);
    };
    const release = {
      revision: `env/prod@sha1:${'e'.repeat(40)}`,
      rollout: 'mine',
      wave: 0,
      releasedAt: '2026-11-28T07:00:00Z',
    };
    try {
      const someRollout = (await rolloutObject(`prod-${run}-${SHA.slice(0, 12)}`)).name;
      await refused('POST', ROLLOUT_PATHS.list(HUB_NAMESPACE), {
        apiVersion: HUB_API_VERSION,
        kind: 'FleetRollout',
        metadata: { name: 'evil' },
        spec: {
          environment: env,
          ref: 'env/prod',
          revision: 'e'.repeat(40),
          waves: [{ name: 'all' }],
          maxUnavailable: '100%',
          maxFailures: '100%',
          bakeSeconds: 0,
          progressDeadlineSeconds: 60,
        },
      });
      await refused('GET', ROLLOUT_PATHS.list(HUB_NAMESPACE));
      await refused('PATCH', ROLLOUT_PATHS.one(HUB_NAMESPACE, someRollout), { spec: { aborted: true } });
      await refused('PATCH', ROLLOUT_PATHS.status(HUB_NAMESPACE, someRollout), {
        status: { phase: 'Succeeded' },
      });
      await refused('PATCH', HUB_PATHS.fleetMember(me), { spec: { release } });
      await refused('PATCH', HUB_PATHS.fleetMember(other), { spec: { release } });
      await refused('PATCH', `${HUB_PATHS.fleetMember(other)}/status`, { status: report(SHA) });
      // Its own status subresource takes its report and drops the rest: no release rides along.
      await member.request('PATCH', `${HUB_PATHS.fleetMember(me)}/status`, {
        body: { spec: { release }, status: report(OLD) },
        contentType: 'application/merge-patch+json',
      });
      expect(await released(me)).toBeUndefined();
      expect((await rolloutObject(someRollout)).spec.aborted).toBeUndefined();
    } finally {
      member.close();
    }
  }, 60_000);
});
