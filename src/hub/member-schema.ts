import { z } from 'zod';
import { HEALTH_ORDER, type HealthStatus } from '../health/types.js';
import { count, dnsLabel, dnsSubdomain, revision, text, time } from './schema-parts.js';
import { HUB_API_VERSION } from './hub-names.js';

// The FleetMember kind (`hub.groundwork.io/v1alpha1`), one per member cluster, in the member's
// namespace `member-<name>`, named after the member. Its `spec` is written only by the hub (the
// controller and `groundwork hub` commands); its `status` only by the member's agent, through the
// status subresource (which the apiserver lets change nothing else). Every field is bounded here
// and the CRD is generated from these schemas, so an oversized or malformed report is refused by
// the apiserver, and readers parse with the same schemas. Fields are only ever added in v1alpha1.

/** Bounds of the report (`status`); a test builds the largest valid report and measures it. */
export const REPORT_LIMITS = {
  message: 512,
  reason: 64,
  driftItems: 5,
  pending: 10,
  pools: 20,
  operatorPins: 30,
  url: 1024,
  object: 256,
  name: 128,
} as const;

/** A CamelCase reason: open on purpose, so a newer agent's reason is not refused by an older hub. */
const reason = z
  .string()
  .max(REPORT_LIMITS.reason)
  .regex(/^[A-Z][A-Za-z0-9]*$/, 'must be a CamelCase reason');
const message = text(REPORT_LIMITS.message);

/** What the hub released to this member: Hub-B's rollouts write it, the agent acts on it. */
export const memberReleaseSchema = z.object({
  revision: revision.describe('The revision the member may apply: a commit of its environment ref.'),
  rollout: dnsSubdomain.describe('The rollout that released it.'),
  wave: count(1000).describe('The index of the wave that released it (0: the first).'),
  releasedAt: time,
});

/** `spec`: written only by the hub. */
export const memberSpecSchema = z.object({
  environment: dnsLabel.optional().describe('The environment the hub placed the member in.'),
  leaseDurationSeconds: z
    .number()
    .int()
    .min(10)
    .max(3600)
    .optional()
    .describe(
      'How long the heartbeat Lease lasts (default 60); the agent renews it every quarter of that, and the hub marks the member Unreachable when it saw no renewal for that long.',
    ),
  release: memberReleaseSchema.optional(),
});

const readySchema = z.object({
  status: z.enum(['True', 'False', 'Unknown']),
  reason,
  message: message.optional(),
  since: time.optional().describe("When Ready last changed (the PlatformSync's lastTransitionTime)."),
});

const healthSchema = z.object({
  status: z.enum(HEALTH_ORDER as [HealthStatus, ...HealthStatus[]]),
  reason,
  message: message.optional(),
});

const driftSchema = z.object({
  count: count().describe('Objects that differ from git.'),
  items: z
    .array(
      z.object({
        object: text(REPORT_LIMITS.object),
        type: z.enum(['missing', 'modified', 'extra']),
      }),
    )
    .max(REPORT_LIMITS.driftItems)
    .optional()
    .describe('The first drifted objects (never values).'),
});

const pendingSchema = z.object({ stage: text(64), message: text(256) });

const versionSchema = z.object({
  current: text(64),
  target: text(64).optional(),
  /** The stepper's action on its last pass. */
  action: z.enum(['set-desired-update', 'wait', 'done', 'blocked']).optional(),
  next: text(64).optional(),
  progressing: z.boolean().describe('A version update is in progress on the cluster.'),
  message: text(256).optional(),
});

const poolSchema = z.object({
  name: text(REPORT_LIMITS.name),
  machines: count(100_000),
  updated: count(100_000),
  ready: count(100_000),
  degraded: count(100_000),
  updating: z.boolean(),
  paused: z.boolean(),
});

const operatorPinSchema = z.object({
  subscription: text(REPORT_LIMITS.name).describe('namespace/name of the Subscription.'),
  pin: text(REPORT_LIMITS.name),
  installed: text(REPORT_LIMITS.name).optional(),
  /** `installed`: at the pin; `waiting`: an InstallPlan waits; `blocked`/`failed`: it cannot get there. */
  state: z.enum(['installed', 'upgrading', 'waiting', 'blocked', 'failed']),
});

const openshiftSchema = z.object({
  version: versionSchema.optional(),
  pools: z.array(poolSchema).max(REPORT_LIMITS.pools).optional(),
  operatorPins: z.array(operatorPinSchema).max(REPORT_LIMITS.operatorPins).optional(),
});

/** `status`: the member's compact report, written only by its agent. */
export const memberReportSchema = z.object({
  sequence: count(Number.MAX_SAFE_INTEGER).describe(
    'Incremented by every write of the agent (continues from the stored one after a restart).',
  ),
  reportedAt: time,
  observedGeneration: count(Number.MAX_SAFE_INTEGER)
    .optional()
    .describe('The metadata.generation of the spec the agent last read (its release).'),
  agentVersion: text(64).optional(),
  platform: dnsLabel.optional(),
  overlay: text(253)
    .regex(/^[A-Za-z0-9._/-]+$/, 'must be an overlay name')
    .optional(),
  source: z
    .object({ url: text(REPORT_LIMITS.url), ref: text(255).optional(), path: text(512).optional() })
    .optional()
    .describe('The repository the agent follows (never with credentials).'),
  revision: z.object({ applied: revision.optional(), attempted: revision.optional() }).optional(),
  lastAppliedTime: time.optional(),
  ready: readySchema,
  health: healthSchema.optional(),
  drift: driftSchema.optional(),
  pending: z.array(pendingSchema).max(REPORT_LIMITS.pending).optional(),
  suspended: z.boolean().optional(),
  openshift: openshiftSchema.optional(),
});

/** A FleetMember's spec, as the hub writes it. */
export type MemberSpec = z.infer<typeof memberSpecSchema>;
/** A release of one revision to one member. */
export type MemberRelease = z.infer<typeof memberReleaseSchema>;
/** A FleetMember's status: the agent's report. */
export type MemberReport = z.infer<typeof memberReportSchema>;
export type MemberPool = z.infer<typeof poolSchema>;
export type MemberOperatorPin = z.infer<typeof operatorPinSchema>;

const metadataSchema = z.looseObject({
  name: z.string(),
  namespace: z.string().optional(),
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
  resourceVersion: z.string().optional(),
  generation: z.number().optional(),
  creationTimestamp: z.string().optional(),
});

/**
 * A FleetMember as read from the hub. A status this version cannot read is kept apart
 * (`readFleetMember`), so one member's odd report spoils its own row, not the list.
 */
export const fleetMemberSchema = z.looseObject({
  apiVersion: z.literal(HUB_API_VERSION).optional(),
  kind: z.literal('FleetMember').optional(),
  metadata: metadataSchema,
  spec: memberSpecSchema.optional(),
  status: z.unknown().optional(),
});

/** A FleetMember as the hub's readers hand it on: its status parsed, or why it could not be. */
export interface FleetMemberObject {
  readonly name: string;
  readonly namespace: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly generation: number;
  readonly resourceVersion?: string;
  readonly spec: MemberSpec;
  readonly report?: MemberReport;
  /** Why `status` could not be read (then `report` is undefined). */
  readonly reportProblem?: string;
}

/** Parses one FleetMember (as listed or watched): its status apart, so a bad one names its problem. */
export function readFleetMember(obj: unknown): FleetMemberObject {
  const o = fleetMemberSchema.parse(obj);
  const parsed = o.status === undefined ? undefined : memberReportSchema.safeParse(o.status);
  return {
    name: o.metadata.name,
    namespace: o.metadata.namespace ?? '',
    labels: o.metadata.labels ?? {},
    annotations: o.metadata.annotations ?? {},
    generation: o.metadata.generation ?? 0,
    ...(o.metadata.resourceVersion ? { resourceVersion: o.metadata.resourceVersion } : {}),
    spec: o.spec ?? {},
    ...(parsed?.success ? { report: parsed.data } : {}),
    ...(parsed && !parsed.success
      ? {
          reportProblem: parsed.error.issues
            .map((i) => `${i.path.join('.')}: ${i.message}`)
            .join('; ')
            .slice(0, 300),
        }
      : {}),
  };
}

/** The default heartbeat Lease duration (OCM's ManagedClusterLease default too). */
export const DEFAULT_LEASE_SECONDS = 60;
