import { z } from 'zod';
import { GroundworkError } from '../core/errors.js';
import { subjectOf } from '../core/cluster-object.js';
import { clusterServiceVersionSchema, subscriptionStatusSchema } from '../health/olm-status-schemas.js';

/**
 * The parts of OLM's InstallPlan and Subscription (operators.coreos.com/v1alpha1)
 * that the approval decision reads, validated with zod when they come from the
 * cluster. Unknown fields are kept.
 */

const metadata = z.looseObject({ name: z.string().min(1), namespace: z.string().optional() });

const installPlanSchema = z.looseObject({
  metadata,
  spec: z.looseObject({
    clusterServiceVersionNames: z.array(z.string()),
    /** Not an enum in the CRD: anything but `Manual` behaves as Automatic. */
    approval: z.string(),
    approved: z.boolean(),
  }),
  status: z.looseObject({ phase: z.string().optional() }).optional(),
});

const subscriptionSchema = z.looseObject({
  metadata,
  spec: z.looseObject({
    name: z.string().min(1),
    channel: z.string().optional(),
    startingCSV: z.string().optional(),
    installPlanApproval: z.string().optional(),
  }),
  status: subscriptionStatusSchema.optional(),
});

export type InstallPlanLike = z.infer<typeof installPlanSchema>;
export type SubscriptionLike = z.infer<typeof subscriptionSchema>;

/** An InstallPlan, Subscription or CSV read from the cluster lacks a field the decision needs. */
export class OlmObjectInvalidError extends GroundworkError {
  constructor(subject: string, problems: readonly string[]) {
    super({ code: 'OlmObjectInvalid', subject, message: problems.join('; ') });
  }
}

/**
 * Validates an OLM object read from the cluster with `schema`.
 * @throws OlmObjectInvalidError naming the object (`Kind/namespace/name`) and every problem.
 */
export function parseWith<S extends z.ZodType>(schema: S, kind: string, obj: unknown): z.infer<S> {
  const r = schema.safeParse(obj);
  if (r.success) return r.data;
  throw new OlmObjectInvalidError(
    subjectOf(kind, obj),
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

/** Validates a ClusterServiceVersion from the cluster (its phase). @throws OlmObjectInvalidError. */
export function toClusterServiceVersion(obj: unknown): z.infer<typeof clusterServiceVersionSchema> {
  return parseWith(clusterServiceVersionSchema, 'ClusterServiceVersion', obj);
}

/** OLM's reading of `installPlanApproval`: only the exact string `Manual` is manual. */
export function isManualApproval(value: string | undefined): boolean {
  return value === 'Manual';
}
