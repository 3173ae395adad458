import { isDeepStrictEqual } from 'node:util';
import type { KubeClient } from '../cluster/client.js';
import { errorMessage } from '../core/errors.js';
import { HUB_PATHS } from './hub-names.js';
import type { HubLog } from './hub-resources.js';
import { memberReportSchema, type MemberReport } from './member-schema.js';
import type { ReportBody } from './member-report.js';
import { nextReportAt, type ReportPacing } from './report-timing.js';
import { rfc3339 } from './schema-parts.js';

/**
 * Writes a member's report to its FleetMember's status, paced (`nextReportAt`): a body equal to the
 * last one written is never written again; changes within the debounce fold into one write; at
 * most one write per interval unless Ready flips or the applied revision moves. Each write carries the next `sequence` (from the
 * stored report after a restart) and the time. A body that does not pass the schema is not sent
 * (logged: it is a bug); a failed write is tried again with the next change or after the interval.
 */
export class ReportWriter {
  private written: ReportBody | undefined;
  private pending: ReportBody | undefined;
  private changedAt: number | undefined;
  private lastWriteMs: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> = Promise.resolve();
  private stopped = false;
  /** Writes made (for tests and the bench). */
  writes = 0;

  constructor(
    private readonly client: () => KubeClient,
    private readonly member: string,
    private sequence: number,
    private readonly opts: {
      readonly pacing: ReportPacing;
      readonly log: HubLog;
      readonly now?: () => number;
    },
  ) {}

  /** Offers a new body; schedules a write when it differs from the last one written. */
  offer(body: ReportBody): void {
    if (this.stopped) return;
    if (isDeepStrictEqual(body, this.written)) {
      this.pending = undefined;
      return;
    }
    const now = (this.opts.now ?? Date.now)();
    this.changedAt = this.pending ? this.changedAt : now;
    this.pending = body;
    const readyFlipped = this.written?.ready.status !== body.ready.status;
    const appliedMoved = !isDeepStrictEqual(this.written?.revision?.applied, body.revision?.applied);
    const at = nextReportAt({
      changedAtMs: this.changedAt ?? now,
      ...(this.lastWriteMs !== undefined ? { lastWriteMs: this.lastWriteMs } : {}),
      readyFlipped,
      appliedMoved,
      pacing: this.opts.pacing,
    });
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), Math.max(0, at - now));
  }

  /** Writes the pending body now (tests, shutdown). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.writing = this.writing.then(() => this.write());
    return this.writing;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.writing;
  }

  private async write(): Promise<void> {
    const body = this.pending;
    if (!body) return;
    const report: MemberReport = { sequence: this.sequence + 1, reportedAt: rfc3339(new Date()), ...body };
    const checked = memberReportSchema.safeParse(report);
    if (!checked.success) {
      this.opts.log.warn(
        { issues: checked.error.issues.slice(0, 3) },
        'report not sent: it does not pass the schema',
      );
      this.pending = undefined;
      return;
    }
    try {
      await this.client().request('PATCH', `${HUB_PATHS.fleetMember(this.member)}/status`, {
        body: [{ op: 'add', path: '/status', value: checked.data }],
        contentType: 'application/json-patch+json',
      });
      this.sequence++;
      this.writes++;
      this.written = body;
      if (this.pending === body) this.pending = undefined;
      this.lastWriteMs = (this.opts.now ?? Date.now)();
    } catch (err) {
      this.opts.log.warn({ err: errorMessage(err) }, 'report to the hub failed; tried again');
      this.lastWriteMs = (this.opts.now ?? Date.now)();
      if (!this.stopped) this.timer = setTimeout(() => void this.flush(), this.opts.pacing.minIntervalMs);
    }
  }
}
