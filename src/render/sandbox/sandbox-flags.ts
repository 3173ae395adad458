import { join } from 'node:path';
import { packageRoot } from '../../core/package-root.js';
import { sandboxReadPaths } from './sandbox-paths.js';

/**
 * Node's permission model for platform code: read the checkout but its `.git` and `node_modules`
 * (`sandboxReadPaths`, real paths), the bundle, and Groundwork's shipped data (CRDs, update graphs)
 * and package.json; write nothing; no child processes, no worker threads. The network is not
 * restricted by Node 20: the renderer around the child has none (docs/security.md).
 */
export function sandboxFlags(dir: string, bundleFile: string): string[] {
  const reads = [
    ...sandboxReadPaths(dir),
    bundleFile,
    `${join(packageRoot, 'data')}/`,
    join(packageRoot, 'package.json'),
  ];
  // Once each: Node 20 aborts at start-up on a path granted twice (a checkout that is Groundwork's
  // own repository has data/ and package.json of its own).
  return ['--experimental-permission', ...[...new Set(reads)].map((path) => `--allow-fs-read=${path}`)];
}
