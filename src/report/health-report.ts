import { describeRef, refOf, type ObjectId } from '../core/object-id.js';
import type { K8sObject } from '../core/object.js';
import { assessHealth, rollUp } from '../health/index.js';
import type { HealthVerdict, ObjectVerdict } from '../health/types.js';
import type { Manifest } from '../synth/manifest.js';

/** One row: an object of the platform, its apply stage and its health verdict. */
interface HealthRow extends ObjectVerdict {
  id: ObjectId;
  stage: string;
}

/**
 * The health of every object of a platform after an apply, in apply order, with the roll-up
 * (worst first). A value: printed as a table, or as JSON. Objects not in the cluster are `Missing`.
 */
export class HealthReport {
  readonly rows: readonly HealthRow[];
  readonly overall: HealthVerdict;

  constructor(manifests: readonly Manifest[], live: ReadonlyMap<ObjectId, K8sObject>) {
    this.rows = manifests.map((m) => {
      const obj = live.get(m.id);
      const v = obj
        ? assessHealth(obj)
        : { status: 'Missing' as const, reason: 'NotFound', message: 'not in the cluster' };
      return { id: m.id, stage: m.stage, subject: describeRef(refOf(m.object)), ...v };
    });
    this.overall = rollUp(this.rows);
  }

  /** Rows that are not Healthy. */
  get unhealthy(): HealthRow[] {
    return this.rows.filter((r) => r.status !== 'Healthy');
  }

  toString(): string {
    const width = Math.min(64, Math.max(6, ...this.rows.map((r) => r.subject.length)));
    return [
      `Health: ${this.overall.status} (${this.overall.reason})`,
      ...this.rows.map(
        (r) =>
          `  ${r.stage.padEnd(16)} ${r.subject.padEnd(width)} ${r.status.padEnd(11)} ${r.reason}${r.status === 'Healthy' ? '' : `: ${r.message}`}`,
      ),
    ].join('\n');
  }

  toJSON(): object {
    return {
      overall: this.overall,
      objects: this.rows.map(({ id, stage, status, reason, message }) => ({
        id,
        stage,
        status,
        reason,
        message,
      })),
    };
  }
}
