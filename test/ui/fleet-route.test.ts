import { afterEach, describe, expect, it } from 'vitest';
import type { FleetView } from '../../src/fleet/fleet-view.js';
import { startDashboardServer, type RunningDashboard } from '../../src/ui/dashboard-server.js';
import { FleetPoller } from '../../src/ui/fleet-poller.js';
import { hostileSnapshot } from './fixtures.js';

const TOKEN = 'f'.repeat(43);
const source = { snapshot: hostileSnapshot, detail: () => undefined, onChange: () => () => {} };
const auth = { authorization: `token ${TOKEN}` };
const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.close();
});

async function serve(fleet?: FleetPoller): Promise<RunningDashboard> {
  const server = await startDashboardServer({ source, token: TOKEN, ...(fleet ? { fleet } : {}) });
  running.push(server);
  return server;
}

describe('the /fleet route', () => {
  it('is 404 without a fleet (the agent), and the pages link no Fleet page', async () => {
    const server = await serve();
    const res = await fetch(`http://127.0.0.1:${server.port}/fleet`, { headers: auth });
    expect(res.status).toBe(404);
    const overview = await (await fetch(`http://127.0.0.1:${server.port}/`, { headers: auth })).text();
    expect(overview).not.toContain('href="/fleet"');
  });

  it('starts the reads on the first visit and tells open pages by Server-Sent Events when the fleet changed', async () => {
    let release: (v: FleetView) => void = () => {};
    let reads = 0;
    const poller = new FleetPoller({
      intervalMs: 3_600_000,
      read: () => {
        reads++;
        return new Promise<FleetView>((r) => (release = r));
      },
    });
    running.push({ close: () => poller.stop() });
    const server = await serve(poller);
    const base = `http://127.0.0.1:${server.port}`;
    expect(reads).toBe(0);
    const events = await fetch(`${base}/events`, { headers: auth });
    const reader = events.body!.getReader();
    const first = await fetch(`${base}/fleet`, { headers: auth });
    expect(first.status).toBe(200);
    expect(await first.text()).toContain('Reading the fleet');
    expect(reads).toBe(1);
    release({ at: new Date(0), platform: 'shop', environments: [], others: [], problems: [] });
    let text = '';
    while (!text.includes('event: change')) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const page = await (await fetch(`${base}/fleet`, { headers: auth })).text();
    expect(page).toContain('Platform <strong>shop</strong>');
    expect(page).toContain('aria-current="page"');
    expect(reads).toBe(1);
  });
});
