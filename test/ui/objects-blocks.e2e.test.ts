import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDashboardServer, type RunningDashboard } from '../../src/ui/dashboard-server.js';
import { PAGE_SIZE, ROWS_PER_BLOCK } from '../../src/ui/pages/objects.js';
import type { DashboardSnapshot } from '../../src/ui/snapshot.js';
import { seriousViolations } from '../harness/axe.js';
import { launchChromium } from '../harness/browser.js';

/**
 * The Objects page's rows in blocks that the browser skips while they are off screen
 * (`content-visibility: auto`), in a real browser: the blocks' columns line up, every block's
 * header is in the accessibility tree, the keyboard moves from one block into the next (which is
 * then drawn and scrolled to), a narrow screen scrolls the table sideways without clipping it, and
 * axe finds no serious violations. The pages are pure functions of a snapshot, so the snapshot is
 * built here rather than read from a cluster (the dashboard e2e does that).
 */
const N = 300;
const snapshot: DashboardSnapshot = {
  at: new Date('2026-11-27T06:00:00Z'),
  syncs: [],
  selected: undefined,
  objects: Array.from({ length: N }, (_, i) => ({
    id: `shop_o${i}__ConfigMap`,
    ref: { group: '', kind: 'ConfigMap', namespace: 'shop', name: `o${i}` },
    stage: 'resources' as const,
    health: { status: i % 7 ? ('Healthy' as const) : ('Degraded' as const), reason: 'Exists', message: '' },
  })),
  drift: [],
  openshift: {},
  problems: [],
};

let browser: Browser;
let server: RunningDashboard;
beforeAll(async () => {
  browser = await launchChromium();
  server = await startDashboardServer({
    token: 'b'.repeat(43),
    source: { snapshot: () => snapshot, detail: () => undefined, onChange: () => () => undefined },
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the Objects page in blocks of rows', () => {
  it('lines up the blocks, names every column, moves focus across blocks and stays usable at 380 px', async () => {
    expect(N).toBeLessThanOrEqual(PAGE_SIZE);
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on(
      'response',
      (r) => r.status() >= 400 && errors.push(`${r.status()} ${new URL(r.url()).pathname}`),
    );
    await page.goto(server.url);
    await page.goto(`http://127.0.0.1:${server.port}/objects`);
    const blocks = N / ROWS_PER_BLOCK;
    expect(await page.locator('table.objects').count()).toBe(blocks);
    // The later blocks' headers are out of sight, yet screen readers get each table's columns.
    expect(await page.getByRole('columnheader', { name: 'Name', exact: true }).count()).toBe(blocks);
    expect(await page.getByRole('row').count()).toBe(N + blocks);
    expect(await seriousViolations(page)).toEqual([]);

    // A block far below is not drawn until it comes near: the browser skipped it.
    const last = page.getByRole('link', { name: `o${N - 1}`, exact: true });
    const skipped = await last.evaluate((a) => !a.checkVisibility({ contentVisibilityAuto: true }));
    expect(skipped).toBe(true);

    // Tab from the last link of the first block lands on the first of the second, drawn and in view.
    await page.getByRole('link', { name: `o${ROWS_PER_BLOCK - 1}`, exact: true }).focus();
    await page.keyboard.press('Tab');
    const focused = page.locator(':focus');
    expect(await focused.textContent()).toBe(`o${ROWS_PER_BLOCK}`);
    const box = (await focused.boundingBox())!;
    expect(box.height).toBeGreaterThan(0);
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(800);

    // The same column starts at the same x in the first and the last block.
    const nameCellX = async (name: string) => {
      const cell = page.getByRole('link', { name, exact: true }).locator('xpath=..');
      await cell.scrollIntoViewIfNeeded();
      return (await cell.boundingBox())!.x;
    };
    expect(await nameCellX(`o${N - 1}`)).toBeCloseTo(await nameCellX('o0'), 0);

    // Narrow: the table keeps its width and scrolls sideways; nothing is cut off.
    await page.setViewportSize({ width: 380, height: 800 });
    await page.goto(`http://127.0.0.1:${server.port}/objects`);
    const scroll = page.locator('.scroll').first();
    const [scrollWidth, clientWidth] = await scroll.evaluate((el) => [el.scrollWidth, el.clientWidth]);
    expect(scrollWidth).toBeGreaterThan(clientWidth);
    const drift = page.getByRole('columnheader', { name: 'Drift' }).first();
    await drift.scrollIntoViewIfNeeded();
    const driftBox = (await drift.boundingBox())!;
    expect(driftBox.width).toBeGreaterThan(0);
    expect(driftBox.x + driftBox.width).toBeLessThanOrEqual(380);
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
