import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { packageRoot } from '../core/package-root.js';

export { packageRoot };

/** The shared fixtures next to the repository (`../shared/fixtures`), overridable by `GROUNDWORK_FIXTURES`. */
export function fixturesDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.GROUNDWORK_FIXTURES ?? resolve(packageRoot, '../shared/fixtures');
}

/**
 * CRD directories installed by default: the platform CRDs (OLM, ClusterVersion, ClusterOperator,
 * MachineConfig, MachineConfigPool) from the shared fixtures, and Groundwork's own `crds/`.
 * Only directories that exist are returned.
 */
export function defaultCrdDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  return [join(fixturesDir(env), 'crds'), join(packageRoot, 'crds')].filter((d) => existsSync(d));
}
