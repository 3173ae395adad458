import { afterEach, describe, expect, it } from 'vitest';
import { readFleetMember } from '../../src/hub/member-schema.js';
import { readFleetRollout } from '../../src/hub/rollout-schema.js';
import { startDashboardServer } from '../../src/ui/dashboard-server.js';
import type { FleetReader, FleetState } from '../../src/ui/fleet-state.js';
import { HOSTILE, hostileSnapshot } from '../ui/fixtures.js';

// The Fleet page with `groundwork ui --hub` draws what the hub holds: FleetMembers whose status a
// member's agent writes (and whose names and labels anyone with rights on the hub chooses), and
// FleetRollouts whose status carries members' messages. It also reads `?selector=` from the URL.
// All of it is data: rendered as text, never markup; a bad selector is said, never a crash.

const TOKEN = 'h'.repeat(43);
const auth = { authorization: `token ${TOKEN}` };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

const hostileMember = readFleetMember({
  metadata: {
    name: HOSTILE,
    namespace: HOSTILE,
    labels: { region: 'eu', 'hub.groundwork.io/reachability': HOSTILE },
  },
  spec: {},
  status: {
    sequence: 1,
    reportedAt: '2026-11-28T07:00:00Z',
    ready: { status: 'False', reason: 'Degraded', message: HOSTILE },
  },
});
// A report the schema refuses: its problem names the field, the row says so as text.
const oddMember = readFleetMember({
  metadata: { name: 'odd', namespace: 'member-odd', labels: { region: 'eu' } },
  status: { sequence: 1, reportedAt: 'x', ready: { status: HOSTILE, reason: HOSTILE } },
});
const hostileRollout = readFleetRollout({
  metadata: { name: 'r1' },
  spec: {
    environment: 'prod',
    ref: 'env/prod',
    revision: 'c'.repeat(40),
    waves: [{ name: 'all', percent: 100 }],
    maxUnavailable: '1',
    maxFailures: '0',
    bakeSeconds: 0,
    progressDeadlineSeconds: 600,
  },
  status: {
    phase: 'Halted',
    message: HOSTILE,
    halted: { reason: 'CanaryFailed', message: HOSTILE, at: '2026-11-28T07:00:00Z' },
    waves: [{ name: 'all', state: 'Progressing', members: 1, succeeded: 0, failed: 1, held: 0 }],
    members: [{ name: 'm1', wave: 0, state: 'Failed', reason: 'NotReady', message: HOSTILE.slice(0, 160) }],
  },
});

async function serve(): Promise<string> {
  const state: FleetState = {
    reading: false,
    intervalMs: 0,
    hub: {
      members: [hostileMember, oddMember],
      rollouts: [hostileRollout],
      problems: [HOSTILE],
      watching: true,
    },
  };
  const fleet: FleetReader = { state: () => state, wanted: () => {}, onChange: () => () => {} };
  const source = { snapshot: hostileSnapshot, detail: () => undefined, onChange: () => () => {} };
  const server = await startDashboardServer({ source, token: TOKEN, fleet });
  closers.push(() => server.close());
  return `http://127.0.0.1:${server.port}`;
}

function noMarkupFromData(page: string): void {
  expect(page).not.toContain('<script>alert');
  expect(page).not.toContain('<img src=x');
  expect(page).not.toMatch(/onerror=alert\(2\)>/);
}

describe('the hub Fleet page against hostile hub content and queries', () => {
  it('renders hostile member names, namespaces, labels, messages and reasons as text', async () => {
    const res = await fetch(`${await serve()}/fleet`, { headers: auth });
    expect(res.status).toBe(200);
    const page = await res.text();
    noMarkupFromData(page);
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('data-member="&quot;&gt;&lt;script&gt;alert(1)');
    expect(page).toContain('halted: CanaryFailed: &quot;&gt;&lt;script&gt;');
    expect(page).toContain('report unreadable');
    expect(page).toContain('data-member="odd"');
  });

  it.each([
    HOSTILE,
    `region=${HOSTILE}`,
    `${HOSTILE}=eu`,
    'a'.repeat(5000),
    Array.from({ length: 40 }, () => 'k=v').join(','),
    '%00=\u0000',
    'region in (eu)',
  ])('refuses the selector %j visibly, filters nothing and does not crash', async (q) => {
    const res = await fetch(`${await serve()}/fleet?${new URLSearchParams({ selector: q })}`, {
      headers: auth,
    });
    expect(res.status).toBe(200);
    const page = await res.text();
    noMarkupFromData(page);
    expect(page).toContain('The selector is refused');
    expect(page.match(/data-member=/g)).toHaveLength(2);
  });

  it('a valid selector narrows the members, and one that matches nothing says so', async () => {
    const base = await serve();
    const none = await (await fetch(`${base}/fleet?selector=region%3Dus`, { headers: auth })).text();
    expect(none).toContain('No member matches.');
    const eu = await (await fetch(`${base}/fleet?selector=region%3Deu`, { headers: auth })).text();
    expect(eu.match(/data-member=/g)).toHaveLength(2);
  });
});
