import { randomInt } from 'node:crypto';
import { hostname } from 'node:os';
import { k8sObjectSchema } from '../core/cluster-object.js';
import type { ObjectRef } from '../core/object-id.js';
import type { K8sObject } from '../core/object.js';
import { redactText } from '../core/redact.js';
import { isNotFound } from './api-error.js';
import type { KubeClient } from './client.js';
import { microTime } from './lease-store.js';

/** The object an Event is about, as `events.k8s.io/v1` `regarding` holds it. */
interface EventObjectReference {
  /** Left out when unknown (an object that does not exist, known only by its ObjectRef). */
  apiVersion?: string;
  kind: string;
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
}

/** One occurrence to record. `note` must already be redacted by the caller; it is redacted again. */
interface EventInput {
  /** The object (live, with uid and resourceVersion when it exists) or a reference to it. */
  regarding: K8sObject | EventObjectReference | ObjectRef;
  related?: K8sObject | EventObjectReference | ObjectRef;
  /** @default 'Normal' */
  type?: 'Normal' | 'Warning';
  /** CamelCase, e.g. `DriftDetected`, `Healed`, `ApplyFailed`. */
  reason: string;
  /** What the agent did or failed to do, e.g. `Detect`, `Apply`, `Prune`. */
  action: string;
  /** Human text, at most 1 kB (longer text is cut). */
  note: string;
}

/** What `record` did: the Event's name and its occurrence count (1, or the series count). */
interface RecordedEvent {
  namespace: string;
  name: string;
  count: number;
}

interface EventRecorderOptions {
  /** `reportingInstance`, e.g. the pod name. @default os.hostname() */
  reportingInstance?: string;
  /** @default 'groundwork.io/agent' */
  reportingController?: string;
  /** Repeats within this time of the last occurrence join a series. @default 360_000 (client-go's 6 minutes) */
  seriesWindowMs?: number;
  /**
   * After the first repeat (written at once, as client-go does), series updates are coalesced and
   * written at most this often, and by `flush()`. @default 30_000
   */
  seriesUpdateIntervalMs?: number;
  /** @default () => new Date() */
  now?: () => Date;
}

export const REPORTING_CONTROLLER = 'groundwork.io/agent';
const NOTE_LIMIT = 1024;

interface SeriesEntry {
  namespace: string;
  name: string;
  count: number;
  lastObserved: Date;
  lastWritten: number;
  dirty: boolean;
}

/**
 * Emits `events.k8s.io/v1` Events and folds repeats into a series as client-go's event recorder
 * does: an occurrence with the same regarding object, type, reason, action and note within
 * `seriesWindowMs` of the previous one updates `series.count` and `series.lastObservedTime` of the
 * existing Event instead of creating a new one. `record` rejects when the apiserver refuses the write
 * (callers usually log and go on: events are best-effort). Notes go through `redactText`.
 *
 * @example
 * const events = new EventRecorder(client, { reportingInstance: podName });
 * await events.record({ regarding: liveObj, type: 'Warning', reason: 'DriftDetected', action: 'Detect',
 *   note: 'data.x changed by kubectl-edit' });
 */
export class EventRecorder {
  private readonly series = new Map<string, SeriesEntry>();
  private readonly chains = new Map<string, Promise<unknown>>();
  private timer: NodeJS.Timeout | undefined;
  private readonly opts: Required<EventRecorderOptions>;

  constructor(
    private readonly client: KubeClient,
    opts: EventRecorderOptions = {},
  ) {
    this.opts = {
      reportingInstance: opts.reportingInstance ?? hostname(),
      reportingController: opts.reportingController ?? REPORTING_CONTROLLER,
      seriesWindowMs: opts.seriesWindowMs ?? 360_000,
      seriesUpdateIntervalMs: opts.seriesUpdateIntervalMs ?? 30_000,
      now: opts.now ?? (() => new Date()),
    };
  }

  /** Records one occurrence: a new Event, or a series update of an isomorphic one. */
  record(input: EventInput): Promise<RecordedEvent> {
    const regarding = referenceOf(input.regarding);
    const note = clipBytes(redactText(input.note), NOTE_LIMIT);
    const type = input.type ?? 'Normal';
    const key = JSON.stringify([
      regarding.apiVersion,
      regarding.kind,
      regarding.namespace,
      regarding.name,
      regarding.uid,
      type,
      input.reason,
      input.action,
      note,
    ]);
    // One occurrence at a time per key, so concurrent repeats never create two Events.
    const run = (this.chains.get(key) ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => this.occur(key, { ...input, type, note, regarding }));
    this.chains.set(key, run);
    const forget = () => {
      if (this.chains.get(key) === run) this.chains.delete(key);
    };
    run.then(forget, forget);
    return run;
  }

  /** Writes every series update not yet written. */
  async flush(): Promise<void> {
    await Promise.all([...this.series.values()].filter((e) => e.dirty).map((e) => this.writeSeries(e)));
  }

  /** Flushes pending series updates and stops the flush timer. */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async occur(
    key: string,
    e: EventInput & { regarding: EventObjectReference; type: 'Normal' | 'Warning' },
  ): Promise<RecordedEvent> {
    const now = this.opts.now();
    this.forgetFinished(now);
    const entry = this.series.get(key);
    if (entry) {
      entry.count++;
      entry.lastObserved = now;
      entry.dirty = true;
      // The first repeat is written at once (it turns the Event into a series); later ones coalesce.
      if (entry.count === 2 || now.getTime() - entry.lastWritten >= this.opts.seriesUpdateIntervalMs) {
        if (await this.writeSeries(entry))
          return { namespace: entry.namespace, name: entry.name, count: entry.count };
        this.series.delete(key); // the Event expired (events have a TTL): start a new one
      } else {
        this.scheduleFlush();
        return { namespace: entry.namespace, name: entry.name, count: entry.count };
      }
    }
    const namespace = e.regarding.namespace || 'default';
    const created = await this.client.request(
      'POST',
      `/apis/events.k8s.io/v1/namespaces/${namespace}/events`,
      {
        body: {
          apiVersion: 'events.k8s.io/v1',
          kind: 'Event',
          metadata: {
            name: eventName(e.regarding.name, now),
            namespace,
          },
          eventTime: microTime(now),
          reportingController: this.opts.reportingController,
          reportingInstance: this.opts.reportingInstance,
          action: e.action,
          reason: e.reason,
          type: e.type,
          note: e.note,
          regarding: e.regarding,
          ...(e.related ? { related: referenceOf(e.related) } : {}),
        },
        noRetry: true,
        schema: k8sObjectSchema,
      },
    );
    const fresh: SeriesEntry = {
      namespace,
      name: created.metadata.name,
      count: 1,
      lastObserved: now,
      lastWritten: now.getTime(),
      dirty: false,
    };
    this.series.set(key, fresh);
    return { namespace, name: fresh.name, count: 1 };
  }

  /** Patches the Event's series; false when the Event no longer exists. */
  private async writeSeries(entry: SeriesEntry): Promise<boolean> {
    const count = entry.count;
    try {
      await this.client.request(
        'PATCH',
        `/apis/events.k8s.io/v1/namespaces/${entry.namespace}/events/${entry.name}`,
        {
          body: { series: { count, lastObservedTime: microTime(entry.lastObserved) } },
          contentType: 'application/merge-patch+json',
        },
      );
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
    entry.lastWritten = this.opts.now().getTime();
    if (entry.count === count) entry.dirty = false;
    return true;
  }

  private scheduleFlush(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // Best-effort background write; the next record or flush() reports a persistent failure.
      this.flush().catch(() => undefined);
    }, this.opts.seriesUpdateIntervalMs);
    this.timer.unref();
  }

  /** Series idle for longer than the window are finished: the next occurrence starts a new Event. */
  private forgetFinished(now: Date): void {
    for (const [key, e] of this.series)
      if (!e.dirty && now.getTime() - e.lastObserved.getTime() > this.opts.seriesWindowMs)
        this.series.delete(key);
  }
}

/** The `regarding` reference of an object (with uid and resourceVersion when it has them). */
function referenceOf(obj: K8sObject | EventObjectReference | ObjectRef): EventObjectReference {
  if ('group' in obj && !('metadata' in obj))
    return { kind: obj.kind, name: obj.name, ...(obj.namespace ? { namespace: obj.namespace } : {}) };
  const meta = 'metadata' in obj && obj.metadata ? obj.metadata : (obj as EventObjectReference);
  const ref: EventObjectReference = { kind: obj.kind, name: meta.name };
  if (obj.apiVersion) ref.apiVersion = obj.apiVersion;
  if (meta.namespace) ref.namespace = meta.namespace;
  if (meta.uid) ref.uid = meta.uid;
  if (meta.resourceVersion) ref.resourceVersion = meta.resourceVersion;
  return ref;
}

/**
 * client-go's naming, `<regarding name>.<time in hex nanoseconds>`; JavaScript clocks have
 * milliseconds, so random nanoseconds keep two Events of the same millisecond apart.
 */
function eventName(regarding: string, now: Date): string {
  const nanos = BigInt(now.getTime()) * 1_000_000n + BigInt(randomInt(1_000_000));
  return `${regarding.slice(0, 236)}.${nanos.toString(16)}`;
}

function clipBytes(s: string, limit: number): string {
  if (Buffer.byteLength(s) <= limit) return s;
  let out = s.slice(0, limit);
  while (Buffer.byteLength(`${out}…`) > limit) out = out.slice(0, -1);
  return `${out}…`;
}
