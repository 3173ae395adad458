import { z } from 'groundwork-gitops';

/**
 * What differs between environments and clusters: every overlay (overlays/*.yaml) is validated
 * against this schema, and errors name the overlay file, line and key.
 */
export const Values = z
  .object({
    /** The environment's name, shown on the platform-info ConfigMap. */
    environment: z.string(),
    /** The OpenShift minor the platform is written for, e.g. "4.16". */
    openshiftVersion: z.string().default('4.16'),
    certManager: z
      .object({
        channel: z.string().default('stable-v1'),
        approval: z.enum(['Automatic', 'Manual']).default('Automatic'),
      })
      .strict()
      .default({ channel: 'stable-v1', approval: 'Automatic' }),
  })
  .strict();

export type Values = z.infer<typeof Values>;
