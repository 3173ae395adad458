import { describe, expect, it } from 'vitest';
import { startDashboardServer } from '../../src/ui/dashboard-server.js';
import type { DashboardSnapshot } from '../../src/ui/snapshot.js';
import { launchChromium } from '../harness/browser.js';

/**
 * Many tabs of the dashboard in one browser (Chromium keeps six HTTP/1.1 connections per host and
 * an event stream holds one): every tab loads and goes live, the server holds one stream for all
 * of them (the page's script shares it through a SharedWorker), and a change reaches every tab.
 */
/** A dashboard server over an empty snapshot that `problems` changes, with `streams` as its limits. */
async function dashboard(streams: { perReader: number; total: number }) {
  let snapshot: DashboardSnapshot = {
    at: new Date('2026-11-27T06:00:00Z'),
    syncs: [],
    selected: undefined,
    objects: [],
    drift: [],
    openshift: {},
    problems: [],
  };
  const listeners = new Set<() => void>();
  const server = await startDashboardServer({
    token: 'c'.repeat(43),
    source: {
      snapshot: () => snapshot,
      detail: () => undefined,
      onChange: (l) => (listeners.add(l), () => listeners.delete(l)),
    },
    streams,
  });
  const problems = (list: string[]) => {
    snapshot = { ...snapshot, problems: list };
    for (const l of listeners) l();
  };
  return { server, listeners, problems };
}

describe('the dashboard in many tabs of one browser', () => {
  it('loads the eighth tab, holds one stream for all, and updates every tab on a change', async () => {
    // One stream in all: eight tabs live at once share it, and a new browser's tab is live only
    // once the stream of the closed one was released.
    const { server, listeners, problems } = await dashboard({ perReader: 1, total: 1 });
    const browser = await launchChromium();
    try {
      const context = await browser.newContext();
      const first = await context.newPage();
      await first.goto(server.url);
      const tabs = [first];
      for (let i = 1; i < 8; i++) tabs.push(await context.newPage());
      for (const tab of tabs) {
        await tab.goto(`http://127.0.0.1:${server.port}/drift`, { timeout: 15_000 });
        await expect.poll(() => tab.locator('#live-state').textContent(), { timeout: 15_000 }).toBe('live');
      }
      expect(listeners.size).toBe(1);

      problems(['a kind went away']);
      for (const tab of tabs)
        await expect
          .poll(() => tab.locator('main').textContent(), { timeout: 15_000 })
          .toContain('a kind went away');
      await context.close();
      // The last tab gone, the worker and its stream go too: another browser's tab gets the one stream.
      const later = await (await browser.newContext()).newPage();
      await later.goto(server.url);
      await expect.poll(() => later.locator('#live-state').textContent(), { timeout: 15_000 }).toBe('live');
      // The server holds one subscription to the source for every stream.
      expect(listeners.size).toBe(1);
    } finally {
      await browser.close();
      await server.close();
    }
  });

  it('a tab refused a stream (every stream taken) says so, and goes live without a reload once one is free', async () => {
    const { server, listeners } = await dashboard({ perReader: 8, total: 1 });
    const browser = await launchChromium();
    try {
      const first = await browser.newContext();
      const holder = await first.newPage();
      await holder.goto(server.url);
      await expect.poll(() => holder.locator('#live-state').textContent(), { timeout: 15_000 }).toBe('live');
      // Another browser: the one stream is taken (503), and the page says it will ask again.
      const refused = await (await browser.newContext()).newPage();
      await refused.goto(server.url);
      await expect
        .poll(() => refused.locator('#live-state').textContent(), { timeout: 15_000 })
        .toBe('live updates paused (too many open dashboards): retrying');
      await first.close();
      await expect.poll(() => refused.locator('#live-state').textContent(), { timeout: 15_000 }).toBe('live');
      expect(listeners.size).toBe(1);
    } finally {
      await browser.close();
      await server.close();
    }
  });
});
