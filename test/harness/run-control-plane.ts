import { inject } from 'vitest';

/** One of the run's control planes, as the e2e global setup provides it. */
export interface RunControlPlane {
  readonly kubeconfig: string;
  readonly server: string;
  readonly pids: readonly number[];
  readonly auditLog: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's control planes, one per e2e lane (`global-setup.ts`). */
    controlPlanes: RunControlPlane[];
    /** kubectl of the control-plane build (the same binary for every lane). */
    kubectl: string;
  }
}

/**
 * The run's control plane of this test file: e2e files run in lanes, as many at a time as the e2e
 * project has workers, and each lane has a control plane of its own that sees one file at a time
 * (so cluster-scoped objects, the audit log and "zero writes" stay the file's alone). The lane is
 * vitest's worker slot (`VITEST_POOL_ID`, 1 to the number of workers).
 */
export function runControlPlane(): RunControlPlane {
  const planes = inject('controlPlanes');
  const lane = Number(process.env.VITEST_POOL_ID ?? '1');
  const plane = planes?.[lane - 1];
  if (!plane)
    throw new Error(
      `no control plane for e2e lane ${lane} (the run has ${planes?.length ?? 0}): ` +
        'runControlPlane() is for files of the e2e project',
    );
  return plane;
}
