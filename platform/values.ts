import { maintenanceWindowSchema, z } from 'groundwork-gitops';

/**
 * The values an overlay (overlays/*.yaml) sets. Everything that differs between environments or
 * clusters lives here; everything else is fixed in main.ts.
 */
export const Values = z
  .object({
    /** The cluster version target: reached one valid update step at a time. */
    clusterVersion: z
      .object({
        channel: z.string(),
        version: z.string(),
        acceptedRisks: z.array(z.string()).default([]),
      })
      .strict(),
    gitops: z
      .object({
        channel: z.string().default('latest'),
        approval: z.enum(['Automatic', 'Manual']).default('Automatic'),
      })
      .strict()
      .default({ channel: 'latest', approval: 'Automatic' }),
    certManager: z
      .object({ channel: z.string().default('stable-v1') })
      .strict()
      .default({ channel: 'stable-v1' }),
    /** Kepler (power monitoring) is pinned: Groundwork approves only the InstallPlans on the path to the pin. */
    kepler: z.object({ channel: z.string().default('alpha'), pin: z.string() }).strict(),
    infraPool: z
      .object({
        maxUnavailable: z.union([z.number().int().min(1), z.string().regex(/^\d+%$/)]).default(1),
        paused: z.boolean().default(false),
        /** Outside these windows the pool stays paused and MachineConfig changes wait. */
        maintenanceWindows: z.array(maintenanceWindowSchema).default([]),
      })
      .strict(),
    chrony: z.object({ servers: z.array(z.string().min(1)).min(1) }).strict(),
    /** Extra kernel arguments for worker nodes. */
    workerKernelArguments: z.array(z.string()).default([]),
  })
  .strict();

export type Values = z.infer<typeof Values>;
