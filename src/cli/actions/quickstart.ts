import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { z } from 'zod';
import { ClusterSession } from '../../engine/reconcile.js';
import { startAgent } from '../../agent/start.js';
import { ClusterObserver } from '../../cluster/observer.js';
import { readClusterVersion } from '../../cluster-version/cluster-state.js';
import { k8sObjectSchema, objectSchema } from '../../core/cluster-object.js';
import type { K8sObject } from '../../core/object.js';
import { KubeClient } from '../../cluster/client.js';
import { installCrds } from '../../cluster/crds.js';
import { LocalControlPlane } from '../../controlplane/control-plane.js';
import { defaultCrdDirs, packageRoot } from '../../controlplane/crd-dirs.js';
import { describeRef, refOf } from '../../core/object-id.js';
import { readObjects } from '../../core/yaml-files.js';
import { assessHealth } from '../../health/index.js';
import { DriftReport } from '../../report/drift-report.js';
import { startGitServer } from '../../source/git-http-server.js';
import { SimulatedOpenShift } from '../../simulators/world.js';
import { terminalProgress } from '../progress.js';
import { runCommand } from '../run-command.js';
import type { SetExitCode } from '../commands/command-module.js';

/** The demo's ConfigMap, and the Events the agent writes about it, as read back. */
const configMapSchema = objectSchema.extend({ data: z.record(z.string(), z.string()) });
const eventListSchema = z.looseObject({
  items: z.array(
    z.looseObject({
      reason: z.string().optional(),
      note: z.string().optional(),
      regarding: z.looseObject({ name: z.string().optional() }).optional(),
    }),
  ),
});

export interface QuickstartFlags {
  overlay: string;
  keepRunning?: boolean;
  timeout: string;
}

/**
 * `groundwork quickstart`: the main job on the embedded default. A local control plane made to
 * look like OpenShift (OLM, the CVO and the MCO played by simulators), this repository served over
 * git smart-HTTP, and the agent reconciling the example platform from it; then one out-of-band
 * edit and the drift report. Every step says what it does.
 */
export async function runQuickstart(flags: QuickstartFlags, setExitCode: SetExitCode): Promise<void> {
  const out = (text = '') => process.stdout.write(`${text}\n`);
  const step = (n: number, title: string, detail: string) => out(`\n[${n}/6] ${title}\n      ${detail}`);
  const cleanup: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const c of cleanup.splice(0).reverse()) await c().catch(() => undefined);
  };
  try {
    out(
      'Groundwork quick start: the example platform in platform/ and overlays/, reconciled by the agent from git.',
    );

    step(
      1,
      'Local control plane',
      'a real kube-apiserver, etcd and kube-controller-manager on loopback (built once from the Go module proxy).',
    );
    const controlPlane = await LocalControlPlane.start({ progress: terminalProgress() });
    cleanup.push(() => controlPlane.stop());
    const admin = await KubeClient.load({ kubeconfig: controlPlane.info.kubeconfig });
    cleanup.push(async () => admin.close());
    const crds = await installCrds(
      admin,
      (await Promise.all(defaultCrdDirs().map((d) => readObjects(d)))).flat(),
    );
    out(
      `      ${controlPlane.info.server}, ${crds.length} CRDs (OLM, ClusterVersion, MachineConfig, Groundwork's PlatformSync).`,
    );
    out(
      '      OLM, the cluster-version operator and the machine-config operator are played by simulators (src/simulators):',
    );
    const world = await SimulatedOpenShift.start({
      kubeconfig: controlPlane.info.kubeconfig,
      communityCatalogs: [join(packageRoot, 'catalogs', 'community-operators')],
      intervalMs: 200,
      updateTicks: 2,
    });
    cleanup.push(() => world.stop());
    out(
      '      a fresh "OpenShift 4.14.38" with redhat-operators and community-operators catalogs, 33 ClusterOperators, master and worker pools.',
    );

    step(
      2,
      'Git server',
      "this repository's platform (groundwork.yaml, platform/, overlays/, catalogs/) committed to a bare repo, served over git smart-HTTP.",
    );
    const root = await mkdtemp(join(tmpdir(), 'groundwork-quickstart-'));
    cleanup.push(() => rm(root, { recursive: true, force: true }));
    await publishRepository(root);
    const git = await startGitServer({ root: join(root, 'served') });
    cleanup.push(() => git.stop());
    out(`      ${git.url('platform.git')} (branch main)`);

    step(
      3,
      'The agent',
      `fetches the repo, synthesizes overlay "${flags.overlay}" in a child process, plans and applies in stages, and keeps watching.`,
    );
    const agent = await startAgent({
      repository: { url: git.url('platform.git'), ref: { branch: 'main' } },
      overlay: flags.overlay,
      mode: 'self-heal',
      intervalMs: 1000,
      namespace: 'groundwork-system',
      kubeconfig: controlPlane.info.kubeconfig,
      cacheDir: join(root, 'agent-cache'),
      log: pino({ level: 'silent' }),
    });
    cleanup.push(() => agent.stop());
    const progress = terminalProgress();
    progress.start(
      'reconciling: Subscriptions → InstallPlans → CSVs → operands → MachineConfigs → cluster version steps',
    );
    const deadline = Date.now() + Number(flags.timeout) * 1000;
    let converged = false;
    while (Date.now() < deadline) {
      const runner = agent.runner();
      const state = runner?.agent.state;
      if (
        state?.lastGood &&
        !state.failure &&
        state.health?.status === 'Healthy' &&
        state.drift.length === 0 &&
        state.pending.length === 0 &&
        (await atTarget(
          admin,
          state.lastGood.synth.manifests.map((m) => m.object),
        ))
      ) {
        converged = true;
        break;
      }
      progress.update(
        `reconciling (${runner?.cycles ?? 0} cycles)${state?.failure ? `: ${state.failure.reason}: ${state.failure.message.slice(0, 120)}` : state?.health ? `: health ${state.health.status} (${state.health.reason})` : ''}`,
      );
      await new Promise((r) => setTimeout(r, 500));
    }
    const runner = agent.runner()!;
    const state = runner.agent.state;
    if (converged) progress.succeed(`converged at ${state.lastGood!.revision} in ${runner.cycles} cycles`);
    else progress.fail(`not converged within ${flags.timeout}s`);

    step(
      4,
      'What was applied, and its health',
      'every object of the platform, in apply order, with the verdict of its health check.',
    );
    const manifests = state.lastGood?.synth.manifests ?? [];
    const live = await runnerSessionFetch(
      admin,
      manifests.map((m) => m.object),
    );
    for (const m of manifests) {
      const obj = live.get(m.id);
      const v = obj ? assessHealth(obj) : { status: 'Missing', reason: 'NotFound', message: '' };
      out(
        `      ${m.stage.padEnd(16)} ${describeRef(refOf(m.object)).padEnd(62)} ${v.status.padEnd(11)} ${v.reason}`,
      );
    }
    const cv = live.get('_version_config.openshift.io_ClusterVersion') as
      { status?: { history?: { version: string }[] } } | undefined;
    if (cv?.status?.history)
      out(
        `      ClusterVersion history (newest first): ${cv.status.history.map((h) => h.version).join(' ← ')}`,
      );

    step(
      5,
      'Drift',
      "someone edits the ConfigMap platform-gitops/platform-info behind git's back (like `kubectl edit`).",
    );
    const path = '/api/v1/namespaces/platform-gitops/configmaps/platform-info';
    const before = await admin.request('GET', path, { schema: configMapSchema });
    await admin.request('PUT', path, {
      body: { ...before, data: { ...before.data, owner: 'someone-else' } },
      query: { fieldManager: 'kubectl-edit' },
    });
    const editedAt = Date.now();
    let report: DriftReport | undefined;
    while (Date.now() - editedAt < 10_000) {
      const drift = runner.agent.state.drift;
      const events = await admin.request('GET', '/apis/events.k8s.io/v1/namespaces/platform-gitops/events', {
        schema: eventListSchema,
      });
      const detected = events.items.find(
        (e) => e.reason === 'DriftDetected' && e.regarding?.name === 'platform-info',
      );
      if (detected) {
        const found = runner.agent.state.lastDetected;
        report = new DriftReport(
          state.lastGood!.synth.platform,
          flags.overlay,
          found.length ? found : drift,
          state.lastGood!.revision,
        );
        out(`      detected in ${Date.now() - editedAt} ms; Event on the object: "${detected.note}"`);
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    if (report?.drifted) out(indent(report.toString()));
    const restored = await waitFor(
      async () =>
        (await admin.request('GET', path, { schema: configMapSchema })).data.owner === 'platform-team',
      10_000,
    );
    out(
      restored
        ? '      The agent runs in self-heal mode: it restored the field from git (Event DriftCorrected). With --mode detect-only it would only report.'
        : '      (not restored yet)',
    );

    step(
      6,
      'Done',
      flags.keepRunning
        ? 'still running: Ctrl-C stops everything.'
        : 'stopping the agent, the simulators, the git server and the control plane.',
    );
    if (flags.keepRunning) {
      out(`      export KUBECONFIG=${controlPlane.info.kubeconfig}`);
      if (controlPlane.info.binaries.kubectl)
        out(`      ${controlPlane.info.binaries.kubectl} -n groundwork-system get platformsyncs -o yaml`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
    }
    if (!converged) setExitCode(2);
  } finally {
    await stopAll();
  }
}

/** Commits the example platform's files into a new repository and a bare clone under `<root>/served`. */
async function publishRepository(root: string): Promise<string> {
  const work = join(root, 'work');
  for (const p of ['groundwork.yaml', 'platform', 'overlays', 'catalogs'])
    await cp(join(packageRoot, p), join(work, p), { recursive: true });
  await writeFile(join(work, 'package.json'), '{ "type": "module" }\n');
  const env = {
    GIT_AUTHOR_NAME: 'Groundwork quick start',
    GIT_AUTHOR_EMAIL: 'quickstart@groundwork.invalid',
    GIT_COMMITTER_NAME: 'Groundwork quick start',
    GIT_COMMITTER_EMAIL: 'quickstart@groundwork.invalid',
  };
  await runCommand('git', ['init', '-q', '--initial-branch=main'], { cwd: work, env });
  await runCommand('git', ['add', '.'], { cwd: work, env });
  await runCommand('git', ['-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'example platform'], {
    cwd: work,
    env,
  });
  await runCommand('git', ['clone', '-q', '--bare', work, join(root, 'served', 'platform.git')], {
    cwd: root,
    env,
  });
  return join(root, 'served', 'platform.git');
}

/** Live objects for the platform's manifests, read in batches. */
async function runnerSessionFetch(client: KubeClient, objects: readonly K8sObject[]) {
  const session = new ClusterSession(client);
  return (await session.observer.observe(ClusterObserver.wanted(objects))).live;
}

/** The ClusterVersion has reached the target recorded in its annotation (no version target: true). */
async function atTarget(client: KubeClient, objects: readonly K8sObject[]): Promise<boolean> {
  const cv = objects.find((o) => o.kind === 'ClusterVersion');
  const target = cv?.metadata.annotations?.['groundwork.io/target-version'];
  if (!cv || !target) return true;
  const live = await client
    .request('GET', `/apis/config.openshift.io/v1/clusterversions/${cv.metadata.name}`, {
      schema: k8sObjectSchema,
    })
    .catch(() => undefined); // not created yet
  const latest = live && readClusterVersion(live).status?.history[0];
  return latest?.version === target && latest.state === 'Completed';
}

async function waitFor(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `      ${l}`)
    .join('\n');
}
