import { errorMessage } from '../core/errors.js';
import type { FleetView } from '../fleet/fleet-view.js';
import type { FleetReader, FleetState } from './fleet-state.js';

export interface FleetPollerOptions {
  /** Reads the whole fleet once (clusters, commits behind, every promotion's gates). */
  read(): Promise<FleetView>;
  /** Time between the end of one read and the start of the next. @default 30000 */
  intervalMs?: number;
  onError?: (err: unknown) => void;
}

/**
 * Reads the fleet on a fixed interval for every browser at once: the first request for the Fleet
 * page (`wanted`) starts the reads, then one read runs every `intervalMs` after the previous one
 * ended (never two at a time, never one per request) until `stop`. Pages render `state()`, which
 * costs nothing. Listeners hear of a read whose view differs from the last one (its time aside)
 * and of a read that failed, so open pages refresh by Server-Sent Events.
 */
export class FleetPoller implements FleetReader {
  private current: FleetState;
  private readonly listeners = new Set<() => void>();
  private started = false;
  private stopped = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private fingerprint = '';
  /** The read under way (or the last one, settled). */
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly opts: FleetPollerOptions) {
    this.current = { reading: false, intervalMs: opts.intervalMs ?? 30_000 };
  }

  state(): FleetState {
    return this.current;
  }

  wanted(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    void this.tick();
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops the reads: nothing follows the read under way, whose end it resolves after. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.listeners.clear();
    await this.running;
  }

  private tick(): Promise<void> {
    this.running = this.readOnce().finally(() => {
      if (this.stopped) return;
      this.timer = setTimeout(() => void this.tick(), this.current.intervalMs);
      this.timer.unref?.();
    });
    return this.running;
  }

  private async readOnce(): Promise<void> {
    this.current = { ...this.current, reading: true };
    const started = Date.now();
    let changed: boolean;
    try {
      const view = await this.opts.read();
      const { at: _at, ...rest } = view;
      const key = JSON.stringify(rest);
      changed = key !== this.fingerprint || this.current.error !== undefined;
      this.fingerprint = key;
      this.current = {
        view,
        reading: false,
        intervalMs: this.current.intervalMs,
        lastReadMs: Date.now() - started,
      };
    } catch (err) {
      this.opts.onError?.(err);
      changed = true;
      this.current = {
        ...(this.current.view ? { view: this.current.view } : {}),
        error: errorMessage(err),
        reading: false,
        intervalMs: this.current.intervalMs,
        lastReadMs: Date.now() - started,
      };
    }
    if (changed && !this.stopped) for (const l of this.listeners) l();
  }
}
