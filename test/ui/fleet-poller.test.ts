import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FleetView } from '../../src/fleet/fleet-view.js';
import { FleetPoller } from '../../src/ui/fleet-poller.js';

const view = (platform: string, at = new Date(0)): FleetView => ({
  at,
  platform,
  environments: [],
  others: [],
  problems: [],
});

afterEach(() => vi.useRealTimers());

describe('FleetPoller: one read per interval for every browser', () => {
  it('reads nothing until the page is wanted, then once per interval, never two at a time', async () => {
    vi.useFakeTimers();
    let reads = 0;
    let inFlight = 0;
    let most = 0;
    const poller = new FleetPoller({
      intervalMs: 30_000,
      read: async () => {
        reads++;
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, 10_000));
        inFlight--;
        return view('p');
      },
    });
    await vi.advanceTimersByTimeAsync(120_000);
    expect(reads).toBe(0);
    expect(poller.state()).toEqual({ reading: false, intervalMs: 30_000 });
    // Fifty browsers ask for the page at once: one read.
    for (let i = 0; i < 50; i++) poller.wanted();
    expect(reads).toBe(1);
    expect(poller.state().reading).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(poller.state()).toMatchObject({ reading: false, view: { platform: 'p' }, lastReadMs: 10_000 });
    // The next read starts an interval after the previous one ended: 40 s per cycle here.
    await vi.advanceTimersByTimeAsync(29_999);
    expect(reads).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(reads).toBe(2);
    await vi.advanceTimersByTimeAsync(80_000);
    expect(reads).toBe(4);
    expect(most).toBe(1);
    const stopping = poller.stop();
    await vi.advanceTimersByTimeAsync(100_000);
    await stopping;
    expect(reads).toBe(4);
  });

  it('tells listeners of a changed view or a failed read, not of a read that found the same fleet', async () => {
    vi.useFakeTimers();
    const results: (FleetView | Error)[] = [
      view('a', new Date(1)),
      view('a', new Date(2)),
      view('b'),
      new Error('kubeconfig vanished'),
      view('b'),
    ];
    const poller = new FleetPoller({
      intervalMs: 5_000,
      read: async () => {
        const next = results.shift()!;
        if (next instanceof Error) throw next;
        return next;
      },
    });
    const heard: string[] = [];
    poller.onChange(() => {
      const s = poller.state();
      heard.push(`${s.view?.platform ?? '-'}${s.error ? ` (${s.error})` : ''}`);
    });
    poller.wanted();
    await vi.advanceTimersByTimeAsync(22_000);
    expect(heard).toEqual(['a', 'b', 'b (kubeconfig vanished)', 'b']);
    await poller.stop();
  });
});
