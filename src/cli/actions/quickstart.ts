import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { startAgent } from '../../agent/start.js';
import type { KubeClient } from '../../cluster/client.js';
import { platformSyncName } from '../../cluster/sync-status-store.js';
import { hasCode } from '../../core/errors.js';
import { startGitServer } from '../../dev/git-server.js';
import type { SetExitCode } from '../commands/command-module.js';
import { terminalProgress } from '../progress.js';
import { readApplied, renderApplied } from '../quickstart/applied.js';
import { startDemoCluster, type DemoCluster } from '../quickstart/demo-cluster.js';
import { editAndWatch } from '../quickstart/drift-demo.js';
import { publishExamplePlatform, type PublishedPlatform } from '../quickstart/publish.js';
import { waitConverged } from '../quickstart/wait-converged.js';
import { quickstartWords } from '../quickstart/step-text.js';
import { packageRoot } from '../../core/package-root.js';
import { ClusterDashboardSource } from '../../ui/cluster-source.js';
import { startDashboardServer } from '../../ui/dashboard-server.js';
import type { DesiredSource } from '../../ui/desired-objects.js';
import { newToken } from '../../ui/token-auth.js';

export interface QuickstartFlags {
  overlay: string;
  keepRunning?: boolean;
  /** Seconds to wait for the platform to converge. */
  timeout: string;
}

/** The agent's namespace in the demo (its PlatformSync, inventory and lease live there). */
const NAMESPACE = 'groundwork-system';
type Out = (text?: string) => void;
const WORDS = quickstartWords(packageRoot);
type OnStarted = (stop: () => Promise<void>) => void;

/**
 * `groundwork quickstart`: the main job on the embedded default, in six steps that each say what
 * they do: a local control plane made to look like OpenShift, the example platform shipped with Groundwork
 * served over git smart-HTTP, the agent reconciling it (waited on through its PlatformSync status),
 * what was applied with its health, one out-of-band edit and the agent's answer, then stop (or keep
 * running with `--keep-running`). Exit code 2 when the platform did not converge in time.
 */
export async function runQuickstart(flags: QuickstartFlags, setExitCode: SetExitCode): Promise<void> {
  const out: Out = (text = '') => process.stdout.write(`${text}\n`);
  const cleanup: (() => Promise<void>)[] = [];
  const onStarted: OnStarted = (stop) => cleanup.push(stop);
  try {
    out(WORDS.intro);
    const cluster = await clusterStep(out, onStarted);
    const { published, url } = await gitStep(out, onStarted);
    const { converged, desired } = await agentStep(out, onStarted, { cluster, published, url, flags });
    await appliedStep(out, cluster.admin, { platform: published.platform, overlay: flags.overlay });
    await driftStep(out, cluster.admin);
    await doneStep(out, onStarted, { cluster, flags, desired });
    if (!converged) setExitCode(2);
  } finally {
    for (const stop of cleanup.splice(0).reverse()) await stop().catch(() => undefined);
  }
}

function step(out: Out, n: number, title: string, detail: string): void {
  out(`\n[${n}/6] ${title}\n      ${detail}`);
}

async function clusterStep(out: Out, onStarted: OnStarted): Promise<DemoCluster> {
  step(
    out,
    1,
    'Local control plane',
    'a real kube-apiserver, etcd and kube-controller-manager on loopback (built once from the Go module proxy).',
  );
  const cluster = await startDemoCluster(onStarted);
  out(
    `      ${cluster.controlPlane.info.server}, ${cluster.crds} CRDs (OLM, ClusterVersion, MachineConfig, Groundwork's PlatformSync).`,
  );
  out(`      ${WORDS.simulators}`);
  out(
    '      a fresh "OpenShift 4.14.38" with redhat-operators and community-operators catalogs, 33 ClusterOperators, master and worker pools.',
  );
  return cluster;
}

async function gitStep(
  out: Out,
  onStarted: OnStarted,
): Promise<{ published: PublishedPlatform; url: string }> {
  step(out, 2, 'Git server', WORDS.git);
  const root = await mkdtemp(join(tmpdir(), 'groundwork-quickstart-'));
  onStarted(() => rm(root, { recursive: true, force: true }));
  const published = await publishExamplePlatform(root);
  const git = await startGitServer({ root: published.served });
  onStarted(() => git.stop());
  const url = git.url('platform.git');
  out(`      ${url} (branch main, ${published.revision})`);
  return { published, url };
}

/** Starts the agent and waits for its PlatformSync to report the platform converged. */
async function agentStep(
  out: Out,
  onStarted: OnStarted,
  ctx: { cluster: DemoCluster; published: PublishedPlatform; url: string; flags: QuickstartFlags },
): Promise<{ converged: boolean; desired: DesiredSource }> {
  const { flags, published } = ctx;
  step(
    out,
    3,
    'The agent',
    `fetches the repo, synthesizes overlay "${flags.overlay}" in a child process, plans and applies in stages, and keeps watching.`,
  );
  const name = platformSyncName(published.platform, flags.overlay);
  const agent = await startAgent({
    repository: { url: ctx.url, ref: { branch: 'main' } },
    overlay: flags.overlay,
    mode: 'self-heal',
    intervalMs: 1000,
    namespace: NAMESPACE,
    syncName: name,
    kubeconfig: ctx.cluster.controlPlane.info.kubeconfig,
    cacheDir: join(published.served, '..', 'agent-cache'),
    log: pino({ level: 'silent' }),
  });
  onStarted(() => agent.stop());
  const progress = terminalProgress();
  progress.start(
    'reconciling: Subscriptions → InstallPlans → CSVs → operands → MachineConfigs → cluster version steps',
  );
  try {
    const done = await waitConverged(ctx.cluster.admin, {
      sync: { namespace: NAMESPACE, name },
      revision: published.revision,
      timeoutMs: Number(flags.timeout) * 1000,
      onProgress: (pending) => progress.update(`reconciling: ${pending.slice(0, 160)}`),
    });
    progress.succeed(
      `converged at ${published.revision} in ${(done.elapsedMs / 1000).toFixed(1)} s (PlatformSync ${NAMESPACE}/${name} Ready)`,
    );
    return { converged: true, desired: agent.desired };
  } catch (err) {
    if (!hasCode(err, 'WaitTimeout')) throw err;
    progress.fail(`not converged within ${flags.timeout}s: ${err.message}`);
    return { converged: false, desired: agent.desired };
  }
}

async function appliedStep(
  out: Out,
  admin: KubeClient,
  inventory: { platform: string; overlay: string },
): Promise<void> {
  step(
    out,
    4,
    'What was applied, and its health',
    'every object of the platform, in apply order, with the verdict of its health check.',
  );
  for (const line of renderApplied(await readApplied(admin, inventory))) out(line);
}

async function driftStep(out: Out, admin: KubeClient): Promise<void> {
  step(
    out,
    5,
    'Drift',
    "someone edits the ConfigMap platform-gitops/platform-info behind git's back (like `kubectl edit`).",
  );
  const answer = await editAndWatch(admin, {
    namespace: 'platform-gitops',
    configMap: 'platform-info',
    key: 'owner',
    value: 'someone-else',
  });
  out(
    answer.detected
      ? `      detected in ${answer.detected.afterMs} ms; Event DriftDetected on the object: "${answer.detected.note}"`
      : '      (no DriftDetected Event within 10 s)',
  );
  out(
    answer.restored
      ? `      restored ${answer.restored.afterMs} ms after the edit; Event DriftCorrected: "${answer.restored.note ?? ''}".\n      The agent runs in self-heal mode: it restored the field from git. With --mode detect-only it would only report; \`groundwork drift\` prints the same report as a table.`
      : '      (not restored yet)',
  );
}

/**
 * Step 6: stop, or with `--keep-running` print how to reach the cluster and serve the dashboard
 * (`groundwork ui`'s pages on 127.0.0.1, behind a token in the printed URL) over the demo's
 * PlatformSync, with the in-process agent's desired objects, until Ctrl-C.
 */
async function doneStep(
  out: Out,
  onStarted: OnStarted,
  ctx: { cluster: DemoCluster; flags: QuickstartFlags; desired: DesiredSource },
): Promise<void> {
  const { cluster, flags } = ctx;
  step(
    out,
    6,
    'Done',
    flags.keepRunning
      ? 'still running: Ctrl-C stops everything.'
      : 'stopping the agent, the simulators, the git server and the control plane.',
  );
  if (!flags.keepRunning) return;
  out(`      export KUBECONFIG=${cluster.controlPlane.info.kubeconfig}`);
  if (cluster.controlPlane.info.binaries.kubectl)
    out(`      ${cluster.controlPlane.info.binaries.kubectl} -n ${NAMESPACE} get platformsyncs -o yaml`);
  const source = new ClusterDashboardSource(cluster.admin, { namespace: NAMESPACE, desired: ctx.desired });
  await source.start();
  onStarted(async () => source.stop());
  const dashboard = await startDashboardServer({ source, token: newToken() });
  onStarted(() => dashboard.close());
  out(`      Dashboard (read-only): ${dashboard.url}`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
}
