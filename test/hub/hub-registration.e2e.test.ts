import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../src/cluster/api-error.js';
import { KubeClient } from '../../src/cluster/client.js';
import { memberKubeconfig, parseBootstrapKubeconfig } from '../../src/hub/bootstrap-kubeconfig.js';
import { HubMember } from '../../src/hub/hub-member.js';
import { ANNOTATIONS, HUB_API_VERSION, HUB_NAMESPACE, HUB_PATHS, LABELS } from '../../src/hub/hub-names.js';
import { issueBootstrap } from '../../src/hub/hub-token.js';
import { MemberCredentialsStore } from '../../src/hub/member-credentials-store.js';
import { registerMember } from '../../src/hub/member-registration.js';
import { readFleetMember, REPORT_LIMITS } from '../../src/hub/member-schema.js';
import { memberRegistrationSchema } from '../../src/hub/registration-schema.js';
import { registrationName } from '../../src/hub/registration-token.js';
import { newRegistrationKey } from '../../src/hub/sealed-credentials.js';
import { TokenStore } from '../../src/hub/token-store.js';
import { groundwork } from '../harness/cli.js';
import { eventually, useCluster } from '../harness/cluster.js';
import { runControlPlane } from '../harness/run-control-plane.js';
import { installHubWithCli, removeHub, startHubController, stopProcess } from '../harness/hub.js';

// The run's real control plane acts as the hub: installed with installHub, the controller runs with
// its own ServiceAccount's rights (so the RBAC of hub-rbac.ts is what is exercised), and a member
// agent registers with a bootstrap kubeconfig from issueBootstrap, keeping its credentials in a
// namespace of the same control plane playing its own cluster.

const cluster = useCluster({ namespacePrefix: 'gw-hub-agent' });
const log = process.env.HUB_E2E_LOG
  ? {
      info: (o: object, m?: string) => console.log('info', m, o),
      warn: (o: object, m?: string) => console.log('warn', m, o),
    }
  : { info: () => undefined, warn: () => undefined };
const suffix = () => randomBytes(3).toString('hex');

let admin: KubeClient;
let hub: ChildProcess;

const fleetMember = async (name: string) =>
  readFleetMember(await admin.request('GET', HUB_PATHS.fleetMember(name), { schema: z.unknown() }));

async function bootstrapFile(member: string, labels: Record<string, string> = {}) {
  const issued = await issueBootstrap(admin, {
    namespace: HUB_NAMESPACE,
    member,
    labels,
    environment: 'prod',
    ttlSeconds: 900,
  });
  const file = join(mkdtempSync(join(tmpdir(), 'gw-hub-')), 'bootstrap.yaml');
  writeFileSync(file, issued.kubeconfig, { mode: 0o600 });
  return { file, issued, bootstrap: parseBootstrapKubeconfig(issued.kubeconfig, file) };
}

/** The registration's answer, once the controller wrote one. */
const answerOf = (name: string) =>
  eventually(
    async () =>
      (
        await admin.request('GET', HUB_PATHS.registration(HUB_NAMESPACE, name), {
          schema: memberRegistrationSchema,
        })
      ).status,
    30_000,
    `registration ${name} answered`,
  );

beforeAll(async () => {
  admin = await KubeClient.load({ kubeconfig: runControlPlane().kubeconfig });
  await installHubWithCli();
  hub = await startHubController(admin, Boolean(process.env.HUB_E2E_LOG));
}, 120_000);

afterAll(async () => {
  await stopProcess(hub);
  if (admin) {
    await removeHub(admin);
    admin.close();
  }
});

describe('the hub on a real apiserver', () => {
  it('registers a member with a one-time token, takes its report and heartbeat, refuses the token again', async () => {
    const name = `eu-${suffix()}`;
    const { file, bootstrap } = await bootstrapFile(name, { region: 'eu' });
    let skewMs = 0;
    const member = await HubMember.start({
      local: cluster.client,
      namespace: cluster.namespace,
      hub: file,
      log,
      agentVersion: '0.0.0-e2e',
      pacing: { debounceMs: 100, minIntervalMs: 500 },
      now: () => Date.now() + skewMs,
    });
    try {
      expect(member.member).toBe(name);
      // The hub set the member up from its token: labels, environment, its own namespace.
      const fm = await fleetMember(name);
      expect(fm.namespace).toBe(`member-${name}`);
      expect(fm.labels).toMatchObject({ region: 'eu', [LABELS.member]: name, [LABELS.environment]: 'prod' });
      expect(fm.spec).toMatchObject({ environment: 'prod', leaseDurationSeconds: 60 });
      // The answer in the registration is ciphertext only; the agent keeps its credentials at home.
      const answer = await answerOf(registrationName(bootstrap.token));
      expect(answer).toMatchObject({ phase: 'Accepted', member: name, namespace: `member-${name}` });
      expect(answer.credentials).toMatch(/^-----BEGIN AGE ENCRYPTED FILE-----/);
      const state = await new MemberCredentialsStore(cluster.client, cluster.namespace).read();
      expect(state).toMatchObject({ phase: 'registered', member: name, namespace: `member-${name}` });
      expect(answer.credentials).not.toContain(state?.phase === 'registered' ? state.token : 'x');

      // Its report lands in its FleetMember's status, written with the member's own credentials.
      member.report({ status: undefined, overlay: 'prod', platform: 'kubernetes' });
      await member.flush();
      const reported = await eventually(async () => (await fleetMember(name)).report, 10_000, 'the report');
      expect(reported).toMatchObject({
        sequence: 1,
        overlay: 'prod',
        platform: 'kubernetes',
        agentVersion: '0.0.0-e2e',
        ready: { status: 'Unknown', reason: 'NotReported' },
      });

      // Two thirds of its token's life later, the member renews it with its own rights, saves it at
      // home, and goes on reporting with the new one.
      expect(await member.renewTokenIfDue()).toBe(false);
      skewMs = 17 * 3_600_000;
      expect(await member.renewTokenIfDue()).toBe(true);
      const renewed = await new MemberCredentialsStore(cluster.client, cluster.namespace).read();
      expect(
        renewed?.phase === 'registered' && state?.phase === 'registered' && renewed.token !== state.token,
      ).toBe(true);
      member.report({ status: undefined, overlay: 'prod', platform: 'openshift' });
      await member.flush();
      expect((await fleetMember(name)).report).toMatchObject({ sequence: 2, platform: 'openshift' });

      // The heartbeat makes it Reachable, by the hub's clock.
      expect(member.heartbeats).toBeGreaterThanOrEqual(1);
      await eventually(
        async () =>
          (await fleetMember(name)).labels[LABELS.reachability] === 'Reachable' ? true : undefined,
        15_000,
        'Reachable',
      );

      // The same bootstrap again, from another agent: the token works once.
      const second = new MemberCredentialsStore(cluster.client, cluster.namespace);
      await expect(
        registerMember({ bootstrap, store: second, state: undefined, timeoutMs: 20_000 }),
      ).rejects.toMatchObject({
        code: 'HubRegistrationRefused',
      });
      // And once the first registration is cleaned up, a replay with a new key is refused by the hub.
      await admin.request('DELETE', HUB_PATHS.registration(HUB_NAMESPACE, registrationName(bootstrap.token)));
      await eventually(
        () =>
          admin
            .request('GET', HUB_PATHS.registration(HUB_NAMESPACE, registrationName(bootstrap.token)))
            .then(() => undefined)
            .catch((e: unknown) => (e instanceof ApiError && e.status === 404 ? true : undefined)),
        10_000,
        'registration deleted',
      );
      await expect(
        registerMember({ bootstrap, store: second, state: undefined, timeoutMs: 20_000 }),
      ).rejects.toMatchObject({
        code: 'HubRegistrationRefused',
        message: expect.stringContaining('TokenUsed'),
      });
    } finally {
      await member.stop();
    }

    // Heartbeats stop: Unreachable once a lease duration passes without one (10 s here).
    await admin.request('PATCH', HUB_PATHS.fleetMember(name), {
      body: { spec: { leaseDurationSeconds: 10 } },
      contentType: 'application/merge-patch+json',
    });
    const gone = await eventually(
      async () => {
        const fm = await fleetMember(name);
        return fm.labels[LABELS.reachability] === 'Unreachable' ? fm : undefined;
      },
      30_000,
      'Unreachable',
    );
    expect(gone.annotations[ANNOTATIONS.lastSeen]).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("refuses an expired, a forged and another member's token, each with its reason", async () => {
    const { issued } = await bootstrapFile(`us-${suffix()}`);
    const registrar = await KubeClient.fromKubeconfigText(issued.kubeconfig, { where: 'bootstrap' });
    const { recipient } = await newRegistrationKey();
    const create = (member: string, token: string) =>
      registrar.request('POST', HUB_PATHS.registrations(HUB_NAMESPACE), {
        body: {
          apiVersion: HUB_API_VERSION,
          kind: 'MemberRegistration',
          metadata: { name: registrationName(token) },
          spec: { member, token, recipient },
        },
        noRetry: true,
      });
    try {
      // Expired: the hub keeps it, but its time has passed.
      const expired = await new TokenStore(admin, HUB_NAMESPACE).create({
        member: 'late-1',
        labels: {},
        expiresAt: '2020-01-01T00:00:00Z',
      });
      await create('late-1', expired.token);
      expect(await answerOf(registrationName(expired.token))).toMatchObject({
        phase: 'Refused',
        reason: 'TokenExpired',
      });

      // Forged: a real token's id with another secret.
      const real = parseBootstrapKubeconfig(issued.kubeconfig, 'bootstrap');
      const forged = `${real.token.slice(0, 6)}.${'A'.repeat(43)}`;
      await create(real.member, forged);
      expect(await answerOf(registrationName(forged))).toMatchObject({
        phase: 'Refused',
        reason: 'TokenUnknown',
      });

      // Naming another member than the token is for: refused, and the token is not spent by it.
      await create('someone-else', real.token);
      expect(await answerOf(registrationName(real.token))).toMatchObject({
        phase: 'Refused',
        reason: 'MemberMismatch',
        member: 'someone-else',
      });
      await expect(
        admin
          .request('GET', HUB_PATHS.fleetMember('someone-else'))
          .catch((e: unknown) => (e as ApiError).status),
      ).resolves.toBe(404);
      // The registration credentials may do nothing else: no list, no Secret, no FleetMember.
      for (const path of [
        HUB_PATHS.registrations(HUB_NAMESPACE),
        `/api/v1/namespaces/${HUB_NAMESPACE}/secrets`,
        HUB_PATHS.fleetMembers,
      ])
        await expect(
          registrar.request('GET', path).catch((e: unknown) => (e as ApiError).status),
        ).resolves.toBe(403);
    } finally {
      registrar.close();
    }
  });

  it("confines a member's credentials to its own status and Lease, and the CRD refuses an oversized report", async () => {
    const names = [`a-${suffix()}`, `b-${suffix()}`];
    const clients: KubeClient[] = [];
    for (const name of names) {
      const home = `gw-hub-home-${suffix()}`;
      await admin.request('POST', '/api/v1/namespaces', { body: { metadata: { name: home } } });
      const { bootstrap } = await bootstrapFile(name);
      const state = await registerMember({
        bootstrap,
        store: new MemberCredentialsStore(admin, home),
        state: undefined,
        timeoutMs: 20_000,
      });
      clients.push(
        await KubeClient.fromKubeconfigText(
          memberKubeconfig(
            { server: state.server, ...(state.caData ? { caData: state.caData } : {}) },
            name,
            state.token,
          ),
          { where: `member ${name}` },
        ),
      );
      await admin.request('DELETE', `/api/v1/namespaces/${home}`);
    }
    const [a, b] = names as [string, string];
    const memberA = clients[0]!;
    const status = (code: Promise<unknown>) =>
      code.then(() => 200).catch((e: unknown) => (e as ApiError).status);
    const statusPatch = (value: unknown) => ({
      body: [{ op: 'add', path: '/status', value }],
      contentType: 'application/json-patch+json',
    });
    const report = {
      sequence: 1,
      reportedAt: '2026-11-28T03:00:00Z',
      overlay: 'prod',
      ready: { status: 'True', reason: 'Applied' },
    };
    try {
      // Its own status: yes.
      expect(
        await status(memberA.request('PATCH', `${HUB_PATHS.fleetMember(a)}/status`, statusPatch(report))),
      ).toBe(200);
      // The other member's object, status and Lease: no.
      expect(await status(memberA.request('GET', HUB_PATHS.fleetMember(b)))).toBe(403);
      expect(
        await status(memberA.request('PATCH', `${HUB_PATHS.fleetMember(b)}/status`, statusPatch(report))),
      ).toBe(403);
      expect(await status(memberA.request('GET', HUB_PATHS.lease(b)))).toBe(403);
      // Its own labels (the hub's reachability verdict) and spec (the hub's release): no.
      expect(
        await status(
          memberA.request('PATCH', HUB_PATHS.fleetMember(a), {
            body: { metadata: { labels: { [LABELS.reachability]: 'Reachable' } } },
            contentType: 'application/merge-patch+json',
          }),
        ),
      ).toBe(403);
      // Nothing else on the hub: Secrets of its own namespace, registrations, the member list.
      expect(await status(memberA.request('GET', `/api/v1/namespaces/member-${a}/secrets`))).toBe(403);
      expect(await status(memberA.request('GET', HUB_PATHS.registrations(HUB_NAMESPACE)))).toBe(403);
      expect(await status(memberA.request('GET', HUB_PATHS.fleetMembers))).toBe(403);
      // An oversized report: refused by the apiserver from the CRD's bounds, the stored one kept.
      const huge = {
        ...report,
        sequence: 2,
        ready: { ...report.ready, message: 'x'.repeat(REPORT_LIMITS.message + 1) },
      };
      expect(
        await status(memberA.request('PATCH', `${HUB_PATHS.fleetMember(a)}/status`, statusPatch(huge))),
      ).toBe(422);
      const tooManyDrifts = {
        ...report,
        sequence: 2,
        drift: {
          count: 99,
          items: Array.from({ length: 1000 }, (_, i) => ({ object: `ConfigMap/x${i}`, type: 'modified' })),
        },
      };
      expect(
        await status(
          memberA.request('PATCH', `${HUB_PATHS.fleetMember(a)}/status`, statusPatch(tooManyDrifts)),
        ),
      ).toBe(422);
      expect((await fleetMember(a)).report?.sequence).toBe(1);
    } finally {
      for (const c of clients) c.close();
    }
  });

  it('issues a bootstrap kubeconfig with `groundwork hub token create` that registers once', async () => {
    const name = `cli-${suffix()}`;
    const out = join(mkdtempSync(join(tmpdir(), 'gw-hub-')), 'bootstrap.yaml');
    const kubeconfig = runControlPlane().kubeconfig;
    const args = [
      'hub',
      'token',
      'create',
      '--member',
      name,
      '--labels',
      'region=eu,tier=canary',
      '--environment',
      'prod',
    ];
    const made = await groundwork([...args, '--ttl', '15m', '--out', out, '--kubeconfig', kubeconfig]);
    expect(made, made.stderr).toMatchObject({ code: 0, stdout: '' });
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const bootstrap = parseBootstrapKubeconfig(readFileSync(out, 'utf8'), out);
    expect(bootstrap.member).toBe(name);
    const home = `gw-hub-home-${suffix()}`;
    await admin.request('POST', '/api/v1/namespaces', { body: { metadata: { name: home } } });
    try {
      const store = new MemberCredentialsStore(admin, home);
      await registerMember({ bootstrap, store, state: undefined, timeoutMs: 20_000 });
      expect((await fleetMember(name)).labels).toMatchObject({
        region: 'eu',
        tier: 'canary',
        [LABELS.environment]: 'prod',
      });
    } finally {
      await admin.request('DELETE', `/api/v1/namespaces/${home}`);
    }
    // Flags checked before anything is written: a label under the hub's own prefix, a short ttl.
    const badLabel = await groundwork([
      'hub',
      'token',
      'create',
      '--member',
      name,
      '--labels',
      'hub.groundwork.io/reachability=Reachable',
      '--kubeconfig',
      kubeconfig,
    ]);
    expect(badLabel).toMatchObject({ code: 2, stdout: '' });
    expect(badLabel.stderr).toContain('--labels');
    const shortTtl = await groundwork([
      'hub',
      'token',
      'create',
      '--member',
      name,
      '--ttl',
      '1m',
      '--kubeconfig',
      kubeconfig,
    ]);
    expect(shortTtl).toMatchObject({ code: 2 });
    expect(shortTtl.stderr).toContain('--ttl');
  });
});
