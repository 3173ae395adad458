import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Root of Groundwork's cache, outside any repository:
 * `$GROUNDWORK_CACHE_DIR`, else `$XDG_CACHE_HOME/groundwork`, else `~/.cache/groundwork`.
 */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.GROUNDWORK_CACHE_DIR) return env.GROUNDWORK_CACHE_DIR;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'groundwork');
}

/** Where built control-plane binaries for one Kubernetes version live: `<cache>/controlplane/<version>/`. */
export function binaryCacheDir(kubernetesVersion: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheRoot(env), 'controlplane', kubernetesVersion);
}

/** Where `groundwork cluster up` records its detached instances: `<cache>/clusters/<name>/`. */
export function clusterStateDir(name: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheRoot(env), 'clusters', name);
}
