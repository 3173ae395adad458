import { z } from 'zod';
import { conditionsSchema, objectSchema, parseClusterObject } from '../core/cluster-object.js';

/**
 * The fields of a `machineconfiguration.openshift.io/v1` MachineConfigPool that Groundwork reads
 * (its health, the machine-configs stage's rollout, the EUS pool pauses), in one schema. Lenient
 * where the MCO is: a new pool has no status, `source` and `conditions` may be null, and every
 * field the schema does not name is kept. It lives beside the pool's health check so that the
 * health checks (a lower layer) and the domain hooks read pools the same way.
 */

const configuration = z.looseObject({
  name: z.string().optional(),
  source: z.array(z.looseObject({ name: z.string().optional() })).nullish(),
});

const count = z.number().int().nonnegative().optional();

export const machineConfigPoolSchema = objectSchema.extend({
  spec: z
    .looseObject({
      paused: z.boolean().optional(),
      /** IntOrString: a count of machines or a percentage (`10%`). */
      maxUnavailable: z.union([z.number().int(), z.string()]).nullish(),
      configuration: configuration.optional(),
    })
    .optional(),
  status: z
    .looseObject({
      observedGeneration: z.number().optional(),
      machineCount: count,
      updatedMachineCount: count,
      readyMachineCount: count,
      unavailableMachineCount: count,
      degradedMachineCount: count,
      configuration: configuration.optional(),
      conditions: conditionsSchema,
    })
    .optional(),
});

/** A MachineConfigPool as read from the cluster, its fields checked. */
export type MachineConfigPool = z.output<typeof machineConfigPoolSchema>;

/**
 * Validates a MachineConfigPool read from the cluster.
 * @throws ClusterObjectInvalidError naming the pool (`MachineConfigPool/worker`) and every bad field.
 */
export function readMachineConfigPool(obj: unknown): MachineConfigPool {
  return parseClusterObject(machineConfigPoolSchema, obj, 'MachineConfigPool');
}
