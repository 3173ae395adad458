// Issue 26, notifications with real parts: a real Gitea (built on first use from the Go module proxy,
// the run's shared one) as the forge, the agent on the real control plane, alerts to loopback receivers that verify the HMAC.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../../src/agent/start.js';
import { memoryLogger, PLATFORM_MAIN } from '../harness/agent-repo.js';
import { startAlertReceiver, type AlertReceiver } from '../harness/alert-receiver.js';
import { eventually, useCluster } from '../harness/cluster.js';
import { sharedGitea, type Gitea, type GiteaStatus } from '../harness/gitea.js';
import { createGitRepo, type GitRepo } from '../harness/git-repo.js';
import { TOOL_BUILD_TIMEOUT_MS } from '../harness/tools.js';

const cluster = useCluster({ namespacePrefix: 'gw-notify' });
const HMAC_KEY = 'alerts-hmac-key-0123456789abcdef';
const HOOK_SECRET = 'gitea-hook-secret-0123456789';
const CONTEXT = 'groundwork/staging/local';

let gitea: Gitea;
beforeAll(async () => {
  gitea = await sharedGitea();
}, TOOL_BUILD_TIMEOUT_MS);

/** The newest status of `sha` under the agent's context, once it is in `state`. */
function statusIn(repo: string, sha: string, state: string, what: string): Promise<GiteaStatus> {
  return eventually(
    async () => (await gitea.statuses(repo, sha)).find((s) => s.context === CONTEXT && s.status === state),
    60_000,
    `${what} (statuses now: ${sha})`,
  );
}

async function secret(name: string, data: Record<string, string>, labels: Record<string, string> = {}) {
  await cluster.client.request('POST', `/api/v1/namespaces/${cluster.namespace}/secrets`, {
    body: { apiVersion: 'v1', kind: 'Secret', metadata: { name, labels }, stringData: data },
  });
}

describe('notifications against a real Gitea', () => {
  let agent: RunningAgent | undefined;
  const receivers: AlertReceiver[] = [];
  afterAll(async () => {
    await agent?.stop();
    await Promise.all(receivers.map((r) => r.close()));
  });

  it('a push applied through a Gitea webhook shows green with the environment; a failing commit shows failure with the reason, alerts arrive signed, a hanging receiver does not hold a cycle, and the token shows nowhere', async () => {
    const ns = cluster.namespace;
    const name = `p${ns.slice(-6)}`;
    const remote = await gitea.createRepo(name);
    const ops = await startAlertReceiver(HMAC_KEY, 'ok');
    const hang = await startAlertReceiver(HMAC_KEY, 'hang');
    receivers.push(ops, hang);

    const work: GitRepo = createGitRepo({ root: mkdtempSync(join(tmpdir(), 'gw-notify-')), name });
    const groundworkYaml = [
      `name: ${name}`,
      'entry: platform/main.ts',
      'overlays: overlays',
      'defaultOverlay: test',
      'environments:',
      '  - name: staging',
      '    overlays: [test]',
      '    ref: main',
      '    notifications:',
      '      secret: gw-alerts',
      '      alerts:',
      '        - name: ops',
      '          type: webhook',
      `          url: ${ops.url}`,
      '        - name: stuck',
      '          type: webhook',
      `          url: ${hang.url}`,
      '          events: [ApplyFailed]',
      '',
    ].join('\n');
    const publish = async (values: Record<string, unknown>, message: string) => {
      work.writeFiles({
        'groundwork.yaml': groundworkYaml,
        'package.json': '{ "type": "module" }\n',
        'platform/main.ts': PLATFORM_MAIN,
        'overlays/test.yaml': JSON.stringify(values, null, 2),
      });
      const sha = work.commit(message);
      await work.push({ remote: remote.pushUrl });
      return sha;
    };
    const sha1 = await publish({ namespace: ns, items: { a: '1' } }, 'first');

    await secret('gitea-token', { token: gitea.token });
    await secret('gw-alerts', { 'hmac-key': HMAC_KEY }, { 'groundwork.io/notifications': 'true' });
    const logs = memoryLogger();
    agent = await startAgent({
      repository: { url: remote.cloneUrl, ref: { branch: 'main' } },
      overlay: 'test',
      mode: 'detect-only',
      // A minute between polls: within the test only the Gitea webhook starts a cycle.
      intervalMs: 60_000,
      namespace: ns,
      kubeconfig: cluster.kubeconfig,
      cacheDir: `${work.workDir}-cache`,
      http: { host: '127.0.0.1', port: 0 },
      webhookSecret: HOOK_SECRET,
      commitStatus: {
        secret: 'gitea-token',
        forge: 'gitea',
        dashboardUrl: 'https://dash.example.com/staging',
      },
      clusterName: 'local',
      log: logs.log,
      debounceMs: 50,
    });
    await gitea.addWebhook(name, `http://127.0.0.1:${agent.port}/webhook`, HOOK_SECRET);

    // 1. The first commit: applied, healthy, green under groundwork/staging/local.
    const green = await statusIn(name, sha1, 'success', 'a green status on the first commit');
    expect(green).toMatchObject({ context: CONTEXT, target_url: 'https://dash.example.com/staging' });
    expect(green.description).toContain('applied and healthy');
    const states1 = (await gitea.statuses(name, sha1))
      .filter((s) => s.context === CONTEXT)
      .map((s) => s.status);
    expect(states1).toContain('pending');

    // 2. A commit that fails validation, pushed: Gitea's webhook wakes the agent (the poll is a minute away).
    const cycles = agent.runner()!.cycles;
    const sha2 = await publish({ namespace: ns, items: { a: '2' }, approval: 'manual' }, 'broken');
    const red = await statusIn(name, sha2, 'failure', 'a failure status on the broken commit');
    expect(red.description).toMatch(/^SynthFailed: /);
    expect(agent.runner()!.cycles).toBeGreaterThan(cycles);
    expect(logs.text()).toContain('webhook push');
    // The first commit keeps its green status: the failure went to the commit that failed.
    expect((await gitea.statuses(name, sha1)).filter((s) => s.status === 'failure')).toEqual([]);

    // 3. The alert arrived at the webhook receiver, signed.
    const failedAlert = await eventually(
      async () => ops.received.find((r) => r.event === 'ApplyFailed'),
      30_000,
      'an ApplyFailed alert',
    );
    expect(failedAlert.verified).toBe(true);
    expect(failedAlert.body).toMatchObject({
      environment: 'staging',
      cluster: 'local',
      platform: name,
      reason: 'SynthFailed',
      revision: `main@sha1:${sha2}`,
    });

    // 4. The hanging receiver holds its delivery while cycles go on: a cycle completes meanwhile
    //    (the reconcile asked below), and nothing is counted failed yet.
    await eventually(
      async () => (hang.arrivals > 0 ? true : undefined),
      30_000,
      'the hanging receiver reached',
    );
    const before = agent.runner()!.cycles;
    agent.runner()!.trigger('webhook');
    await eventually(
      async () => (agent!.runner()!.cycles > before ? true : undefined),
      30_000,
      'a cycle while delivery hangs',
    );
    const metrics = await fetch(`http://127.0.0.1:${agent.port}/metrics`).then((r) => r.text());
    expect(metrics).not.toMatch(/groundwork_notification_failures_total\{target="stuck"[^}]*\} [1-9]/);
    expect(hang.received.every((r) => r.verified)).toBe(true);

    // 5. Drift in detect-only mode: an out-of-band edit gives a DriftDetected alert (none before it).
    expect(ops.received.map((r) => r.event)).not.toContain('DriftDetected');
    const seen = ops.received.length;
    await cluster.client.request('PATCH', `/api/v1/namespaces/${ns}/configmaps/a`, {
      body: { data: { value: 'edited by hand' } },
      contentType: 'application/merge-patch+json',
    });
    const drift = await eventually(
      async () => ops.received.slice(seen).find((r) => r.event === 'DriftDetected'),
      30_000,
      'a DriftDetected alert',
    );
    expect(drift.verified).toBe(true);
    expect(JSON.stringify(drift.body.objects)).toContain(`${ns}_a__ConfigMap (modified)`);

    // 6. The token is nowhere: logs, status, Events, Gitea's statuses, the alerts.
    const status = await cluster.client.request(
      'GET',
      `/apis/groundwork.io/v1alpha1/namespaces/${ns}/platformsyncs`,
    );
    const events = await cluster.client.request('GET', `/api/v1/namespaces/${ns}/events`);
    const everything = [
      logs.text(),
      JSON.stringify(status),
      JSON.stringify(events),
      JSON.stringify(await gitea.statuses(name, sha1)),
      JSON.stringify(await gitea.statuses(name, sha2)),
      JSON.stringify(ops.received),
      JSON.stringify(hang.received),
      metrics,
    ].join('\n');
    expect(everything).not.toContain(gitea.token);
    expect(everything).not.toContain(HMAC_KEY);
  });
});
