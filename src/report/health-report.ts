import { describeRef, refOf, type ObjectId } from '../core/object-id.js';
import type { K8sObject } from '../core/object.js';
import { assessHealth, rollUp } from '../health/index.js';
import type { HealthVerdict, ObjectVerdict } from '../health/types.js';
import type { Manifest } from '../render/synth/manifest.js';

/** One row: an object of the platform, its apply stage and its health verdict. */
interface HealthRow extends ObjectVerdict {
  id: ObjectId;
  stage: string;
  /** Why the apply skipped it (e.g. the ClusterVersion Groundwork never creates); absent otherwise. */
  skipped?: string;
}

/** What the report knows beyond the manifests and the live objects. */
export interface HealthReportOptions {
  /**
   * Objects the apply skipped by design, with why: they are listed as skipped and do not decide the
   * roll-up nor count as unhealthy. @default none
   */
  readonly skipped?: ReadonlyMap<ObjectId, string>;
}

/**
 * The health of every object of a platform after an apply, in apply order, with the roll-up
 * (worst first). A value: printed as a table, or as JSON. Objects not in the cluster are `Missing`;
 * objects the apply skipped (`opts.skipped`) are shown as such and left out of the roll-up.
 */
export class HealthReport {
  readonly rows: readonly HealthRow[];
  readonly overall: HealthVerdict;

  constructor(
    manifests: readonly Manifest[],
    live: ReadonlyMap<ObjectId, K8sObject>,
    opts: HealthReportOptions = {},
  ) {
    this.rows = manifests.map((m) => {
      const obj = live.get(m.id);
      const v = obj
        ? assessHealth(obj)
        : { status: 'Missing' as const, reason: 'NotFound', message: 'not in the cluster' };
      const skipped = opts.skipped?.get(m.id);
      return {
        id: m.id,
        stage: m.stage,
        subject: describeRef(refOf(m.object)),
        ...v,
        ...(skipped !== undefined ? { skipped } : {}),
      };
    });
    this.overall = rollUp(this.rows.filter((r) => r.skipped === undefined));
  }

  /** Rows that are not Healthy, leaving out the objects the apply skipped. */
  get unhealthy(): HealthRow[] {
    return this.rows.filter((r) => r.status !== 'Healthy' && r.skipped === undefined);
  }

  toString(): string {
    // Padded to the widest cell, never cut, so the status column stays aligned for long names.
    const width = Math.max(6, ...this.rows.map((r) => r.subject.length));
    const stageWidth = Math.max(16, ...this.rows.map((r) => r.stage.length));
    return [
      `Health: ${this.overall.status} (${this.overall.reason})`,
      ...this.rows.map((r) =>
        r.skipped !== undefined
          ? `  ${r.stage.padEnd(stageWidth)} ${r.subject.padEnd(width)} ${'skipped'.padEnd(11)} ${r.skipped}`
          : `  ${r.stage.padEnd(stageWidth)} ${r.subject.padEnd(width)} ${r.status.padEnd(11)} ${r.reason}${r.status === 'Healthy' ? '' : `: ${r.message}`}`,
      ),
    ].join('\n');
  }

  toJSON(): object {
    return {
      overall: this.overall,
      objects: this.rows.map(({ id, stage, status, reason, message, skipped }) => ({
        id,
        stage,
        status,
        reason,
        message,
        ...(skipped !== undefined ? { skipped } : {}),
      })),
    };
  }
}
