import { maintenanceWindowSchema, z } from 'groundwork-gitops';

/** What an overlay (overlays/*.yaml) sets; everything else is fixed in main.ts. */
export const Values = z
  .object({
    /** Reached one valid update step at a time. */
    clusterVersion: z.object({ channel: z.string(), version: z.string() }).strict(),
    /** Kepler is pinned: Groundwork approves only the InstallPlans on the way to this CSV. */
    kepler: z.object({ channel: z.string().default('alpha'), pin: z.string() }).strict(),
    infraPool: z
      .object({
        maxUnavailable: z.union([z.number().int().min(1), z.string().regex(/^\d+%$/)]).default(1),
        /** Outside these windows the pool stays paused and MachineConfig changes wait. */
        maintenanceWindows: z.array(maintenanceWindowSchema).default([]),
      })
      .strict(),
    ntpServers: z.array(z.string().min(1)).min(1),
  })
  .strict();

export type Values = z.infer<typeof Values>;
