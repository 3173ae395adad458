import { z } from 'zod';
import { maintenanceWindowsSchema, type MaintenanceWindow } from '../core/window.js';
import { notificationsSchema, type NotificationsConfig } from './notifications-config.js';
import { rolloutConfigSchema, type RolloutConfig } from './rollout-config.js';
import { unmanagedSchema, type UnmanagedConfig } from './unmanaged-config.js';

/**
 * Environments: which overlays (clusters) run together, the git ref their agents follow, and how a
 * revision reaches them. An environment without `promotedFrom` follows its ref directly (commits land
 * there); one with `promotedFrom` receives only revisions that ran healthy in that environment for
 * its `soak` time, by `groundwork promote`, which fast-forwards its ref.
 */
export interface Environment {
  readonly name: string;
  /** Overlay names of its clusters (`prod`, `clusters/prod-eu-1`). */
  readonly overlays: readonly string[];
  /** The branch its agents follow (`main`, `env/prod`). */
  readonly ref: string;
  /** The environment a revision must pass through first. */
  readonly promotedFrom?: string;
  /** How long a revision must run Ready and Healthy here before it may be promoted onwards (ms). */
  readonly soakMs: number;
  /** The text of `soak` as written (`2h`). */
  readonly soak: string;
  /** When a revision that changes a ClusterVersion target or a MachineConfig may be promoted here. */
  readonly windows: readonly MaintenanceWindow[];
  /**
   * Only commits (or followed tags) signed by a trusted key reach this environment: its agents
   * refuse others, and `groundwork promote` refuses to promote an unverified commit into it.
   * Raises the agents' `--verify-commits` floor, never lowers it (docs/trusted-commits.md).
   */
  readonly verify?: boolean;
  /** Where its agents send alerts (report/notifications); absent: none. */
  readonly notifications?: NotificationsConfig;
  /** Replaces the platform's `unmanaged:` for this environment's overlays. */
  readonly unmanaged?: UnmanagedConfig;
  /** How the fleet hub releases a revision to its members in waves (docs/hub.md "Rollouts"). */
  readonly rollout?: RolloutConfig;
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** A branch name git accepts, without the `refs/heads/` prefix. */
const BRANCH = /^(?!\/)(?!.*\/\/)(?!.*\.\.)(?!.*\/$)(?!.*\.lock$)(?!.*@\{)[A-Za-z0-9._/-]+$/;

/** `2h30m` → milliseconds; `0s` and `''` → 0. Only h, m and s, each at most once, in that order. */
export function soakMs(text: string): number {
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text);
  if (!m) return NaN;
  return ((Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0)) * 60 + Number(m[3] ?? 0)) * 1000;
}

const environmentSchema = z
  .object({
    name: z
      .string()
      .regex(DNS_LABEL, {
        error: (iss) =>
          `${JSON.stringify(String(iss.input).slice(0, 64))} is not a DNS label (lowercase letters, digits, -)`,
      })
      .max(40)
      .describe("The environment's name, a DNS label of at most 40 characters, unique."),
    overlays: z
      .array(z.string().min(1))
      .min(1, 'list the overlays (clusters) of this environment')
      .describe(
        'Overlay names of its clusters (`prod`, `clusters/prod-eu-1`); an overlay belongs to one environment.',
      ),
    ref: z
      .string()
      .regex(BRANCH, 'must be a branch name, e.g. main or env/prod')
      .describe(
        'The branch its agents follow (`main`, `env/prod`), without `refs/heads/`; one environment per ref.',
      ),
    promotedFrom: z
      .string()
      .optional()
      .describe(
        'The environment a revision must pass through first; `groundwork promote` fast-forwards `ref` to the revision that ran healthy there. Absent: commits land on `ref` directly.',
      ),
    soak: z
      .string()
      .refine((s) => s !== '' && !Number.isNaN(soakMs(s)), 'must be a duration in h, m and s, e.g. 30m or 2h')
      .default('0s')
      .describe(
        'How long a revision must run Ready and Healthy here before it may be promoted onwards (`30m`, `2h`).',
      ),
    windows: maintenanceWindowsSchema
      .default([])
      .describe(
        'When a revision that changes a ClusterVersion target or a MachineConfig may be promoted here; empty: any time.',
      ),
    verify: z
      .boolean()
      .default(false)
      .describe(
        "Only commits (or followed tags) signed by a trusted key reach this environment; raises the agents' `--verify-commits` floor, never lowers it.",
      ),
    notifications: notificationsSchema.optional().describe('Where its agents send alerts; absent: none.'),
    unmanaged: unmanagedSchema
      .optional()
      .describe("Replaces the platform's `unmanaged:` for this environment's overlays."),
    rollout: rolloutConfigSchema.optional(),
  })
  .strict();

export const environmentsSchema = z.array(environmentSchema).superRefine((envs, ctx) => {
  const names = new Map<string, number>();
  const overlays = new Map<string, string>();
  const refs = new Map<string, string>();
  envs.forEach((e, i) => {
    if (names.has(e.name))
      ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `environment ${e.name} is listed twice` });
    names.set(e.name, i);
    for (const [j, o] of e.overlays.entries()) {
      const other = overlays.get(o);
      if (other && other !== e.name)
        ctx.addIssue({
          code: 'custom',
          path: [i, 'overlays', j],
          message: `overlay ${o} is already in environment ${other}: an overlay belongs to one environment`,
        });
      overlays.set(o, e.name);
    }
    const sameRef = refs.get(e.ref);
    if (sameRef)
      ctx.addIssue({
        code: 'custom',
        path: [i, 'ref'],
        message: `ref ${e.ref} is already followed by environment ${sameRef}: promotion needs a ref of its own`,
      });
    refs.set(e.ref, e.name);
  });
  envs.forEach((e, i) => {
    if (e.promotedFrom === undefined) return;
    if (!names.has(e.promotedFrom)) {
      ctx.addIssue({
        code: 'custom',
        path: [i, 'promotedFrom'],
        message: `no environment ${e.promotedFrom}; known: ${[...names.keys()].join(', ')}`,
      });
      return;
    }
    // Follow the chain: it must end at an environment that is promoted from nothing.
    const seen = [e.name];
    let next: string | undefined = e.promotedFrom;
    while (next !== undefined) {
      if (seen.includes(next)) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'promotedFrom'],
          message: `promotion cycle: ${[...seen, next].join(' <- ')}`,
        });
        return;
      }
      seen.push(next);
      next = envs[names.get(next)!]?.promotedFrom;
    }
  });
});

/** Environments as the rest of Groundwork uses them (soak in milliseconds). */
export function toEnvironments(parsed: z.output<typeof environmentsSchema>): Environment[] {
  return parsed.map((e) => ({
    name: e.name,
    overlays: e.overlays,
    ref: e.ref,
    ...(e.promotedFrom !== undefined ? { promotedFrom: e.promotedFrom } : {}),
    soak: e.soak,
    soakMs: soakMs(e.soak),
    windows: e.windows,
    ...(e.verify ? { verify: true } : {}),
    ...(e.notifications !== undefined ? { notifications: e.notifications } : {}),
    ...(e.unmanaged !== undefined ? { unmanaged: e.unmanaged } : {}),
    ...(e.rollout !== undefined ? { rollout: e.rollout } : {}),
  }));
}

/** The environment an overlay belongs to. */
export function environmentOf(envs: readonly Environment[], overlay: string): Environment | undefined {
  return envs.find((e) => e.overlays.includes(overlay));
}

/** The environments a revision on `ref` reaches at once (followers of the ref), and those it reaches only by promotion, in order. */
export function reach(
  envs: readonly Environment[],
  ref: string,
): { now: Environment[]; byPromotion: Environment[] } {
  const now = envs.filter((e) => e.ref === ref);
  const byPromotion: Environment[] = [];
  let frontier = now.map((e) => e.name);
  while (frontier.length > 0) {
    const next = envs.filter(
      (e) => e.promotedFrom !== undefined && frontier.includes(e.promotedFrom) && !byPromotion.includes(e),
    );
    byPromotion.push(...next);
    frontier = next.map((e) => e.name);
  }
  return { now, byPromotion };
}
