import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { graphFromCincinnati, mergeGraphs } from '../../src/cluster-version/graph.js';
import { ClusterVersionTarget } from '../../src/cluster-version/target.js';
import { SyncStatusStore } from '../../src/cluster/sync-status-store.js';
import { platformHooks, type OpenShiftDecisions } from '../../src/reconcile/domains.js';
import { ClusterSession } from '../../src/reconcile/cluster-session.js';
import { observeAndPlan } from '../../src/reconcile/observe-and-plan.js';
import { applyObserved } from '../../src/reconcile/apply-observed.js';
import { nextStatus, type SyncStatus } from '../../src/report/sync-status.js';

import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { seriousViolations } from '../harness/axe.js';
import { useChromium } from '../harness/browser.js';
import type { K8sObject } from '../../src/core/object.js';
import { PATHS, deleteOptional, mergePatch, objectPath } from '../../src/dev/simulators/api.js';
import { createClusterOperators, installClusterVersion } from '../../src/dev/simulators/cvo-install.js';
import { CvoSimulator } from '../../src/dev/simulators/cvo.js';
import { ClusterDashboardSource } from '../../src/ui/cluster-source.js';
import { startDashboardServer } from '../../src/ui/dashboard-server.js';
import { newToken } from '../../src/ui/token-auth.js';
import { useCluster } from '../harness/cluster.js';
import { synthPlatform } from '../harness/engine.js';
import { fixtureObjects, fixturePath } from '../harness/fixtures.js';
import { writeUiDocSection } from '../harness/ui-docs.js';
import { fixtureUpdateService } from '../dev/simulators/helpers.js';

/**
 * The OpenShift page in a real browser, live: a MachineConfigPool's machine counts move as its
 * status does (a pool of this test's own, cluster-scoped, removed after), read through the
 * dashboard's watches and pushed to the page by Server-Sent Events.
 */
const cluster = useCluster({ namespacePrefix: 'gw-ui-ocp' });
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await Promise.resolve(c()).catch(() => undefined);
});
const browser = useChromium();

/**
 * `groundwork ui`'s server over the test's namespace (and the ClusterVersion `clusterVersion`,
 * else the cluster's), its OpenShift page open in a new browser context; all closed after the test.
 */
async function openShiftPage(clusterVersion?: string): Promise<Page> {
  const source = new ClusterDashboardSource(cluster.client, {
    namespace: cluster.namespace,
    ...(clusterVersion ? { clusterVersion } : {}),
  });
  await source.start();
  cleanups.push(() => source.stop());
  const server = await startDashboardServer({ source, token: newToken() });
  cleanups.push(() => server.close());
  const context = await browser().newContext();
  cleanups.push(() => context.close());
  const page = await context.newPage();
  await page.goto(server.url);
  await page.goto(`http://127.0.0.1:${server.port}/openshift`);
  return page;
}

const counts = (machines: number, updated: number) => ({
  machineCount: machines,
  updatedMachineCount: updated,
  readyMachineCount: updated,
  unavailableMachineCount: machines - updated,
  degradedMachineCount: 0,
  observedGeneration: 1,
  conditions: [
    { type: 'Updated', status: updated === machines ? 'True' : 'False', reason: '', message: '' },
    { type: 'Updating', status: updated === machines ? 'False' : 'True', reason: '', message: '' },
    { type: 'Degraded', status: 'False', reason: '', message: '' },
  ],
});

describe('the OpenShift page', () => {
  it("shows a pool's machine counts and follows them as the pool updates", async () => {
    const pool = `gwui${randomBytes(3).toString('hex')}`;
    const worker = fixtureObjects('cluster-state/not-upgrading/mcp.yaml').find(
      (p) => p.metadata.name === 'worker',
    ) as K8sObject;
    const path = objectPath(PATHS.machineConfigPools, pool);
    await cluster.client.request('POST', PATHS.machineConfigPools, {
      body: {
        apiVersion: 'machineconfiguration.openshift.io/v1',
        kind: 'MachineConfigPool',
        metadata: { name: pool },
        spec: { ...(worker.spec as Record<string, unknown>), configuration: undefined, paused: false },
      },
    });
    cleanups.push(() => deleteOptional(cluster.client, path));
    await mergePatch(cluster.client, `${path}/status`, { status: counts(3, 1) });

    const page = await openShiftPage();
    const cells = page.locator(`tr[data-pool="${pool}"] td`);
    const row = async () => (await cells.allTextContents()).slice(2, 5); // machines, updated, ready
    await expect.poll(row, { timeout: 10_000 }).toEqual(['3', '1', '1']);
    expect(await cells.nth(1).textContent()).toContain('Progressing');
    await expect.poll(() => page.locator('#live-state').textContent(), { timeout: 10_000 }).toBe('live');

    await mergePatch(cluster.client, `${path}/status`, { status: counts(3, 2) });
    await expect.poll(row, { timeout: 10_000 }).toEqual(['3', '2', '2']);
    await mergePatch(cluster.client, `${path}/status`, { status: counts(3, 3) });
    await expect.poll(row, { timeout: 10_000 }).toEqual(['3', '3', '3']);
    await expect.poll(() => cells.nth(1).textContent(), { timeout: 10_000 }).toContain('Healthy');
  });
});

/**
 * A ClusterVersion `name` at `version` in channel stable-4.9 (update service: the stable-4.8 and
 * 4.9 graph fixtures) with its etcd and kube-apiserver ClusterOperators, and the CVO simulator
 * over it after its first tick; an update takes `updateTicks` ticks.
 */
async function simulatedCluster(name: string, version: string, updateTicks: number): Promise<CvoSimulator> {
  const updateService = fixtureUpdateService('stable-4.8.json', 'stable-4.9.json');
  const cv = await installClusterVersion(cluster.client, {
    name,
    version,
    channel: 'stable-4.9',
    updateService,
  });
  const templates = fixtureObjects('cluster-state/not-upgrading/co.yaml').filter((co) =>
    ['etcd', 'kube-apiserver'].includes(co.metadata.name),
  );
  await createClusterOperators(cluster.client, { clusterVersion: cv, version, templates });
  const cvo = new CvoSimulator(cluster.client, { name, updateService, updateTicks });
  await cvo.tick();
  return cvo;
}

describe('the OpenShift page and a version step', () => {
  let cvName = '';
  afterEach(async () => {
    // Owned ClusterOperators go with it (garbage collector).
    if (cvName) await deleteOptional(cluster.client, objectPath(PATHS.clusterVersions, cvName));
  });

  it('shows a step running, then done, as the CVO simulator walks it', async () => {
    cvName = `version-${randomBytes(3).toString('hex')}`;
    const cvo = await simulatedCluster(cvName, '4.8.14', 3);

    const page = await openShiftPage(cvName);
    const step = page.locator('ol.path li[data-version="4.9.28"]');
    const main = page.locator('main');
    await expect.poll(() => main.textContent(), { timeout: 10_000 }).toContain('4.9.28 (recommended)');

    await cluster.client.request('PATCH', objectPath(PATHS.clusterVersions, cvName), {
      body: { spec: { desiredUpdate: { version: '4.9.28' } } },
      contentType: 'application/merge-patch+json',
    });
    await cvo.tick();
    await expect.poll(() => step.getAttribute('data-state'), { timeout: 10_000 }).toBe('running');
    for (let i = 0; i < 6; i++) await cvo.tick();
    await expect.poll(() => step.getAttribute('data-state'), { timeout: 10_000 }).toBe('done');
    expect(await page.locator('ol.path li[data-version="4.8.14"]').getAttribute('data-state')).toBe('done');
  });
});

describe('the OpenShift page and the path the agent planned', () => {
  let cvName = '';
  afterEach(async () => {
    if (cvName) await deleteOptional(cluster.client, objectPath(PATHS.clusterVersions, cvName));
  });

  const REV = 'main@sha1:3333333333333333333333333333333333333333';
  const graph = () =>
    mergeGraphs(
      ['stable-4.8.json', 'stable-4.9.json'].map((f) =>
        graphFromCincinnati(readFileSync(fixturePath(`update-graphs/${f}`), 'utf8'), f),
      ),
    );
  const intent = (name: string) =>
    synthPlatform(
      (p) => new ClusterVersionTarget(p, 'version', { name, channel: 'stable-4.9', version: '4.9.53' }),
      { name: 'ui', overlay: cluster.namespace, openshiftVersion: '4.9' },
    );

  it('shows the steps done, running and waiting with why, and the next step, across a minor (graph files + CVO simulator)', async () => {
    cvName = `version-${randomBytes(3).toString('hex')}`;
    const cvo = await simulatedCluster(cvName, '4.8.2', 2);

    // One agent pass, as the agent runs it: observe, plan, apply without waiting (the version hook
    // acts once and publishes what it decided), then the status written with those decisions.
    const session = new ClusterSession(cluster.client);
    const synth = await intent(cvName);
    const store = new SyncStatusStore(cluster.client, { namespace: cluster.namespace });
    const spec = {
      repository: { url: 'https://git.example.com/p.git', ref: { branch: 'main' } },
      overlay: 'x',
    };
    let status: SyncStatus | undefined;
    const pass = async (): Promise<OpenShiftDecisions> => {
      const decided: OpenShiftDecisions = {};
      const observed = await observeAndPlan(session, synth, { revision: REV });
      const changes = await applyObserved(session, observed, {
        revision: REV,
        wait: false,
        timeoutMs: 10_000,
        hooks: platformHooks(
          { catalogs: [], graphs: [graph()] },
          { publish: (d) => Object.assign(decided, d) },
        ),
      });
      expect(changes.error?.message ?? '').toBe('');
      status = nextStatus(status, {
        type: 'reconciled',
        at: new Date(),
        generation: 1,
        revision: REV,
        applied: true,
        inventory: { objects: 1 },
        health: { status: 'Progressing', reason: 'Progressing' },
        pending: changes.pending,
        openshift: decided,
      });
      await store.write('ui-path', spec, status);
      return decided;
    };

    const first = await pass();
    expect(first.clusterUpdate?.steps.map((s) => `${s.to} ${s.state}`)).toEqual([
      '4.8.54 running',
      '4.9.53 waiting',
    ]);

    const page = await openShiftPage(cvName);
    const step = (v: string) => page.locator(`ol.path li[data-version="${v}"]`);
    await expect.poll(() => step('4.8.54').getAttribute('data-state'), { timeout: 10_000 }).toBe('running');
    expect(await step('4.9.53').getAttribute('data-state')).toBe('waiting');
    expect(await step('4.9.53').textContent()).toContain('after the step 4.8.2 -> 4.8.54');
    expect(await step('4.8.54').textContent()).toContain('spec.desiredUpdate 4.8.54');
    expect(await page.locator('[data-next]').getAttribute('data-next')).toBe('4.8.54');

    // The CVO walks the patch step; the next pass requests the minor step.
    let decided = first;
    for (let i = 0; i < 30 && decided.clusterUpdate?.next !== '4.9.53'; i++) {
      await cvo.tick();
      decided = await pass();
    }
    expect(decided.clusterUpdate?.steps.map((s) => `${s.from}->${s.to} ${s.state}`)).toEqual([
      '4.8.2->4.8.54 done',
      '4.8.54->4.9.53 running',
    ]);
    await expect.poll(() => step('4.8.54').getAttribute('data-state'), { timeout: 10_000 }).toBe('done');
    await expect.poll(() => step('4.9.53').getAttribute('data-state'), { timeout: 10_000 }).toBe('running');
    await expect
      .poll(() => page.locator('[data-next]').getAttribute('data-next'), { timeout: 10_000 })
      .toBe('4.9.53');
    expect(await seriousViolations(page)).toEqual([]);
    if (process.env.GROUNDWORK_UI_SCREENSHOTS === '1') {
      const root = fileURLToPath(new URL('../..', import.meta.url));
      mkdirSync(`${root}/docs/ui`, { recursive: true });
      await page.screenshot({ path: `${root}/docs/ui/openshift.png`, fullPage: true });
      writeUiDocSection(
        root,
        'OpenShift',
        'OpenShift: the update path the agent planned across a minor (the patch step done, the minor step running), the updates offered and the ClusterOperators',
        'ui/openshift.png',
      );
    }
  });
});
