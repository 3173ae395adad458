import { join } from 'node:path';
import { cacheRoot } from '../../core/cache-root.js';

/** Where built control-plane binaries for one Kubernetes version live: `<cache>/controlplane/<version>/`. */
export function binaryCacheDir(kubernetesVersion: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheRoot(env), 'controlplane', kubernetesVersion);
}

/** Where `groundwork cluster up` records its detached instances: `<cache>/clusters/<name>/`. */
export function clusterStateDir(name: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheRoot(env), 'clusters', name);
}
