import { z } from 'zod';
import { metadataSchema } from '../core/cluster-object.js';

/**
 * What the Job controller and the kubelet write into the status of a hook Job or Pod, as the hook
 * wait (`hookDone`) reads it. Unknown fields are kept; fields of other types make the object
 * invalid (`ClusterObjectInvalid`), never a guess.
 */

const conditionSchema = z.looseObject({
  type: z.string(),
  status: z.string(),
  reason: z.string().optional(),
  message: z.string().optional(),
});

/** A batch/v1 Job read for its status: conditions and pod counts. */
export const jobStatusObjectSchema = z.looseObject({
  metadata: metadataSchema,
  status: z
    .looseObject({
      conditions: z.array(conditionSchema).optional(),
      active: z.number().optional(),
      succeeded: z.number().optional(),
      failed: z.number().optional(),
    })
    .optional(),
});

/** A core/v1 Pod read for its phase. */
export const podPhaseObjectSchema = z.looseObject({
  metadata: metadataSchema,
  status: z.looseObject({ phase: z.string().optional() }).optional(),
});
