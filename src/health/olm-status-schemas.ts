import { z } from 'zod';
import { metadataSchema } from '../core/cluster-object.js';

/**
 * What OLM (operators.coreos.com/v1alpha1) writes into the status of a Subscription and a
 * ClusterServiceVersion, as Groundwork reads it: the apply engine's waits and the OLM domain
 * (`olm/olm-objects.ts`) share these. Unknown fields are kept.
 */

/** A Subscription's `status`: which CSV it installed, which it wants next, and its plan. */
export const subscriptionStatusSchema = z.looseObject({
  installedCSV: z.string().optional(),
  currentCSV: z.string().optional(),
  state: z.string().optional(),
  installPlanRef: z.looseObject({ name: z.string(), namespace: z.string().optional() }).optional(),
});

/** A Subscription read for its status only (its spec is the platform's own). */
export const subscriptionStatusObjectSchema = z.looseObject({
  metadata: metadataSchema,
  status: subscriptionStatusSchema.optional(),
});

/** A ClusterServiceVersion read for its install phase (`Succeeded`, `Installing`, `Failed`, ...). */
export const clusterServiceVersionSchema = z.looseObject({
  metadata: metadataSchema,
  status: z
    .looseObject({
      phase: z.string().optional(),
      reason: z.string().optional(),
      message: z.string().optional(),
    })
    .optional(),
});

export type ClusterServiceVersionLike = z.output<typeof clusterServiceVersionSchema>;
