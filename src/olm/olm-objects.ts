import { z } from 'zod';
import { GroundworkError } from '../core/errors.js';

/**
 * The parts of OLM's InstallPlan and Subscription (operators.coreos.com/v1alpha1)
 * that the approval decision reads, validated with zod when they come from the
 * cluster. Unknown fields are kept.
 */

const metadata = z.looseObject({ name: z.string().min(1), namespace: z.string().optional() });

export const installPlanSchema = z.looseObject({
  metadata,
  spec: z.looseObject({
    clusterServiceVersionNames: z.array(z.string()),
    /** Not an enum in the CRD: anything but `Manual` behaves as Automatic. */
    approval: z.string(),
    approved: z.boolean(),
  }),
  status: z.looseObject({ phase: z.string().optional() }).optional(),
});

export const subscriptionSchema = z.looseObject({
  metadata,
  spec: z.looseObject({
    name: z.string().min(1),
    channel: z.string().optional(),
    startingCSV: z.string().optional(),
    installPlanApproval: z.string().optional(),
  }),
  status: z
    .looseObject({
      installedCSV: z.string().optional(),
      currentCSV: z.string().optional(),
      state: z.string().optional(),
      installPlanRef: z.looseObject({ name: z.string(), namespace: z.string().optional() }).optional(),
    })
    .optional(),
});

export type InstallPlanLike = z.infer<typeof installPlanSchema>;
export type SubscriptionLike = z.infer<typeof subscriptionSchema>;

/** An InstallPlan or Subscription read from the cluster lacks a field the decision needs. */
export class OlmObjectInvalidError extends GroundworkError {
  constructor(subject: string, problems: readonly string[]) {
    super({ code: 'OlmObjectInvalid', subject, message: problems.join('; ') });
  }
}

function parseWith<S extends z.ZodType>(schema: S, kind: string, obj: unknown): z.infer<S> {
  const r = schema.safeParse(obj);
  if (r.success) return r.data;
  const meta = (obj as { metadata?: { name?: unknown; namespace?: unknown } } | undefined)?.metadata;
  const subject = `${kind}/${String(meta?.namespace ?? '')}/${String(meta?.name ?? '?')}`;
  throw new OlmObjectInvalidError(
    subject,
    r.error.issues.map((i) => `${i.path.map(String).join('.')}: ${i.message}`),
  );
}

/** Validates an InstallPlan from the cluster. @throws OlmObjectInvalidError listing every problem. */
export function toInstallPlan(obj: unknown): InstallPlanLike {
  return parseWith(installPlanSchema, 'InstallPlan', obj);
}

/** Validates a Subscription from the cluster. @throws OlmObjectInvalidError listing every problem. */
export function toSubscription(obj: unknown): SubscriptionLike {
  return parseWith(subscriptionSchema, 'Subscription', obj);
}

/** OLM's reading of `installPlanApproval`: only the exact string `Manual` is manual. */
export function isManualApproval(value: string | undefined): boolean {
  return value === 'Manual';
}
