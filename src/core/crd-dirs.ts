import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { dataPath } from './data-dir.js';
import { GroundworkError } from './errors.js';
import { packageRoot } from './package-root.js';

export { packageRoot };

/**
 * CRD directories installed by default: the platform CRDs (OLM, ClusterVersion, ClusterOperator,
 * MachineConfig, MachineConfigPool) shipped in `data/crds`, and Groundwork's own `crds/`.
 */
export function defaultCrdDirs(): string[] {
  return [dataPath('crds'), join(packageRoot, 'crds')];
}

/**
 * Checks that every CRD directory exists and is a directory; throws `CrdDirectoryMissing` naming
 * the first one that is not, so that a missing directory is never dropped without a word (the
 * kinds it serves would then plan as "not served" and apply would wait for them until it times out).
 */
export function checkCrdDirs(dirs: readonly string[]): void {
  for (const dir of dirs) {
    if (existsSync(dir) && statSync(dir).isDirectory()) continue;
    throw new GroundworkError({
      code: 'CrdDirectoryMissing',
      subject: dir,
      message: existsSync(dir) ? 'not a directory' : 'CRD directory not found',
      fix: 'pass an existing directory with --crds, or reinstall Groundwork (its data/crds holds the OLM and OpenShift CRDs)',
    });
  }
}
