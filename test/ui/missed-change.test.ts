import { afterEach, describe, expect, it } from 'vitest';
import type { FleetView } from '../../src/fleet/fleet-view.js';
import { startDashboardServer } from '../../src/ui/dashboard-server.js';
import { FleetPoller } from '../../src/ui/fleet-poller.js';
import { hostileSnapshot } from './fixtures.js';

const TOKEN = 'm'.repeat(43);
const auth = { authorization: `token ${TOKEN}` };
const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.close();
});

/** The first chunks of a stream, until `want` appears (the stream is then closed). */
async function streamUntil(url: string, want: RegExp): Promise<string> {
  const ctrl = new AbortController();
  const res = await fetch(url, { headers: auth, signal: ctrl.signal });
  const reader = res.body!.getReader();
  let text = '';
  while (!want.test(text)) text += new TextDecoder().decode((await reader.read()).value);
  ctrl.abort();
  return text;
}

const countOf = (page: string) => /<main[^>]*data-changes="(\d+)"/.exec(page)?.[1];

/**
 * A change told before a page's stream opened must not be lost: the Fleet page's first read can end
 * between the page being rendered ("Reading the fleet") and the browser subscribing, and an unchanged
 * fleet tells no further change, so the page would wait for good.
 */
describe('a change told before the page listened', () => {
  it('is seen by a stream opened later: its version differs from the page it was rendered at', async () => {
    let release: (v: FleetView) => void = () => {};
    const fleet = new FleetPoller({
      intervalMs: 3_600_000,
      read: () => new Promise<FleetView>((r) => (release = r)),
    });
    running.push({ close: () => fleet.stop() });
    let listeners: (() => void)[] = [];
    const source = {
      snapshot: hostileSnapshot,
      detail: () => undefined,
      onChange: (l: () => void) => {
        listeners.push(l);
        return () => (listeners = listeners.filter((x) => x !== l));
      },
    };
    const server = await startDashboardServer({ source, token: TOKEN, fleet });
    running.push(server);
    const base = `http://127.0.0.1:${server.port}`;

    const reading = await (await fetch(`${base}/fleet`, { headers: auth })).text();
    expect(reading).toContain('Reading the fleet');
    expect(countOf(reading)).toBe('0');
    // The read ends while no stream is open: the change is told to nobody.
    release({ at: new Date(0), platform: 'shop', environments: [], others: [], problems: [] });
    await expect.poll(() => fleet.state().view?.platform).toBe('shop');

    // The page's stream opens now: it says one change has been told, the page was rendered at none.
    expect(await streamUntil(`${base}/events`, /event: version\ndata: \d+\n\n/)).toMatch(
      /^retry: 2000\n\nevent: version\ndata: 1\n\n/,
    );
    const fresh = await (await fetch(`${base}/fleet`, { headers: auth })).text();
    expect(fresh).toContain('Platform <strong>shop</strong>');
    expect(countOf(fresh)).toBe('1');

    // A change of the cluster source counts too, and each change event carries the new count.
    const ctrl = new AbortController();
    const res = await fetch(`${base}/events`, { headers: auth, signal: ctrl.signal });
    const reader = res.body!.getReader();
    let text = new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain('event: version\ndata: 1\n');
    for (const l of listeners) l();
    while (!text.includes('event: change')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain('event: change\ndata: 2\n');
    ctrl.abort();
  });
});
