import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchTransport } from '../../../src/report/notifications/fetch-transport.js';
import { DeliveryQueue } from '../../../src/report/notifications/delivery-queue.js';
import { Notifier } from '../../../src/report/notifications/notifier.js';
import type { Transport } from '../../../src/report/notifications/http-request.js';
import { GroundworkMetrics } from '../../../src/report/metrics.js';
import { startAlertReceiver, type AlertReceiver } from '../../harness/alert-receiver.js';

const REV = `main@sha1:${'b'.repeat(40)}`;
const KEY = 'hmac-key-for-tests-0123456789';
const failed = {
  type: 'cycle-ended' as const,
  revision: REV,
  good: false,
  suspended: false,
  failure: { reason: 'ApplyFailed', message: 'Deployment/x: Invalid' },
  drift: [],
  mode: 'detect-only' as const,
};
const fast = { attempts: 3, baseMs: 20, maxMs: 50 };

let receivers: AlertReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  receivers = [];
});
async function receiver(mode: 'ok' | 'fail' | 'hang', key = KEY) {
  const r = await startAlertReceiver(key, mode);
  receivers.push(r);
  return r;
}

function notifier(
  targets: { name: string; url: string; type?: 'webhook' | 'slack' }[],
  metrics: GroundworkMetrics,
) {
  const n = new Notifier({
    transport: fetchTransport,
    cluster: 'eu-1',
    overlay: 'staging',
    retry: fast,
    attemptTimeoutMs: 300,
    events: {
      delivered: (t) => metrics.notification(t, 'sent'),
      failed: (t) => metrics.notification(t, 'failed'),
      dropped: (t) => metrics.notification(t, 'dropped'),
    },
  });
  n.configure({
    environment: 'staging',
    platform: 'shop',
    targets: targets.map((t) => ({ name: t.name, type: t.type ?? 'webhook', url: t.url, signingKey: KEY })),
  });
  return n;
}

const count = async (m: GroundworkMetrics, name: string, target: string) =>
  Number(new RegExp(`^${name}\\{target="${target}"\\} (\\d+)$`, 'm').exec(await m.text())?.[1] ?? 0);

describe('alert delivery', () => {
  it('signs the body with HMAC-SHA256; a receiver with the key verifies it, one without does not', async () => {
    const good = await receiver('ok');
    const other = await receiver('ok', 'another-key');
    const metrics = new GroundworkMetrics({ processMetrics: false });
    const n = notifier(
      [
        { name: 'ops', url: good.url },
        { name: 'other', url: other.url },
      ],
      metrics,
    );
    n.notify(failed);
    await vi.waitFor(() => expect(good.received.length + other.received.length).toBe(2), { timeout: 10_000 });
    await n.close();
    expect(good.received[0]).toMatchObject({ verified: true, event: 'ApplyFailed' });
    expect(good.received[0]!.body).toMatchObject({
      format: 'groundwork.io/alert/v1',
      event: 'ApplyFailed',
      environment: 'staging',
      cluster: 'eu-1',
      platform: 'shop',
      revision: REV,
      reason: 'ApplyFailed',
    });
    expect(good.received[0]!.delivery).toBe(good.received[0]!.body.id);
    expect(other.received[0]!.verified).toBe(false);
    expect(await count(metrics, 'groundwork_notifications_sent_total', 'ops')).toBe(1);
  });

  it('a receiver that fails is retried with the same delivery id, then counted as failed', async () => {
    const bad = await receiver('fail');
    const metrics = new GroundworkMetrics({ processMetrics: false });
    const n = notifier([{ name: 'flaky', url: bad.url }], metrics);
    n.notify(failed);
    await vi.waitFor(
      async () => expect(await count(metrics, 'groundwork_notification_failures_total', 'flaky')).toBe(1),
      { timeout: 10_000 },
    );
    await n.close();
    expect(bad.received).toHaveLength(3);
    expect(new Set(bad.received.map((r) => r.delivery)).size).toBe(1);
  });

  it('notify returns while a hanging receiver holds the delivery; the attempt times out and is retried', async () => {
    const hang = await receiver('hang');
    const ok = await receiver('ok');
    const metrics = new GroundworkMetrics({ processMetrics: false });
    const n = notifier(
      [
        { name: 'hang', url: hang.url },
        { name: 'ok', url: ok.url },
      ],
      metrics,
    );
    n.notify(failed); // returns at once: nothing is awaited
    expect(n.pending).toBeGreaterThan(0);
    // The other target is not held up by the hanging one.
    await vi.waitFor(() => expect(ok.received).toHaveLength(1), { timeout: 10_000 });
    expect(await count(metrics, 'groundwork_notification_failures_total', 'hang')).toBe(0);
    await vi.waitFor(
      async () => expect(await count(metrics, 'groundwork_notification_failures_total', 'hang')).toBe(1),
      { timeout: 10_000 },
    );
    expect(hang.arrivals).toBe(3);
    await n.close();
  });

  it('a slack target gets {"text"} naming the event, with the summary escaped', async () => {
    const slack = await receiver('ok');
    const metrics = new GroundworkMetrics({ processMetrics: false });
    const n = notifier([{ name: 'chat', url: slack.url, type: 'slack' }], metrics);
    n.notify({ ...failed, failure: { reason: 'ApplyFailed', message: '<!channel> <https://evil|x>' } });
    await vi.waitFor(() => expect(slack.received).toHaveLength(1), { timeout: 10_000 });
    await n.close();
    const text = String(slack.received[0]!.body.text);
    expect(text).toContain('*ApplyFailed* shop staging/eu-1');
    expect(text).toContain('&lt;!channel&gt;');
    expect(text).not.toContain('<!channel>');
    expect(slack.received[0]!.verified).toBe(false); // not signed
  });
});

describe('DeliveryQueue', () => {
  /** A transport whose sends wait until released, recording bodies. */
  function heldTransport() {
    const bodies: string[] = [];
    const waiting: (() => void)[] = [];
    const transport: Transport = {
      send: (req) =>
        new Promise((resolve) => {
          bodies.push(req.body);
          waiting.push(() => resolve({ status: 200 }));
        }),
    };
    return { transport, bodies, release: () => waiting.splice(0).forEach((f) => f()) };
  }
  const req = (body: string) => ({ method: 'POST' as const, url: 'http://x', headers: {}, body });

  it('replaces a waiting item with a newer one of the same key, drops the oldest past capacity', async () => {
    const held = heldTransport();
    const dropped: string[] = [];
    const q = new DeliveryQueue({
      transport: held.transport,
      capacity: 2,
      events: { dropped: (t) => dropped.push(t) },
    });
    q.push('t', req('first'));
    await vi.waitFor(() => expect(held.bodies).toEqual(['first']));
    q.push('t', req('pending A'), { coalesce: 'sha' });
    q.push('t', req('success A'), { coalesce: 'sha' }); // replaces pending A: never sent
    q.push('t', req('b'));
    q.push('t', req('c')); // past capacity 2: the oldest waiting (success A) goes
    for (let i = 0; i < 4; i++) {
      held.release();
      await new Promise((r) => setImmediate(r));
    }
    await vi.waitFor(() => {
      held.release();
      expect(held.bodies).toEqual(['first', 'b', 'c']);
    });
    expect(dropped).toEqual(['t']);
    await q.close();
  });

  it('after close, counts what is pushed as dropped', async () => {
    const dropped: string[] = [];
    const q = new DeliveryQueue({
      transport: heldTransport().transport,
      events: { dropped: (t) => dropped.push(t) },
    });
    await q.close();
    q.push('t', req('late'));
    expect(dropped).toEqual(['t']);
  });
});
