import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { K8sObject } from '../../src/core/object.js';
import { newToken } from '../../src/ui/token-auth.js';
import { seriousViolations } from '../harness/axe.js';
import { useChromium } from '../harness/browser.js';
import { useCluster } from '../harness/cluster.js';
import { dashboardOverAgent } from '../harness/dashboard-run.js';
import { writeUiDoc } from '../harness/ui-docs.js';

/**
 * The dashboard in a real browser (Debian's chromium, driven by playwright-core) against the real
 * local control plane and a real agent. With GROUNDWORK_UI_SCREENSHOTS=1 (`npm run docs:ui`) the
 * run writes its screenshots to docs/ui/ and regenerates docs/ui.md.
 */
const cluster = useCluster({ namespacePrefix: 'gw-ui' });
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SHOTS = process.env.GROUNDWORK_UI_SCREENSHOTS === '1';
/** Would run if it were ever markup: it sets a global the test looks for. */
const HOSTILE = `"><img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>`;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await Promise.resolve(c()).catch(() => undefined);
});

const browser = useChromium();

const shots: { file: string; caption: string }[] = [];
async function shot(page: Page, name: string, caption: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(`${ROOT}/docs/ui`, { recursive: true });
  await page.screenshot({ path: `${ROOT}/docs/ui/${name}.png`, fullPage: true });
  shots.push({ file: `ui/${name}.png`, caption });
}

async function start() {
  const { ns, repo, sha, server } = await dashboardOverAgent(cluster, cleanups, { a: '1', b: HOSTILE });
  const context = await browser().newContext({ viewport: { width: 1200, height: 800 } });
  cleanups.push(() => context.close());
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('response', (r) => r.status() >= 400 && errors.push(`${r.status()} ${new URL(r.url()).pathname}`));
  return { ns, repo, sha, server, page, errors };
}

async function cm(ns: string, name: string): Promise<K8sObject & { data: Record<string, string> }> {
  return cluster.client.request('GET', `/api/v1/namespaces/${ns}/configmaps/${name}`);
}

describe('groundwork ui in a browser', () => {
  it('shows the applied platform; drift appears on an edit and leaves after correction; hostile text stays text; no serious axe violations', async () => {
    const { ns, repo, sha, server, page, errors } = await start();
    await page.goto(server.url);
    // The token went into a cookie and out of the address bar.
    expect(new URL(page.url()).searchParams.has('token')).toBe(false);
    await expect
      .poll(() => page.locator('code.revision').textContent(), { timeout: 10_000 })
      .toBe(`main@sha1:${sha}`);
    await expect
      .poll(() => page.locator('main').textContent(), { timeout: 10_000 })
      .toContain(`u${ns.slice(-6)}`);
    await expect.poll(() => page.locator('#live-state').textContent(), { timeout: 10_000 }).toBe('live');
    await shot(
      page,
      'overview',
      'Overview: the applied revision, Ready and health, objects by health, the last cycles',
    );
    expect(await seriousViolations(page)).toEqual([]);

    // Out-of-band edit: the Drift page shows the row without a reload (Server-Sent Events).
    await page.goto(`http://127.0.0.1:${server.port}/drift`);
    expect(await page.locator('tr[data-drift]').count()).toBe(0);
    const live = await cm(ns, 'a');
    await cluster.client.request('PUT', `/api/v1/namespaces/${ns}/configmaps/a`, {
      body: { ...live, data: { value: 'edited' } },
      query: { fieldManager: 'kubectl-edit' },
    });
    const editedAt = Date.now();
    const row = page.locator(`tr[data-drift="ConfigMap/${ns}/a"]`);
    await expect.poll(() => row.count(), { timeout: 15_000, interval: 50 }).toBe(1);
    // A figure for the README, not an assertion: edit -> agent's drift watch -> status -> watch -> SSE -> page.
    process.stdout.write(`dashboard: drift row shown ${Date.now() - editedAt} ms after the edit\n`);
    expect(await row.textContent()).toContain('/data/value');
    expect(await row.textContent()).toContain('"edited"');
    expect(await row.textContent()).toContain('kubectl-edit');
    await shot(
      page,
      'drift',
      'Drift: an out-of-band edit, its live value and who made it, shown within a second',
    );
    expect(await seriousViolations(page)).toEqual([]);

    // Corrected by hand: the row leaves.
    const edited = await cm(ns, 'a');
    await cluster.client.request('PUT', `/api/v1/namespaces/${ns}/configmaps/a`, {
      body: { ...edited, data: { value: '1' } },
      query: { fieldManager: 'kubectl-edit' },
    });
    const correctedAt = Date.now();
    await expect.poll(() => row.count(), { timeout: 15_000, interval: 50 }).toBe(0);
    process.stdout.write(`dashboard: drift row gone ${Date.now() - correctedAt} ms after the correction\n`);

    // Hostile strings: a value and an annotation with markup render as text on the object page.
    const b = await cm(ns, 'b');
    await cluster.client.request('PATCH', `/api/v1/namespaces/${ns}/configmaps/b`, {
      body: { metadata: { annotations: { note: HOSTILE } } },
      contentType: 'application/merge-patch+json',
      query: { fieldManager: 'someone' },
    });
    void b;
    await page.goto(`http://127.0.0.1:${server.port}/objects?text=${encodeURIComponent('b')}&kind=ConfigMap`);
    await page.getByRole('link', { name: 'b', exact: true }).click();
    await expect.poll(() => page.locator('pre.yaml').textContent(), { timeout: 10_000 }).toContain('note:');
    const yaml = (await page.locator('pre.yaml').textContent()) ?? '';
    expect(yaml).toContain('window.__pwned=1');
    expect(await page.locator('main img').count()).toBe(0);
    expect(await page.locator('main script').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    await shot(
      page,
      'object',
      'An object: health, field managers, Events and the live object (hostile strings as text)',
    );
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto(`http://127.0.0.1:${server.port}/objects`);
    await shot(
      page,
      'objects',
      'Objects: by stage, with their health, filterable by kind, namespace, health and text',
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`http://127.0.0.1:${server.port}/history`);
    expect(await page.locator('main').textContent()).toContain(`main@sha1:${sha}`);
    await shot(page, 'history', 'History: the revisions applied, when, and how long each cycle took');

    // A narrow screen keeps every page usable.
    await page.setViewportSize({ width: 380, height: 800 });
    await page.goto(`http://127.0.0.1:${server.port}/`);
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    void repo;
  });

  it('refuses a request without the token, and one with another token', async () => {
    const { server } = await start();
    const base = `http://127.0.0.1:${server.port}`;
    for (const path of ['/', '/objects', '/drift', '/events', '/static/app.js'])
      expect((await fetch(`${base}${path}`)).status, path).toBe(401);
    expect((await fetch(`${base}/?token=${newToken()}`, { redirect: 'manual' })).status).toBe(403);
  });
});

afterAll(() => {
  if (!SHOTS || shots.length === 0) return;
  writeUiDoc(ROOT, shots);
});
