import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPlatformData, platformHooks, POST_SYNTH_CHECKS } from '../../src/reconcile/domains.js';
import { loadProject } from '../../src/project/project.js';
import { ClusterSession } from '../../src/reconcile/cluster-session.js';
import { observeAndPlan } from '../../src/reconcile/observe-and-plan.js';
import { applyObserved } from '../../src/reconcile/apply-observed.js';
import type { ApplyEvent } from '../../src/apply/apply-events.js';
import { KubeClient } from '../../src/cluster/client.js';
import { assessHealth } from '../../src/health/index.js';
import { SimulatedOpenShift } from '../../src/dev/simulators/world.js';
import { synthesize } from '../../src/render/synth/synthesize.js';
import { auditedWrites, auditOffset, eventually, useDedicatedControlPlane } from '../harness/cluster.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
// A control plane of its own: the simulated OpenShift has cluster-wide objects a cluster has once.
const dedicated = useDedicatedControlPlane();
let world: SimulatedOpenShift;
let session: ClusterSession;

beforeAll(async () => {
  world = await SimulatedOpenShift.start({
    kubeconfig: dedicated.kubeconfig,
    communityCatalogs: [`${repo}/catalogs/community-operators`],
    intervalMs: 150,
    updateTicks: 2,
  });
  session = new ClusterSession(
    await KubeClient.load({ kubeconfig: dedicated.kubeconfig, userAgent: 'groundwork-e2e' }),
  );
});
afterAll(async () => {
  await world?.stop();
  session?.client.close();
});

describe('the example platform on a simulated OpenShift', () => {
  it('installs operators through OLM, then operands, rolls the pools and walks the version to its target', async () => {
    const synth = await synthesize({ dir: repo, overlay: 'dev', checks: POST_SYNTH_CHECKS });
    const revision = 'main@sha1:1111111111111111111111111111111111111111';
    const events: ApplyEvent[] = [];
    const observed = await observeAndPlan(session, synth, { revision });
    expect(observed.plan.items.find((i) => i.ref.kind === 'ArgoCD')?.reason).toBe('AwaitsOperator');
    const changes = await applyObserved(session, observed, {
      revision,
      wait: true,
      timeoutMs: 120_000,
      hooks: platformHooks(await loadPlatformData(await loadProject(repo))),
      listener: (e) => events.push(e),
    });
    expect(changes.error?.message ?? '').toBe('');

    // Subscription -> InstallPlan -> CSV Succeeded -> the operand's CRD -> the operand.
    const get = <T>(path: string) => session.client.request<T>('GET', path);
    const gitops = await get<{ status: { installedCSV: string; state: string } }>(
      '/apis/operators.coreos.com/v1alpha1/namespaces/openshift-gitops-operator/subscriptions/openshift-gitops-operator',
    );
    expect(gitops.status).toMatchObject({
      state: 'AtLatestKnown',
      installedCSV: 'openshift-gitops-operator.v1.14.0',
    });
    const csv = await get<{ status: { phase: string } }>(
      '/apis/operators.coreos.com/v1alpha1/namespaces/openshift-gitops-operator/clusterserviceversions/openshift-gitops-operator.v1.14.0',
    );
    expect(csv.status.phase).toBe('Succeeded');
    await get('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/argocds.argoproj.io');
    await get('/apis/argoproj.io/v1beta1/namespaces/platform-gitops/argocds/platform');

    // The pinned operator is installed at its pin, by an InstallPlan Groundwork approved.
    const kepler = await get<{ status: { installedCSV: string } }>(
      '/apis/operators.coreos.com/v1alpha1/namespaces/kepler-operator/subscriptions/kepler-operator',
    );
    expect(kepler.status.installedCSV).toBe('kepler-operator.v0.24.0');
    expect(
      events.some((e) => e.type === 'notice' && e.message.includes('approved InstallPlan kepler-operator/')),
    ).toBe(true);

    // Pools rolled the MachineConfigs (and then the new release, as after any OpenShift update).
    expect(
      events.some((e) => e.type === 'wait-done' && e.stage === 'machine-configs' && e.outcome === 'ready'),
    ).toBe(true);
    for (const pool of ['master', 'worker', 'infra']) {
      await eventually(
        async () => {
          const mcp = await get<Parameters<typeof assessHealth>[0]>(
            `/apis/machineconfiguration.openshift.io/v1/machineconfigpools/${pool}`,
          );
          return assessHealth(mcp).status === 'Healthy' ? true : undefined;
        },
        60_000,
        `pool ${pool} Updated`,
      );
    }
    expect(
      events.some(
        (e) => e.type === 'notice' && /MachineConfigPool\/worker: .*node\(s\) reboot/.test(e.message),
      ),
    ).toBe(true);

    // The version target two minors ahead was reached one step at a time.
    const cv = await get<{ status: { history: { version: string; state: string }[] } }>(
      '/apis/config.openshift.io/v1/clusterversions/version',
    );
    expect(cv.status.history[0]).toMatchObject({ version: '4.16.20', state: 'Completed' });
    const versions = cv.status.history.map((h) => h.version).reverse();
    expect(versions[0]).toBe('4.14.38');
    const minors = versions.map((v) => Number(v.split('.')[1]));
    expect(minors).toContain(15);
    // Never a skipped minor: each step stays in its minor or goes to the next one.
    for (let i = 1; i < minors.length; i++) expect(minors[i]! - minors[i - 1]!).toBeLessThanOrEqual(1);

    // A second apply of the same revision: zero write requests.
    const offset = auditOffset(dedicated.auditLog);
    const again = await observeAndPlan(session, synth, { revision });
    expect(again.plan.hasChanges).toBe(false);
    const second = await applyObserved(session, again, {
      revision,
      wait: true,
      timeoutMs: 60_000,
      hooks: platformHooks(await loadPlatformData(await loadProject(repo))),
    });
    expect(second.error).toBeUndefined();
    expect(
      auditedWrites(offset, 'groundwork-e2e', { includeDryRuns: true, log: dedicated.auditLog }),
    ).toEqual([]);
  }, 240_000);
});
