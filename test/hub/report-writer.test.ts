import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { KubeClient } from '../../src/cluster/client.js';
import type { ReportBody } from '../../src/hub/member-report.js';
import { ReportWriter } from '../../src/hub/report-writer.js';

// The writer's pacing against a recording client (the real apiserver path is in
// hub-registration.e2e.test.ts): what is written, when, and with which sequence.

const body = (status: 'True' | 'False', overlay = 'prod'): ReportBody => ({
  overlay,
  ready: { status, reason: status === 'True' ? 'Applied' : 'Failed' },
});

describe('ReportWriter', () => {
  let writes: { path: string; value: { sequence: number; overlay: string } }[];
  let fail = false;
  const client = {
    request: async (
      _method: string,
      path: string,
      opts: { body: [{ value: { sequence: number; overlay: string } }] },
    ) => {
      if (fail) throw new Error('hub unreachable');
      writes.push({ path, value: opts.body[0].value });
      return {};
    },
  } as unknown as KubeClient;
  const log = { info: () => undefined, warn: () => undefined };
  const writer = (sequence = 0) =>
    new ReportWriter(() => client, 'eu-1', sequence, {
      pacing: { debounceMs: 2000, minIntervalMs: 10_000 },
      log,
      now: () => Date.now(),
    });

  beforeEach(() => {
    vi.useFakeTimers();
    writes = [];
    fail = false;
  });
  afterEach(() => vi.useRealTimers());

  it('folds changes within the debounce into one write to its own status', async () => {
    const w = writer(4);
    w.offer(body('True', 'a'));
    await vi.advanceTimersByTimeAsync(1000);
    w.offer(body('True', 'b'));
    // The debounce runs from the first change: later ones fold in without pushing it back.
    await vi.advanceTimersByTimeAsync(999);
    expect(writes).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(writes).toHaveLength(1);
    expect(writes[0]!.path).toBe(
      '/apis/hub.groundwork.io/v1alpha1/namespaces/member-eu-1/fleetmembers/eu-1/status',
    );
    expect(writes[0]!.value).toMatchObject({ sequence: 5, overlay: 'b' });
  });

  it('never writes a body equal to the last one written', async () => {
    const w = writer();
    w.offer(body('True'));
    await vi.advanceTimersByTimeAsync(2000);
    w.offer(body('True'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(writes).toHaveLength(1);
  });

  it('holds a change to the minimum interval, unless Ready flips', async () => {
    const w = writer();
    w.offer(body('True', 'a'));
    await vi.advanceTimersByTimeAsync(2000);
    w.offer(body('True', 'b'));
    await vi.advanceTimersByTimeAsync(9000);
    expect(writes).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(writes.map((x) => x.value.overlay)).toEqual(['a', 'b']);
    // Ready flips: written after the debounce, not the interval.
    w.offer(body('False', 'b'));
    await vi.advanceTimersByTimeAsync(2000);
    expect(writes.map((x) => x.value.sequence)).toEqual([1, 2, 3]);
  });

  it('writes a newly applied revision after the debounce, not the interval', async () => {
    const w = writer();
    const applied = (revision: string): ReportBody => ({ ...body('True'), revision: { applied: revision } });
    w.offer(applied('main@sha1:1111111111111111111111111111111111111111'));
    await vi.advanceTimersByTimeAsync(2000);
    expect(writes).toHaveLength(1);
    // The released commit applied 2 s later: written 2 s after that, not 10 s after the last write.
    w.offer(applied('main@sha1:2222222222222222222222222222222222222222'));
    await vi.advanceTimersByTimeAsync(2000);
    expect(writes).toHaveLength(2);
    // Anything else still waits out the interval.
    w.offer({ ...applied('main@sha1:2222222222222222222222222222222222222222'), overlay: 'other' });
    await vi.advanceTimersByTimeAsync(2000);
    expect(writes).toHaveLength(2);
  });

  it('drops a body that does not pass the schema, and tries a failed write again', async () => {
    const w = writer();
    w.offer({ ...body('True'), overlay: 'x'.repeat(10_000) });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(writes).toHaveLength(0);
    fail = true;
    w.offer(body('True'));
    await vi.advanceTimersByTimeAsync(2000);
    expect(writes).toHaveLength(0);
    fail = false;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(writes).toHaveLength(1);
    expect(writes[0]!.value.sequence).toBe(1);
    await w.stop();
  });
});
