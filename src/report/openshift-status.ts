import { z } from 'zod';
import type { ClusterUpdateStatus } from '../cluster-version/update-status.js';
import type { OperatorPinStatus } from '../olm/pin-status.js';
import { redactText } from '../core/redact.js';

// The OpenShift decisions the agent publishes in the PlatformSync status (`clusterUpdate`,
// `operatorPins`): their schemas (readers parse the status with them) and the bounding applied
// before they are written. Text from the cluster and the repository: any reader escapes it.

/** Longest string kept in a published decision; the rest is cut with an ellipsis. */
export const DECISION_TEXT_LIMIT = 512;
/** At most this many steps, risks, pinned operators, and InstallPlans per operator are published. */
export const DECISION_ITEMS = { steps: 20, risks: 20, pins: 50, installPlans: 10 } as const;

const text = z.string().max(DECISION_TEXT_LIMIT);

export const clusterUpdateSchema = z.object({
  clusterVersion: text,
  current: text,
  target: text,
  steps: z
    .array(
      z.object({
        from: text,
        to: text,
        state: z.enum(['done', 'running', 'waiting']),
        reason: text.optional(),
      }),
    )
    .max(DECISION_ITEMS.steps),
  next: text.optional(),
  action: z.enum(['set-desired-update', 'wait', 'done', 'blocked']),
  reason: text.optional(),
  message: text,
  risks: z.array(z.object({ name: text, version: text, accepted: z.boolean() })).max(DECISION_ITEMS.risks),
});

export const operatorPinSchema = z.object({
  subscription: text,
  package: text,
  pin: text,
  installed: text.optional(),
  installPlans: z
    .array(
      z.object({
        name: text,
        decision: z.enum(['blocked', 'failed', 'wait', 'approve', 'already-approved', 'complete']),
        reason: text,
        message: text,
      }),
    )
    .max(DECISION_ITEMS.installPlans),
});

/** `status.clusterUpdate`: the cluster-version stage's path and action, as published. */
export type ClusterUpdateJson = z.infer<typeof clusterUpdateSchema>;
/** One entry of `status.operatorPins`. */
export type OperatorPinJson = z.infer<typeof operatorPinSchema>;

function bound(s: string): string {
  const r = redactText(s);
  return r.length > DECISION_TEXT_LIMIT ? `${r.slice(0, DECISION_TEXT_LIMIT - 1)}…` : r;
}

/**
 * The update as written into the status: every string redacted (`redactText`) and cut to
 * `DECISION_TEXT_LIMIT`, the steps and risks cut to `DECISION_ITEMS` (the running step and the
 * ones after it are kept before older done steps). Pure.
 */
export function clusterUpdateJson(u: ClusterUpdateStatus): ClusterUpdateJson {
  const open = u.steps.filter((s) => s.state !== 'done');
  const done = u.steps.filter((s) => s.state === 'done');
  const keptOpen = open.slice(0, DECISION_ITEMS.steps);
  const room = DECISION_ITEMS.steps - keptOpen.length;
  const steps = [...done.slice(Math.max(0, done.length - room)), ...keptOpen];
  return {
    clusterVersion: bound(u.clusterVersion),
    current: bound(u.current),
    target: bound(u.target),
    steps: steps.map((s) => ({
      from: bound(s.from),
      to: bound(s.to),
      state: s.state,
      ...(s.reason !== undefined ? { reason: bound(s.reason) } : {}),
    })),
    ...(u.next !== undefined ? { next: bound(u.next) } : {}),
    action: u.action,
    ...(u.reason !== undefined ? { reason: bound(u.reason) } : {}),
    message: bound(u.message),
    risks: u.risks
      .slice(0, DECISION_ITEMS.risks)
      .map((r) => ({ name: bound(r.name), version: bound(r.version), accepted: r.accepted })),
  };
}

/** The pinned operators as written into the status: bounded like `clusterUpdateJson`. Pure. */
export function operatorPinsJson(pins: readonly OperatorPinStatus[]): OperatorPinJson[] {
  return pins.slice(0, DECISION_ITEMS.pins).map((p) => ({
    subscription: bound(p.subscription),
    package: bound(p.package),
    pin: bound(p.pin),
    ...(p.installed !== undefined ? { installed: bound(p.installed) } : {}),
    installPlans: p.installPlans.slice(0, DECISION_ITEMS.installPlans).map((ip) => ({
      name: bound(ip.name),
      decision: ip.decision,
      reason: bound(ip.reason),
      message: bound(ip.message),
    })),
  }));
}
