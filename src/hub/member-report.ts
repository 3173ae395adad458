import type { MachineConfigPool } from '../health/machine-config-pool-schema.js';
import type { SyncStatusJson } from '../report/sync-status.js';
import {
  REPORT_LIMITS,
  type MemberOperatorPin,
  type MemberPool,
  type MemberReport,
} from './member-schema.js';

/** What the report is built from: the agent's PlatformSync status and what it reads beside it. */
export interface MemberReportInput {
  /** The PlatformSync status the agent last wrote; undefined before its first cycle. */
  readonly status: SyncStatusJson | undefined;
  readonly platform?: string;
  readonly overlay: string;
  /** The repository the agent follows (without credentials: the PlatformSync spec's). */
  readonly source?: { readonly url: string; readonly ref?: string; readonly path?: string };
  /** The cluster's MachineConfigPools, when it serves them. */
  readonly pools?: readonly MachineConfigPool[];
  /**
   * `revision.attempted` instead of the status's `lastAttemptedRevision` (`--hub` releases): the
   * branch's tip the hub has not released to this cluster (beside the `applied` release: the hub
   * sees the member held), or a release the agent refused.
   */
  readonly attempted?: string;
  /** The FleetMember generation whose spec the agent last read. */
  readonly observedGeneration?: number;
  readonly agentVersion?: string;
}

/** A report without its write stamps (`sequence`, `reportedAt`): what decides whether to write. */
export type ReportBody = Omit<MemberReport, 'sequence' | 'reportedAt'>;

/** `s` cut to `max` characters (code points, as the apiserver counts them), an ellipsis marking a cut. */
function clip(s: string, max: number): string {
  const chars = [...s];
  return chars.length <= max ? s : `${chars.slice(0, max - 1).join('')}…`;
}

const CAMEL = /^[A-Z][A-Za-z0-9]*$/;
/** A reason as the schema takes it: CamelCase, at most 64 characters; anything else is `Unknown`. */
const reasonOf = (r: string | undefined) =>
  r && CAMEL.test(r) && r.length <= REPORT_LIMITS.reason ? r : 'Unknown';
const REVISION = /^[^\s@]{1,255}@sha1:[0-9a-f]{40}(\+dirty)?$/;
const revisionOf = (r: string | undefined) => (r && REVISION.test(r) ? r : undefined);
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const timeOf = (t: string | undefined) => (t && TIME.test(t) ? t : undefined);

/** A pinned operator's state in one word, from the approval decisions the agent published. */
function pinState(p: NonNullable<SyncStatusJson['operatorPins']>[number]): MemberOperatorPin['state'] {
  if (p.installed === p.pin) return 'installed';
  const decisions = p.installPlans.map((i) => i.decision);
  if (decisions.includes('failed')) return 'failed';
  if (decisions.includes('blocked')) return 'blocked';
  if (decisions.includes('approve') || decisions.includes('already-approved')) return 'upgrading';
  return 'waiting';
}

/** A pool in counts and two flags. */
function poolOf(p: MachineConfigPool): MemberPool {
  const cond = (type: string) => p.status?.conditions?.find((c) => c.type === type)?.status === 'True';
  return {
    name: clip(p.metadata.name, REPORT_LIMITS.name),
    machines: Math.min(p.status?.machineCount ?? 0, 100_000),
    updated: Math.min(p.status?.updatedMachineCount ?? 0, 100_000),
    ready: Math.min(p.status?.readyMachineCount ?? 0, 100_000),
    degraded: Math.min(p.status?.degradedMachineCount ?? 0, 100_000),
    updating: cond('Updating'),
    paused: p.spec?.paused === true,
  };
}

function openshiftOf(status: SyncStatusJson | undefined, pools: readonly MachineConfigPool[] | undefined) {
  const cu = status?.clusterUpdate;
  const pins = status?.operatorPins;
  const version = cu && {
    current: clip(cu.current, 64),
    ...(cu.target ? { target: clip(cu.target, 64) } : {}),
    action: cu.action,
    ...(cu.next ? { next: clip(cu.next, 64) } : {}),
    progressing: cu.steps.some((s) => s.state === 'running'),
    ...(cu.message ? { message: clip(cu.message, 256) } : {}),
  };
  const out = {
    ...(version ? { version } : {}),
    ...(pools && pools.length > 0
      ? {
          pools: [...pools]
            .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))
            .slice(0, REPORT_LIMITS.pools)
            .map(poolOf),
        }
      : {}),
    ...(pins && pins.length > 0
      ? {
          operatorPins: pins.slice(0, REPORT_LIMITS.operatorPins).map((p) => ({
            subscription: clip(p.subscription, REPORT_LIMITS.name),
            pin: clip(p.pin, REPORT_LIMITS.name),
            ...(p.installed ? { installed: clip(p.installed, REPORT_LIMITS.name) } : {}),
            state: pinState(p),
          })),
        }
      : {}),
  };
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The compact report a member writes to its FleetMember's status, from the agent's PlatformSync
 * status and the cluster's pools: Ready with its reason and since when, the health roll-up, the
 * drift count with the first objects (never values), stage waits, suspension, the revisions applied
 * and attempted, and for OpenShift the version update, pools and operator pins. Every text is cut
 * to the schema's bounds, every list to its count, so the result always passes `memberReportSchema`.
 * Pure and deterministic: equal inputs give equal bodies (the caller stamps `sequence` and
 * `reportedAt`).
 */
export function memberReport(input: MemberReportInput): ReportBody {
  const s = input.status;
  const ready = s?.conditions.find((c) => c.type === 'Ready');
  const applied = revisionOf(s?.lastAppliedRevision);
  const attempted = revisionOf(input.attempted ?? s?.lastAttemptedRevision);
  const openshift = openshiftOf(s, input.pools);
  const lastApplied = timeOf(s?.lastReconcileTime);
  const since = timeOf(ready?.lastTransitionTime);
  return {
    ...(input.observedGeneration !== undefined ? { observedGeneration: input.observedGeneration } : {}),
    ...(input.agentVersion ? { agentVersion: clip(input.agentVersion, 64) } : {}),
    ...(input.platform ? { platform: input.platform } : {}),
    overlay: clip(input.overlay, 253),
    ...(input.source
      ? {
          source: {
            url: clip(input.source.url, REPORT_LIMITS.url),
            ...(input.source.ref ? { ref: clip(input.source.ref, 255) } : {}),
            ...(input.source.path ? { path: clip(input.source.path, 512) } : {}),
          },
        }
      : {}),
    ...(applied || attempted
      ? { revision: { ...(applied ? { applied } : {}), ...(attempted ? { attempted } : {}) } }
      : {}),
    ...(lastApplied ? { lastAppliedTime: lastApplied } : {}),
    ready: ready
      ? {
          status: ready.status,
          reason: reasonOf(ready.reason),
          ...(ready.message ? { message: clip(ready.message, REPORT_LIMITS.message) } : {}),
          ...(since ? { since } : {}),
        }
      : { status: 'Unknown', reason: 'NotReported' },
    ...(s?.health
      ? {
          health: {
            status: s.health.status,
            reason: reasonOf(s.health.reason),
            ...(s.health.message ? { message: clip(s.health.message, REPORT_LIMITS.message) } : {}),
          },
        }
      : {}),
    ...(s?.drift
      ? {
          drift: {
            count: Math.min(s.drift.drifted, 1_000_000),
            ...(s.drift.items.length > 0
              ? {
                  items: s.drift.items
                    .slice(0, REPORT_LIMITS.driftItems)
                    .map((i) => ({ object: clip(i.object, REPORT_LIMITS.object), type: i.type })),
                }
              : {}),
          },
        }
      : {}),
    ...(s?.pending && s.pending.length > 0
      ? {
          pending: s.pending
            .slice(0, REPORT_LIMITS.pending)
            .map((p) => ({ stage: clip(p.stage, 64), message: clip(p.message, 256) })),
        }
      : {}),
    ...(s?.suspended ? { suspended: true } : {}),
    ...(openshift ? { openshift } : {}),
  };
}
