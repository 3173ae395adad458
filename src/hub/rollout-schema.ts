import { z } from 'zod';
import { WEEKDAYS } from '../core/window.js';
import { COUNT_OR_PERCENT, LABEL_KEY, LABEL_VALUE } from '../project/rollout-config.js';
import { count, dnsLabel, dnsSubdomain, text, time } from './schema-parts.js';
import { HUB_API_VERSION } from './hub-names.js';

// The FleetRollout kind (`hub.groundwork.io/v1alpha1`), in the hub's namespace: one revision of
// one environment released to its members wave by wave. `spec` is written by `groundwork fleet
// rollout start|pause|resume|abort` (people with rights in the hub's namespace; members have none
// there); `status` only by the hub controller. Bounded like every hub kind: the CRD is generated
// from these schemas (`hubCrds`).

/** Bounds of a rollout; a rollout lists at most `members` members in its status. */
export const ROLLOUT_BOUNDS = { waves: 20, members: 5000, selectorLabels: 16, windows: 20 } as const;

/** What a revision changes that the OpenShift gates care about. */
export const ROLLOUT_CHANGES = ['cluster-version', 'machine-config'] as const;
export type RolloutChange = (typeof ROLLOUT_CHANGES)[number];

const countOrPercent = z.string().max(7).regex(COUNT_OR_PERCENT, 'must be a count (3) or a percentage (10%)');
const labelKey = z.string().max(317).regex(LABEL_KEY, 'must be a label key');
const labelValue = z.string().max(63).regex(LABEL_VALUE, 'must be a label value');
/**
 * A maintenance window, bounded for the CRD (the core schema's refinements are not expressible
 * there): `windowState` checks it again and treats a window it refuses as never open.
 */
const windowSchema = z.object({
  days: z.array(z.enum(WEEKDAYS)).min(1).max(7).optional(),
  start: text(5).regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM'),
  duration: text(10).regex(/^(\d{1,3}h)?(\d{1,5}m)?$/, 'must be hours and/or minutes'),
  timezone: text(64).optional(),
});
const windowsSchema = z.array(windowSchema).max(20);

const reason = z
  .string()
  .max(64)
  .regex(/^[A-Z][A-Za-z0-9]*$/, 'must be a CamelCase reason');

export const rolloutWaveSpecSchema = z.object({
  name: dnsLabel,
  /** Label pairs a member must all carry (a list: CRD schemas cannot bound a map's keys). */
  selector: z
    .array(z.object({ key: labelKey, value: labelValue }))
    .max(ROLLOUT_BOUNDS.selectorLabels)
    .optional(),
  percent: z.number().int().min(1).max(100).optional(),
});

export const rolloutSpecSchema = z.object({
  environment: dnsLabel.describe('The environment whose members get the revision.'),
  ref: text(255)
    .regex(/^[A-Za-z0-9._/-]+$/, 'must be a branch name')
    .describe("The environment's ref (its agents' branch): releases name `<ref>@sha1:<revision>`."),
  revision: z
    .string()
    .max(40)
    .regex(/^[0-9a-f]{40}$/, 'must be a full commit id (40 hex)')
    .describe('The commit released.'),
  changes: z
    .array(z.enum(ROLLOUT_CHANGES))
    .max(2)
    .optional()
    .describe('What the revision changes that the OpenShift gates hold members back for.'),
  waves: z.array(rolloutWaveSpecSchema).min(1).max(ROLLOUT_BOUNDS.waves),
  maxUnavailable: countOrPercent,
  maxFailures: countOrPercent,
  bakeSeconds: count(7 * 86_400),
  progressDeadlineSeconds: z
    .number()
    .int()
    .min(60)
    .max(7 * 86_400),
  windowLabel: labelKey.optional(),
  /** Named windows members pick by their `windowLabel` label. */
  windows: z
    .array(z.object({ name: labelValue, windows: windowsSchema }))
    .max(ROLLOUT_BOUNDS.windows)
    .optional(),
  /** The environment's windows: a member without a window label uses them; none: any time. */
  defaultWindows: windowsSchema.optional(),
  paused: z.boolean().optional().describe('No new release while true; members already released go on.'),
  aborted: z.boolean().optional().describe('Nothing more is released, for good.'),
});

export const ROLLOUT_PHASES = [
  'Progressing',
  'Paused',
  'Waiting',
  'Halted',
  'Aborted',
  'Completed',
  'Succeeded',
] as const;
export type RolloutPhase = (typeof ROLLOUT_PHASES)[number];

export const MEMBER_ROLLOUT_STATES = ['Pending', 'Held', 'Released', 'Succeeded', 'Failed', 'Gone'] as const;
export type MemberRolloutState = (typeof MEMBER_ROLLOUT_STATES)[number];

export const WAVE_STATES = ['Pending', 'Progressing', 'Baking', 'Completed'] as const;
export type WaveState = (typeof WAVE_STATES)[number];

const memberStatusSchema = z.object({
  name: dnsLabel,
  wave: count(ROLLOUT_BOUNDS.waves),
  state: z.enum(MEMBER_ROLLOUT_STATES),
  reason: reason.optional(),
  message: text(160).optional(),
  releasedAt: time.optional(),
  /** When the hub first saw it succeed (the hub's clock: bake time counts from here). */
  succeededAt: time.optional(),
});

const waveStatusSchema = z.object({
  name: dnsLabel,
  state: z.enum(WAVE_STATES),
  members: count(100_000),
  succeeded: count(100_000),
  failed: count(100_000),
  held: count(100_000),
  /** When its last member succeeded (the hub's clock); the next wave waits `bakeSeconds` from here. */
  completedAt: time.optional(),
});

export const rolloutStatusSchema = z.object({
  phase: z.enum(ROLLOUT_PHASES),
  message: text(512).optional(),
  currentWave: count(ROLLOUT_BOUNDS.waves).optional(),
  halted: z.object({ reason, message: text(512), at: time }).optional(),
  waves: z.array(waveStatusSchema).max(ROLLOUT_BOUNDS.waves).optional(),
  members: z.array(memberStatusSchema).max(ROLLOUT_BOUNDS.members).optional(),
  /** When the controller looks again without a change (a bake ends, a window opens, a deadline). */
  nextCheckAt: time.optional(),
  observedGeneration: count(Number.MAX_SAFE_INTEGER).optional(),
  updatedAt: time.optional(),
});

export type RolloutSpec = z.infer<typeof rolloutSpecSchema>;
export type RolloutStatus = z.infer<typeof rolloutStatusSchema>;
export type RolloutWaveSpec = z.infer<typeof rolloutWaveSpecSchema>;
export type MemberRolloutStatus = z.infer<typeof memberStatusSchema>;
export type WaveStatus = z.infer<typeof waveStatusSchema>;

/** A FleetRollout as the controller and the CLI read it. */
export interface FleetRolloutObject {
  readonly name: string;
  readonly generation: number;
  readonly creationTimestamp?: string;
  readonly resourceVersion?: string;
  readonly spec: RolloutSpec;
  readonly status?: RolloutStatus;
}

export const fleetRolloutSchema = z.looseObject({
  apiVersion: z.literal(HUB_API_VERSION).optional(),
  kind: z.literal('FleetRollout').optional(),
  metadata: z.looseObject({
    name: dnsSubdomain,
    generation: z.number().optional(),
    creationTimestamp: z.string().optional(),
    resourceVersion: z.string().optional(),
  }),
  spec: rolloutSpecSchema,
  status: z.unknown().optional(),
});

/** Parses one FleetRollout; a status this version cannot read is treated as none (it is rewritten). */
export function readFleetRollout(obj: unknown): FleetRolloutObject {
  const o = fleetRolloutSchema.parse(obj);
  const status = o.status === undefined ? undefined : rolloutStatusSchema.safeParse(o.status);
  return {
    name: o.metadata.name,
    generation: o.metadata.generation ?? 0,
    ...(o.metadata.creationTimestamp ? { creationTimestamp: o.metadata.creationTimestamp } : {}),
    ...(o.metadata.resourceVersion ? { resourceVersion: o.metadata.resourceVersion } : {}),
    spec: o.spec,
    ...(status?.success ? { status: status.data } : {}),
  };
}

/** REST paths of FleetRollouts (always in the hub's namespace). */
export const ROLLOUT_PATHS = {
  list: (namespace: string) => `/apis/${HUB_API_VERSION}/namespaces/${namespace}/fleetrollouts`,
  one: (namespace: string, name: string) =>
    `/apis/${HUB_API_VERSION}/namespaces/${namespace}/fleetrollouts/${name}`,
  status: (namespace: string, name: string) =>
    `/apis/${HUB_API_VERSION}/namespaces/${namespace}/fleetrollouts/${name}/status`,
} as const;

/**
 * `text` with every C0 and C1 control character (and DEL) replaced by a space: members' report
 * messages reach the rollout's status and terminals, and must not carry escape sequences there.
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
}

/** Whether a rollout may still release anything (not aborted, halted or finished). */
export function isActive(r: Pick<FleetRolloutObject, 'spec' | 'status'>): boolean {
  if (r.spec.aborted) return false;
  const phase = r.status?.phase;
  return phase !== 'Halted' && phase !== 'Aborted' && phase !== 'Succeeded';
}
