import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { K8sObject } from '../../src/core/object.js';
import { useCluster } from '../harness/cluster.js';
import { dashboardOverAgent } from '../harness/dashboard-run.js';

/**
 * The dashboard in Firefox (Debian's firefox-esr, driven over WebDriver BiDi by puppeteer-core),
 * as the Chromium tests drive it: the same server-rendered pages, Content-Security-Policy and
 * event stream must work in both engines. Covers what differs between engines: the event stream's
 * live updates, the script under the strict CSP (no errors), keyboard focus, and a narrow screen.
 */
const cluster = useCluster({ namespacePrefix: 'gw-ui-ff' });
const HOSTILE = `"><img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>`;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await Promise.resolve(c()).catch(() => undefined);
});

let browser: Browser;
beforeAll(async () => {
  browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: process.env.GROUNDWORK_FIREFOX ?? '/usr/bin/firefox-esr',
    headless: true,
  });
}, 120_000);
afterAll(() => browser?.close());

const text = (page: Page, selector: string) =>
  page.$eval(selector, (e) => e.textContent ?? '').catch(() => '');

describe('the dashboard in Firefox', () => {
  it('shows the applied platform, follows drift live, keeps hostile text as text, and works by keyboard and at narrow widths', async () => {
    const { ns, sha, server } = await dashboardOverAgent(cluster, cleanups, { a: '1', b: HOSTILE });
    const page = await browser.newPage();
    cleanups.push(() => page.close());
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.setViewport({ width: 1200, height: 800 });

    await page.goto(server.url);
    expect(new URL(page.url()).searchParams.has('token')).toBe(false);
    await expect.poll(() => text(page, 'code.revision'), { timeout: 10_000 }).toBe(`main@sha1:${sha}`);
    await expect.poll(() => text(page, '#live-state'), { timeout: 10_000 }).toBe('live');

    // Drift arrives by the event stream, without a reload, and leaves after the correction.
    await page.goto(`http://127.0.0.1:${server.port}/drift`);
    await expect.poll(() => text(page, '#live-state'), { timeout: 10_000 }).toBe('live');
    const row = `tr[data-drift="ConfigMap/${ns}/a"]`;
    expect(await page.$(row)).toBeNull();
    const edit = async (value: string) => {
      const live = await cluster.client.request<K8sObject>('GET', `/api/v1/namespaces/${ns}/configmaps/a`);
      await cluster.client.request('PUT', `/api/v1/namespaces/${ns}/configmaps/a`, {
        body: { ...live, data: { value } },
        query: { fieldManager: 'kubectl-edit' },
      });
    };
    await edit('edited');
    await expect.poll(() => text(page, row), { timeout: 15_000, interval: 100 }).toContain('kubectl-edit');
    expect(await text(page, row)).toContain('"edited"');
    await edit('1');
    await expect
      .poll(async () => (await page.$(row)) === null, { timeout: 15_000, interval: 100 })
      .toBe(true);

    // Hostile strings in a ConfigMap's value stay text on its object page.
    await page.goto(`http://127.0.0.1:${server.port}/objects?text=b&kind=ConfigMap`);
    const links = await page.$$eval('main td a', (found) =>
      found.filter((a) => a.textContent === 'b').map((a) => a.getAttribute('href') ?? ''),
    );
    expect(links).toHaveLength(1);
    await page.goto(`http://127.0.0.1:${server.port}${links[0]}`);
    expect(await text(page, 'main')).toContain('window.__pwned=1');
    expect(await page.$$eval('main img, main script', (found) => found.length)).toBe(0);
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();

    // Keyboard: Tab reaches the navigation links, and Enter follows one.
    await page.goto(`http://127.0.0.1:${server.port}/`);
    let focused = '';
    for (let i = 0; i < 10 && !focused.includes('/objects'); i++) {
      await page.keyboard.press('Tab');
      focused = String(await page.evaluate(`document.activeElement?.href ?? ''`));
    }
    expect(focused).toContain('/objects');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    expect(new URL(page.url()).pathname).toBe('/objects');

    // Narrow: the page itself does not overflow sideways (wide tables scroll inside their box).
    await page.setViewport({ width: 380, height: 800 });
    for (const path of ['/', '/objects', '/drift', '/history']) {
      await page.goto(`http://127.0.0.1:${server.port}${path}`);
      const overflow = Number(
        await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'),
      );
      const wide = String(
        await page.evaluate(
          `[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 8).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).join(', ')`,
        ),
      );
      expect(overflow, `${path}: ${wide}`).toBeLessThanOrEqual(0);
    }
    expect(errors).toEqual([]);
  });
});
