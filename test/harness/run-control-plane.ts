import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { inject } from 'vitest';
import { isAlive } from '../../src/core/process-alive.js';

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
 * (so cluster-scoped objects, the audit log and "zero writes" stay the file's alone).
 *
 * The lane is claimed, not taken from vitest's worker slot: `VITEST_POOL_ID` is not unique among
 * the forks running at once (a CI run's audit log showed the hub e2e files hub-agent and
 * hub-mc-rollout on one control plane at the same time, and one file's cleanup deleting the
 * other's hub). A claim is a file `lane-<n>` created exclusively in the run's lane directory,
 * holding this process's PID, for the life of the process (an e2e fork runs one file); a claim
 * whose process is gone is taken over. With every lane claimed, this waits for one.
 */
export function runControlPlane(): RunControlPlane {
  const planes = inject('controlPlanes');
  if (!planes?.length)
    throw new Error('no control plane for this file: runControlPlane() is for files of the e2e project');
  claimed ??= claimLane(planes);
  return planes[claimed]!;
}

let claimed: number | undefined;

function claimLane(planes: readonly RunControlPlane[]): number {
  const dir = join(dirname(planes[0]!.kubeconfig), 'lanes');
  mkdirSync(dir, { recursive: true });
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    for (let lane = 0; lane < planes.length; lane++) {
      const file = join(dir, `lane-${lane + 1}`);
      try {
        writeFileSync(file, String(process.pid), { flag: 'wx' });
        process.once('exit', () => rmSync(file, { force: true }));
        return lane;
      } catch {
        // Claimed: take it over only when its process is gone.
        const holder = Number(readHolder(file));
        if (holder > 0 && !isAlive(holder)) rmSync(file, { force: true });
      }
    }
    Atomics.wait(pause, 0, 0, 100);
  }
}

/** The claim's PID, or '' when it is gone or not written yet. */
function readHolder(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
