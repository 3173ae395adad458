import { z } from 'zod';
import type { Condition } from '../core/object.js';
import { InvalidClusterStateError, formatIssues } from './errors.js';

/**
 * The parts of a live ClusterVersion and ClusterOperators that update planning reads, validated
 * once at the edge (`readClusterVersion`, `readClusterOperators`) and trusted inside.
 */

const condition = z.object({
  type: z.string(),
  status: z.string(),
  reason: z.string().optional(),
  message: z.string().optional(),
  lastTransitionTime: z.string().optional(),
});

const release = z.object({
  version: z.string(),
  image: z.string(),
  channels: z
    .array(z.string())
    .nullish()
    .transform((c) => c ?? []),
  url: z.string().optional(),
});

const risk = z.object({
  name: z.string().min(1),
  url: z.string(),
  message: z.string(),
  matchingRules: z
    .array(z.looseObject({ type: z.string() }))
    .nullish()
    .transform((r) => r ?? []),
});

const clusterVersion = z.object({
  kind: z.literal('ClusterVersion'),
  metadata: z.object({ name: z.string(), generation: z.number().optional() }),
  spec: z
    .object({
      channel: z.string().optional(),
      desiredUpdate: z
        .object({
          version: z.string().optional(),
          image: z.string().optional(),
          force: z.boolean().optional(),
        })
        .nullish(),
    })
    .optional(),
  status: z
    .object({
      desired: release.partial({ image: true }).optional(),
      history: z
        .array(
          z.object({
            state: z.enum(['Completed', 'Partial']),
            version: z.string(),
            image: z.string(),
            startedTime: z.string().nullish(),
            completionTime: z.string().nullish(),
          }),
        )
        .nullish()
        .transform((h) => h ?? []),
      availableUpdates: z
        .array(release)
        .nullish()
        .transform((u) => u ?? []),
      conditionalUpdates: z
        .array(z.object({ release, risks: z.array(risk), conditions: z.array(condition).nullish() }))
        .nullish()
        .transform((u) => u ?? []),
      conditions: z
        .array(condition)
        .nullish()
        .transform((c) => c ?? []),
      observedGeneration: z.number().optional(),
    })
    .optional(),
});

const clusterOperator = z.object({
  kind: z.literal('ClusterOperator'),
  metadata: z.object({ name: z.string() }),
  status: z
    .object({
      conditions: z
        .array(condition)
        .nullish()
        .transform((c) => c ?? []),
    })
    .optional()
    .transform((s) => s ?? { conditions: [] }),
});

export type ClusterVersionState = z.output<typeof clusterVersion>;
type ClusterVersionStatus = NonNullable<ClusterVersionState['status']>;
type HistoryEntry = ClusterVersionStatus['history'][number];
export type ClusterOperatorState = z.output<typeof clusterOperator>;

/**
 * Validates a ClusterVersion as read from the API server (a `List` of exactly one item, as
 * `oc get clusterversion -o yaml` prints it, is unwrapped). Throws `InvalidClusterState` listing
 * every problem with its path.
 */
export function readClusterVersion(obj: unknown, subject = 'ClusterVersion'): ClusterVersionState {
  const result = clusterVersion.safeParse(unwrapList(obj, subject));
  if (!result.success) throw new InvalidClusterStateError(subject, formatIssues(result.error.issues));
  return result.data;
}

/** Validates ClusterOperators given as an array or a `List`. */
export function readClusterOperators(obj: unknown, subject = 'ClusterOperators'): ClusterOperatorState[] {
  const items = Array.isArray(obj) ? obj : isList(obj) ? obj.items : [obj];
  const result = z.array(clusterOperator).safeParse(items);
  if (!result.success)
    throw new InvalidClusterStateError(subject, formatIssues(result.error.issues, 'items'));
  return result.data;
}

/**
 * The version the cluster runs, as the CVO computes it (`GetCurrentVersion`): the most recent
 * `Completed` history entry, else the oldest entry (the install in progress), else `undefined`.
 */
export function currentVersion(cv: ClusterVersionState): HistoryEntry | undefined {
  const history = cv.status?.history ?? [];
  return history.find((h) => h.state === 'Completed') ?? history[history.length - 1];
}

/**
 * The only version the CVO accepts as a rollback target (Rollback precondition): the first history
 * entry that differs from `status.desired` in version or image. A rollback is further limited to the
 * same major.minor; see `planUpdatePath`.
 */
export function previousVersion(cv: ClusterVersionState): HistoryEntry | undefined {
  const history = cv.status?.history ?? [];
  const desired = cv.status?.desired ?? history[0];
  if (!desired) return undefined;
  return history.find((h) => h.version !== desired.version || h.image !== desired.image);
}

export function conditionOf(conditions: readonly Condition[], type: string): Condition | undefined {
  return conditions.find((c) => c.type === type);
}

/** One ClusterOperator (or the CVO itself) that sets `Upgradeable=False`. */
export interface UpgradeBlocker {
  readonly clusterOperator: string;
  readonly reason: string;
  readonly message: string;
}

/** Whether minor updates are allowed now, and who says no. */
export interface Upgradeable {
  readonly status: 'True' | 'False';
  readonly reason?: string;
  readonly message?: string;
  readonly blockers: readonly UpgradeBlocker[];
}

/**
 * `Upgradeable` as the CVO's `ClusterVersionUpgradeable` precondition will see it: `False` when the
 * ClusterVersion says so (admin acks, overrides, operators) or when any ClusterOperator already says
 * so (the CVO re-aggregates at most every two minutes, so the operator is the fresher source).
 * Blockers name the ClusterOperators with `Upgradeable=False`.
 */
export function upgradeableOf(
  cv: ClusterVersionState,
  operators: readonly ClusterOperatorState[],
): Upgradeable {
  const blockers: UpgradeBlocker[] = [];
  for (const co of [...operators].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))) {
    const up = conditionOf(co.status.conditions, 'Upgradeable');
    if (up?.status === 'False') {
      blockers.push({
        clusterOperator: co.metadata.name,
        reason: up.reason ?? '',
        message: up.message ?? '',
      });
    }
  }
  const own = conditionOf(cv.status?.conditions ?? [], 'Upgradeable');
  if (own?.status === 'False') {
    return { status: 'False', reason: own.reason, message: own.message, blockers };
  }
  return blockers.length > 0 ? { status: 'False', blockers } : { status: 'True', blockers: [] };
}

function unwrapList(obj: unknown, subject: string): unknown {
  if (!isList(obj)) return obj;
  if (obj.items.length !== 1) {
    throw new InvalidClusterStateError(subject, [
      `items: want exactly one ClusterVersion, got ${obj.items.length}`,
    ]);
  }
  return obj.items[0];
}

function isList(obj: unknown): obj is { items: unknown[] } {
  return (
    typeof obj === 'object' &&
    obj !== null &&
    (obj as { kind?: unknown }).kind === 'List' &&
    Array.isArray((obj as { items?: unknown }).items)
  );
}
