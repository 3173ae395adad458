import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { platformSyncName, SyncStatusStore } from '../../src/cluster/sync-status-store.js';
import { nextStatus } from '../../src/report/sync-status.js';
import { startGitServer, type GitServer } from '../../src/dev/git-server.js';
import { seriousViolations } from '../harness/axe.js';
import { useChromium } from '../harness/browser.js';
import { groundwork } from '../harness/cli.js';
import { useCluster } from '../harness/cluster.js';
import { createGitRepo } from '../harness/git-repo.js';
import { startUi as startUiProcess } from '../harness/ui-process.js';
import { writeUiDocSection } from '../harness/ui-docs.js';

/**
 * The Fleet page of `groundwork ui --fleet` in a real browser: the real CLI process, the real
 * control plane (two environments' PlatformSyncs, written with the agent's own status store and
 * reducer), a real git smart-HTTP server with a token (commits behind, fast-forward), and a
 * second cluster of the fleet that cannot be reached. The promotion into staging is held by a
 * failing gate, then passes once dev is Healthy.
 */
const cluster = useCluster({ namespacePrefix: 'gw-ui-fleet' });
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SHOTS = process.env.GROUNDWORK_UI_SCREENSHOTS === '1';
const TOKEN = 'fleet-ui-s3cret';
/** Would run if it were ever markup: it sets a global the test looks for. */
const HOSTILE = `"><img src=x onerror="window.__pwned=1"><b>bold</b>`;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await Promise.resolve(c()).catch(() => undefined);
});
const browser = useChromium();

function config(platform: string): string {
  return [
    `name: ${platform}`,
    'environments:',
    '  - { name: dev, overlays: [dev], ref: main }',
    '  - { name: staging, overlays: [staging], ref: env/staging, promotedFrom: dev, soak: 0s }',
    '',
  ].join('\n');
}

/**
 * A cluster that accepts connections and never answers until `release`, then refuses: the fleet's
 * first read lasts until the test has seen the page say it is reading, whatever the machine's load.
 */
async function silentCluster() {
  const held: Socket[] = [];
  const server = createServer((socket) => held.push(socket));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  const release = () => {
    server.close();
    for (const socket of held.splice(0)) socket.destroy();
  };
  cleanups.push(release);
  return { port, release };
}

/** A fleet of two environments on the local control plane, and a cluster nobody can reach. */
async function fleet() {
  const platform = `fl${randomBytes(3).toString('hex')}`;
  const root = mkdtempSync(join(tmpdir(), 'gw-ui-fleet-'));
  const repo = createGitRepo({ root, name: 'platform' });
  const server: GitServer = await startGitServer({ root, auth: { token: TOKEN } });
  cleanups.push(() => server.stop());
  repo.writeFiles({ 'groundwork.yaml': config(platform) });
  const c1 = repo.commit('first');
  const c2 = repo.commit('second');
  repo.commit('third');
  await repo.push();
  repo.git('push', '-q', 'origin', `${c1}:refs/heads/env/staging`);
  const url = server.url(repo.path);

  // The person running groundwork ui: groundwork.yaml, and a fleet file of two clusters.
  const local = join(root, 'local');
  mkdirSync(local);
  writeFileSync(join(local, 'groundwork.yaml'), config(platform));
  const context = (parse(readFileSync(cluster.kubeconfig, 'utf8')) as { 'current-context': string })[
    'current-context'
  ];
  const silent = await silentCluster();
  const gone = join(root, 'gone.kubeconfig');
  writeFileSync(
    gone,
    [
      'apiVersion: v1',
      'kind: Config',
      `clusters: [{ name: gone, cluster: { server: "https://127.0.0.1:${silent.port}" } }]`,
      'users: [{ name: gone, user: { token: nothing } }]',
      'contexts: [{ name: gone, context: { cluster: gone, user: gone } }]',
      'current-context: gone',
      '',
    ].join('\n'),
  );
  const fleetFile = join(root, 'fleet.yaml');
  writeFileSync(
    fleetFile,
    `clusters:\n  - { name: local, context: ${context}, kubeconfig: ${cluster.kubeconfig} }\n  - { name: ${JSON.stringify(HOSTILE)}, context: gone, kubeconfig: ${gone} }\n`,
  );

  const store = new SyncStatusStore(cluster.client, { namespace: cluster.namespace });
  /** Writes the status an agent of `overlay` writes after reconciling `commit` with `health`. */
  const report = async (
    overlay: string,
    branch: string,
    commit: string,
    health: 'Healthy' | 'Degraded',
    of: { platform: string; url: string } = { platform, url },
  ) => {
    const spec = { repository: { url: of.url, ref: { branch } }, overlay, interval: '1m' };
    const name = platformSyncName(of.platform, overlay);
    const { generation } = await store.ensure(name, spec);
    const revision = `${branch}@sha1:${commit}`;
    const at = new Date();
    const working = nextStatus((await store.read(name))?.status, {
      type: 'progressing',
      at,
      generation,
      revision,
      phase: 'applying',
    });
    const status = nextStatus(working, {
      type: 'reconciled',
      at,
      generation,
      revision,
      applied: true,
      inventory: { objects: 1 },
      health:
        health === 'Healthy'
          ? { status: 'Healthy', reason: 'AllHealthy' }
          : { status: 'Degraded', reason: 'ObjectsDegraded', message: `Deployment/app/api: ${HOSTILE}` },
    });
    await store.write(name, spec, status);
  };
  return { platform, local, fleetFile, c1, c2, report, silent };
}

const startUi = (args: string[]) =>
  startUiProcess(args, {
    env: { ...process.env, GROUNDWORK_GIT_TOKEN: TOKEN },
    track: (child) =>
      cleanups.push(() => {
        if (child.exitCode === null) child.kill('SIGKILL');
      }),
  });

describe('the Fleet page (groundwork ui --fleet)', () => {
  it('shows each environment, the unreachable cluster and the gates of the next promotion: failing, then passing', async () => {
    const f = await fleet();
    // Another platform of the same cluster, listed first, following a repository nobody serves:
    // commits behind are counted from this platform's repository, as if it were not there.
    await f.report('dev', 'main', f.c1, 'Healthy', {
      platform: `a${f.platform}`,
      url: 'http://127.0.0.1:1/another-platform.git',
    });
    await f.report('dev', 'main', f.c2, 'Degraded');
    await f.report('staging', 'env/staging', f.c1, 'Healthy');
    const { child, url, exited } = await startUi([
      '--kubeconfig',
      cluster.kubeconfig,
      '--namespace',
      cluster.namespace,
      '--dir',
      f.local,
      '--fleet',
      f.fleetFile,
      '--fleet-interval',
      '5s',
      '--cluster-timeout',
      '60s',
    ]);
    const context = await browser().newContext({ viewport: { width: 1200, height: 900 } });
    cleanups.push(() => context.close());
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(url.toString());
    // The Fleet page's script is held until its first read has ended, as a loaded machine does it
    // by chance: the read's change is told before the page listens, and the page must catch up
    // (its data-changes against the stream's count), not wait for a change that never comes.
    const fleetUrl = `http://127.0.0.1:${url.port}/fleet`;
    await page.route('**/static/app.js*', async (route) => {
      // The page has been served while the silent cluster held the first read. It hangs up now:
      // the first read ends, and every later read is refused at once.
      f.silent.release();
      const until = Date.now() + 30_000;
      while (
        Date.now() < until &&
        !(await (await context.request.get(fleetUrl)).text()).includes('read again every')
      )
        await new Promise((r) => setTimeout(r, 100));
      await route.continue();
    });
    const served = await page.goto(fleetUrl);
    expect(await served?.text()).toContain('Reading the fleet');
    expect(await page.locator('nav a[aria-current="page"]').textContent()).toBe('Fleet');

    const staging = page.locator('section[data-env="staging"]');
    const gate = (name: string) => staging.locator(`tr[data-gate="${name}"]`);
    // The first read: the page is pushed by Server-Sent Events when it ends.
    await expect
      .poll(
        () =>
          gate('Healthy')
            .getAttribute('data-passed', { timeout: 1_000 })
            .catch(() => null),
        {
          timeout: 60_000,
        },
      )
      .toBe('false');
    expect(await staging.locator('[data-outcome]').getAttribute('data-outcome')).toBe('refused');
    const holds = await gate('Healthy').locator('td').last().textContent();
    expect(holds).toContain('local (dev)');
    expect(holds).toContain('Degraded (ObjectsDegraded): Deployment/app/api: "><img src=x');
    for (const passing of ['Reachable', 'SameRevision', 'Soaked', 'FastForward', 'Window'])
      expect(await gate(passing).getAttribute('data-passed'), passing).toBe('true');

    // The clusters as fleet status reads them: dev runs the second of three commits on main.
    const devRow = page.locator('section[data-env="dev"] tr[data-cluster="local"] td');
    expect(await devRow.nth(2).textContent()).toBe(`main@${f.c2.slice(0, 12)}`);
    // '?' when commits behind could not be counted: the page's problems say why.
    const problems = (await page.locator('ul.problems').allTextContents()).join('; ');
    expect(await devRow.nth(3).textContent(), `problems: ${problems}`).toBe('1');
    const stagingRow = staging.locator('tr[data-cluster="local"] td');
    expect(await stagingRow.nth(3).textContent()).toBe('0');
    // The unreachable cluster, named with markup: text, with its reason.
    const goneRow = page.locator('tr[data-cluster]').filter({ hasText: 'bold' });
    expect(await goneRow.locator('td').first().textContent()).toBe(HOSTILE);
    expect(await goneRow.locator('td').last().textContent()).toContain('Unreachable');
    expect(await goneRow.locator('b, img').count()).toBe(0);
    expect(await page.locator('main img').count()).toBe(0);
    expect(
      await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned),
    ).toBeUndefined();
    await expect.poll(() => page.locator('#live-state').textContent(), { timeout: 10_000 }).toBe('live');
    expect(await seriousViolations(page)).toEqual([]);
    const markup = await page.content();
    expect(markup).not.toContain(TOKEN);
    if (SHOTS) {
      mkdirSync(`${ROOT}/docs/ui`, { recursive: true });
      await page.screenshot({ path: `${ROOT}/docs/ui/fleet.png`, fullPage: true });
      writeUiDocSection(
        ROOT,
        'Fleet',
        'Fleet: each environment with its clusters (an unreachable one, named with markup, as text), commits behind, and the gates of the next promotion with what holds it',
        'ui/fleet.png',
      );
    }

    // dev becomes Healthy: within an interval the page shows every gate passing.
    const healed = performance.now();
    await f.report('dev', 'main', f.c2, 'Healthy');
    await expect
      .poll(() => staging.locator('[data-outcome]').getAttribute('data-outcome'), { timeout: 60_000 })
      .toBe('would-promote');
    if (process.env.GROUNDWORK_FLEET_UI_TIMINGS)
      writeFileSync(
        process.env.GROUNDWORK_FLEET_UI_TIMINGS,
        JSON.stringify({
          read: (await page.locator('main > p').first().textContent())?.match(/in ([\d.]+ m?s)/)?.[1],
          healthyToPageMs: Math.round(performance.now() - healed),
        }),
      );
    expect(await gate('Healthy').getAttribute('data-passed')).toBe('true');
    // Read again since the silent cluster hung up: refused, with its address.
    expect(await goneRow.locator('td').last().textContent()).toContain(
      `connect ECONNREFUSED 127.0.0.1:${f.silent.port}`,
    );
    expect(await staging.locator('[data-outcome]').textContent()).toContain(
      `would move env/staging to ${f.c2.slice(0, 12)}`,
    );
    await page.setViewportSize({ width: 380, height: 800 });
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);

    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it.each([
    ['a missing fleet file', null, 'not found'],
    [
      'a fleet file that is not one',
      `clusters:\n  - context: x\n    password: ${TOKEN}\n`,
      'Unrecognized key',
    ],
  ])('stops at start with %s: exit 2 naming it, content never quoted', async (_, text, message) => {
    const f = await fleet();
    const file = join(f.local, 'my-fleet.yaml');
    if (text !== null) writeFileSync(file, text);
    const r = await groundwork(
      ['ui', '--kubeconfig', cluster.kubeconfig, '--dir', f.local, '--fleet', file],
      { timeoutMs: 60_000 },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('my-fleet.yaml');
    expect(r.stderr).toContain(message);
    expect(r.stderr).toContain('fix:');
    expect(r.stderr).not.toContain(TOKEN);
    expect(r.stdout).not.toContain('Dashboard (read-only)');
  });
});
