import { z } from 'zod';
import { maintenanceWindowsSchema } from '../core/window.js';

// `environments[].rollout` in groundwork.yaml: how the fleet hub releases a revision of the
// environment's ref to its members, wave by wave (docs/hub.md "Rollouts"). Read once with the rest
// of groundwork.yaml; `groundwork fleet rollout start` copies it into the FleetRollout it creates,
// so a rollout in flight keeps the waves it started with.

/** Waves a rollout may have, labels a wave may select by, named windows: small on purpose. */
export const ROLLOUT_LIMITS = { waves: 20, selectorLabels: 16, windows: 20 } as const;

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** A Kubernetes label key (optional DNS prefix, name of at most 63). */
export const LABEL_KEY =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
/** A Kubernetes label value (empty, or at most 63 of letters, digits, -, _, .). */
export const LABEL_VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$/;
/** `3` or `10%`: a count of members, or a percentage of the environment's members. */
export const COUNT_OR_PERCENT = /^(\d{1,6}|(100|[1-9]?\d)%)$/;
/** `30m`, `2h`, `1h30m`, `90s`, `0s`. */
const DURATION = /^(?:(\d{1,3})h)?(?:(\d{1,4})m)?(?:(\d{1,5})s)?$/;

/** `1h30m` → seconds; NaN when it is not h, m and s in that order. Pure. */
export function durationSeconds(text: string): number {
  const m = DURATION.exec(text);
  if (!m || text === '') return NaN;
  return (Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0)) * 60 + Number(m[3] ?? 0);
}

const duration = (what: string, minSeconds: number) =>
  z
    .string()
    .max(16)
    .refine((d) => {
      const s = durationSeconds(d);
      return s >= minSeconds && s <= 7 * 86_400;
    }, `${what} must be a duration in h, m and s from ${minSeconds}s to 168h, e.g. 30m or 2h`);

const countOrPercent = z
  .union([z.number().int().min(0).max(100_000), z.string().max(7)])
  .transform((v) => String(v))
  .refine((v) => COUNT_OR_PERCENT.test(v), 'must be a count (3) or a percentage (10%)');

const waveSchema = z
  .strictObject({
    name: z
      .string()
      .max(40)
      .regex(DNS_LABEL, 'must be a DNS label (lowercase letters, digits, -)')
      .describe("The wave's name (`canary`, `ten-percent`), unique in the rollout."),
    selector: z
      .record(
        z.string().max(317).regex(LABEL_KEY, 'must be a label key'),
        z.string().max(63).regex(LABEL_VALUE, 'must be a label value'),
      )
      .refine((s) => Object.keys(s).length <= ROLLOUT_LIMITS.selectorLabels, {
        message: `at most ${ROLLOUT_LIMITS.selectorLabels} labels`,
      })
      .optional()
      .describe(
        'Members whose hub labels (from their registration token) all match these (`ring: canary`); with `percent`, the percentage is taken of the members that match.',
      ),
    percent: z
      .number()
      .int()
      .min(1)
      .max(100)
      .optional()
      .describe(
        'This percentage (rounded up, at least one) of the members not yet in an earlier wave (and matching `selector`). Neither `selector` nor `percent`: every member left.',
      ),
  })
  .describe('A wave: which members get the revision together.');

const namedWindowsSchema = z.strictObject({
  name: z
    .string()
    .min(1)
    .max(63)
    .regex(LABEL_VALUE, 'must be a label value')
    .describe("The window's name, as members' `windowLabel` label names it (`stores`)."),
  windows: maintenanceWindowsSchema
    .min(1, 'list at least one window')
    .max(20)
    .describe('When it is open (the maintenance-window syntax of pools).'),
});

/** `environments[].rollout`, as written in groundwork.yaml. */
export const rolloutConfigSchema = z
  .strictObject({
    waves: z
      .array(waveSchema)
      .min(1, 'list at least one wave')
      .max(ROLLOUT_LIMITS.waves)
      .superRefine((waves, ctx) => {
        const seen = new Set<string>();
        waves.forEach((w, i) => {
          if (seen.has(w.name))
            ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `wave ${w.name} is listed twice` });
          seen.add(w.name);
        });
      })
      .describe(
        'The waves, in order (`canary` by selector, then `percent: 10`, `percent: 50`, then the rest). The first wave is the canary: any failure in it halts the rollout before another wave gets anything.',
      ),
    maxUnavailable: countOrPercent
      .default('1')
      .describe(
        "How many members the rollout may have in flight at once (released, neither succeeded nor failed yet): a count or a percentage of the environment's members (rounded down, at least 1).",
      ),
    maxFailures: countOrPercent
      .default('0')
      .describe(
        'How many failed members the rollout tolerates after the canary wave; one more halts it. A count or a percentage (rounded down).',
      ),
    bakeTime: duration('bakeTime', 0)
      .default('0s')
      .describe(
        "How long a wave must stay succeeded (Ready and Healthy at the revision, by the hub's clock) before the next wave is released; a member that fails meanwhile counts as a failure.",
      ),
    progressDeadline: duration('progressDeadline', 60)
      .default('30m')
      .describe(
        'How long a released member may take to succeed before it counts as failed (`ProgressDeadlineExceeded`).',
      ),
    windowLabel: z
      .string()
      .max(317)
      .regex(LABEL_KEY, 'must be a label key')
      .default('maintenance-window')
      .describe(
        "The member label that names its maintenance window in `windows` (set with `hub token create --labels maintenance-window=stores`). A member without it uses the environment's `windows`.",
      ),
    windows: z
      .array(namedWindowsSchema)
      .max(ROLLOUT_LIMITS.windows)
      .default([])
      .describe(
        'Named maintenance windows members pick by label. A revision that changes ClusterVersion or MachineConfigs is released to a member only inside its window; a member naming an unknown window is held.',
      ),
  })
  .describe(
    'How the fleet hub releases a revision of this environment to its members, wave by wave (`groundwork fleet rollout start`). Absent: the environment has no hub rollouts.',
  );

/** `environments[].rollout` as parsed (defaults filled in). */
export type RolloutConfig = z.output<typeof rolloutConfigSchema>;
export type RolloutWaveConfig = RolloutConfig['waves'][number];
