// Helm hooks as helm install runs them, on the real control plane: a pre-install Job hook (weight
// -5) and a ConfigMap hook (weight 0) before the chart's Deployment, each waited for; a
// pre-upgrade-only ConfigMap hook (weight -10) skipped on the first install, run on an upgrade. The control
// plane runs no Job controller (nor kubelet): the test writes the Job's status through the status
// subresource, as the Job controller would.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { groundwork, type CliResult } from '../../harness/cli.js';
import { auditedWrites, auditOffset, eventually, useCluster } from '../../harness/cluster.js';
import { platformDir } from '../../harness/platform-dir.js';
import { useTools } from '../../harness/tools.js';

useTools('helm');

const cluster = useCluster({ namespacePrefix: 'gw-hooks' });

function repo(ns: string): string {
  return platformDir(
    `import { ApiObject, definePlatform, HelmChart, Platform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({ image: z.string(), replicas: z.number(), extra: z.boolean() }),
  build(scope, values) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new HelmChart(platform, 'app', { chart: 'charts/hooked', namespace: '${ns}', values: { image: values.image, replicas: values.replicas } });
    if (values.extra) new ApiObject(platform, 'extra', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'extra', namespace: '${ns}' }, data: { a: 'b' } });
  },
});
`,
    {
      name: `hooks-${ns.slice(-6)}`,
      files: {
        'overlays/dev.yaml': 'image: migrate:v1\nreplicas: 1\nextra: true\n',
        'charts/hooked/Chart.yaml': 'apiVersion: v2\nname: hooked\nversion: 1.0.0\n',
        'charts/hooked/templates/migrate.yaml': `apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
  annotations:
    helm.sh/hook: pre-install,pre-upgrade
    helm.sh/hook-weight: "-5"
    helm.sh/hook-delete-policy: before-hook-creation,hook-succeeded
spec:
  backoffLimit: 0
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: migrate
          image: {{ .Values.image }}
`,
        'charts/hooked/templates/config.yaml': `apiVersion: v1
kind: ConfigMap
metadata:
  name: schema
  annotations:
    helm.sh/hook: pre-install,pre-upgrade
data:
  version: "1"
`,
        'charts/hooked/templates/upgraded.yaml': `apiVersion: v1
kind: ConfigMap
metadata:
  name: upgraded
  annotations:
    helm.sh/hook: pre-upgrade
    helm.sh/hook-weight: "-10"
data:
  image: {{ .Values.image }}
`,
        'charts/hooked/templates/app.yaml': `apiVersion: apps/v1
kind: Deployment
metadata:
  name: app
spec:
  replicas: {{ .Values.replicas }}
  selector: { matchLabels: { app: app } }
  template:
    metadata: { labels: { app: app } }
    spec:
      containers:
        - name: app
          image: app:v1
`,
      },
    },
  );
}

const JOB = (ns: string) => `/apis/batch/v1/namespaces/${ns}/jobs/migrate`;
const UPGRADED = (ns: string) => `/api/v1/namespaces/${ns}/configmaps/upgraded`;

/** Job status as the Job controller writes it when its one pod ended (`succeeded` or `failed`). */
async function finishJob(ns: string, outcome: 'succeeded' | 'failed'): Promise<void> {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const condition = (type: string, reason: string) => ({
    type,
    status: 'True',
    reason,
    message: reason,
    lastProbeTime: now,
    lastTransitionTime: now,
  });
  const status =
    outcome === 'succeeded'
      ? {
          startTime: now,
          completionTime: now,
          succeeded: 1,
          conditions: [
            condition('SuccessCriteriaMet', 'CompletionsReached'),
            condition('Complete', 'CompletionsReached'),
          ],
        }
      : {
          startTime: now,
          failed: 1,
          conditions: [
            condition('FailureTarget', 'BackoffLimitExceeded'),
            condition('Failed', 'BackoffLimitExceeded'),
          ],
        };
  await cluster.client.request('PATCH', `${JOB(ns)}/status`, {
    body: { status },
    contentType: 'application/merge-patch+json',
  });
}

const exists = (path: string) =>
  cluster.client.request('GET', path).then(
    () => true,
    (e: { status?: number }) => {
      if (e.status === 404) return false;
      throw e;
    },
  );

const uidOf = async (path: string) =>
  ((await cluster.client.request('GET', path)) as { metadata: { uid: string } }).metadata.uid;

/** The first write of each of `paths` among the CLI's writes since `offset`, in audit-log order. */
function writeOrder(offset: number, ns: string, paths: readonly string[]): string[] {
  const writes = auditedWrites(offset).filter((w) => w.uri.includes(`/namespaces/${ns}/`));
  const firsts = paths.map((p) => ({ p, at: writes.findIndex((w) => w.uri.split('?')[0] === p) }));
  return firsts
    .filter((f) => f.at >= 0)
    .sort((a, b) => a.at - b.at)
    .map((f) => f.p);
}

describe('Helm hooks on the real control plane', () => {
  it('applies the weight -5 Job, waits until it completes, then the weight 0 ConfigMap, then the Deployment; a second run re-runs nothing', async () => {
    const ns = cluster.namespace;
    const dir = repo(ns);
    const env = { KUBECONFIG: cluster.kubeconfig };
    const paths = [
      JOB(ns),
      `/api/v1/namespaces/${ns}/configmaps/schema`,
      `/apis/apps/v1/namespaces/${ns}/deployments/app`,
    ];
    const offset = auditOffset();
    let done: CliResult | undefined;
    const apply = groundwork(['apply', '--no-wait', '--dir', dir], { env, cwd: dir }).then((r) => (done = r));

    await eventually(async () => ((await exists(JOB(ns))) ? true : undefined), 120_000, 'the hook Job');
    // The apply waits on the Job: nothing after it is written while it runs.
    await new Promise((r) => setTimeout(r, 2000));
    expect(done).toBeUndefined();
    expect(await exists(paths[1]!)).toBe(false);
    expect(await exists(paths[2]!)).toBe(false);

    await finishJob(ns, 'succeeded');
    const result = await apply;
    expect(result.stdout + result.stderr).not.toMatch(/✖|stopped/);
    expect(result.code).toBe(0);
    expect(writeOrder(offset, ns, paths)).toEqual(paths);
    // The pre-upgrade-only hook does not run on the first install, as with helm install.
    expect(await exists(UPGRADED(ns))).toBe(false);

    // The Job that ran is not run again, and nothing is drift.
    const uid = await uidOf(JOB(ns));
    const plan = await groundwork(['plan', '--dir', dir, '-o', 'json'], { env, cwd: dir });
    expect(plan.code).toBe(0);
    const items = (JSON.parse(plan.stdout) as { items: { id: string; action: string; reason?: string }[] })
      .items;
    expect(items.filter((i) => i.action !== 'unchanged').map((i) => [i.id, i.action, i.reason])).toEqual([
      [`${ns}_upgraded__ConfigMap`, 'skip', 'HookPhase'],
    ]);
    expect(items.map((i) => i.id)).toContain(`${ns}_migrate_batch_Job`);
    const again = await groundwork(['apply', '--no-wait', '--dir', dir], { env, cwd: dir });
    expect(again.code).toBe(0);
    expect(await uidOf(JOB(ns))).toBe(uid);
    expect((await groundwork(['drift', '--dir', dir], { env, cwd: dir })).code).toBe(0);
  }, 240_000);

  it('a changed hook Job runs again; when it fails the apply stops naming the hook and the construct, and nothing is pruned', async () => {
    const ns = cluster.namespace;
    const dir = repo(ns);
    const env = { KUBECONFIG: cluster.kubeconfig };
    const first = groundwork(['apply', '--no-wait', '--prune', '--dir', dir], { env, cwd: dir });
    await eventually(async () => ((await exists(JOB(ns))) ? true : undefined), 120_000, 'the hook Job');
    await finishJob(ns, 'succeeded');
    expect((await first).code).toBe(0);
    const uid = await uidOf(JOB(ns));

    // A new image (the Job's template is immutable: re-created, so it runs again), one more
    // replica, and the extra ConfigMap left out of git.
    writeFileSync(join(dir, 'overlays/dev.yaml'), 'image: migrate:v2\nreplicas: 2\nextra: false\n');
    const second = groundwork(['apply', '--no-wait', '--prune', '--dir', dir], { env, cwd: dir });
    const rerun = await eventually(
      async () => {
        const job = (await cluster.client.request('GET', JOB(ns)).catch(() => undefined)) as
          { metadata: { uid: string } } | undefined;
        return job && job.metadata.uid !== uid ? job.metadata.uid : undefined;
      },
      120_000,
      'the re-created hook Job',
    );
    expect(rerun).not.toBe(uid);
    // An upgrade: the pre-upgrade-only hook (weight -10) ran before the Job.
    expect(await exists(UPGRADED(ns))).toBe(true);
    await finishJob(ns, 'failed');
    const failed = await second;
    expect(failed.code).toBe(2);
    expect(failed.stdout).toContain(
      `stopped: Job/${ns}/migrate (hook of platform/app, weight -5): the job failed (BackoffLimitExceeded)`,
    );
    expect(failed.stdout).toContain('nothing was pruned');
    expect(failed.stdout).toContain(`(fix: read its logs (kubectl logs -n ${ns} job/migrate)`);
    // Nothing after the hook: the Deployment keeps one replica, the extra ConfigMap is not pruned.
    const deployment = (await cluster.client.request(
      'GET',
      `/apis/apps/v1/namespaces/${ns}/deployments/app`,
    )) as { spec: { replicas: number } };
    expect(deployment.spec.replicas).toBe(1);
    expect(await exists(`/api/v1/namespaces/${ns}/configmaps/extra`)).toBe(true);

    // The failed Job stays (its logs readable) and fails the next apply too, without a re-run.
    const third = await groundwork(['apply', '--no-wait', '--prune', '--dir', dir, '-o', 'json'], {
      env,
      cwd: dir,
    });
    expect(third.code).toBe(2);
    expect((JSON.parse(third.stdout) as { error: { code: string } }).error.code).toBe('HookFailed');
    expect(await uidOf(JOB(ns))).toBe(rerun);
    expect(await exists(`/api/v1/namespaces/${ns}/configmaps/extra`)).toBe(true);
  }, 300_000);
});
