import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { GroundworkError } from '../../core/errors.js';
import { buildControlPlane, isCompleteBinaryDir } from './build/build.js';
import { cacheRoot } from '../../core/cache-root.js';
import { silentProgress, type Progress } from '../../core/progress.js';

/** Paths of the control-plane binaries and where they came from. */
export interface BinarySet {
  kubeApiserver: string;
  etcd: string;
  kubectl: string | undefined;
  /** Absent only when the user's envtest assets lack it; cascades and namespace deletion then do not run. */
  kubeControllerManager: string | undefined;
  /** Set only on a control plane that runs pods (`resolveWorkloadBinaries`). */
  kubeScheduler?: string;
  kwok?: string;
  source: 'env' | 'cache' | 'built';
}

interface ResolveOptions {
  env?: NodeJS.ProcessEnv;
  progress?: Progress;
  /** Build when nothing is found. @default true */
  build?: boolean;
}

/**
 * Finds the binaries in this order:
 * 1. `TEST_ASSET_KUBE_APISERVER` / `TEST_ASSET_ETCD` / `TEST_ASSET_KUBECTL` /
 *    `TEST_ASSET_KUBE_CONTROLLER_MANAGER`, then `KUBEBUILDER_ASSETS` (a directory), as envtest does;
 * 2. the newest complete build in `<cache>/controlplane/`;
 * 3. a fresh build from the Go module proxy (minutes, once).
 * A kube-controller-manager missing from envtest assets is taken from the cache when one exists.
 */
export async function resolveBinaries(opts: ResolveOptions = {}): Promise<BinarySet> {
  const env = opts.env ?? process.env;
  const cached = await newestCachedBuild(env);
  const fromEnv = binariesFromEnv(env, cached);
  if (fromEnv) return fromEnv;
  if (cached) return { ...binariesIn(cached), source: 'cache' };
  if (opts.build === false) {
    throw new GroundworkError({
      code: 'ControlPlaneBinariesMissing',
      message: 'no control-plane binaries in the cache',
      fix: 'run `groundwork cluster up` once to build them, or set KUBEBUILDER_ASSETS',
    });
  }
  const dir = await buildControlPlane({ progress: opts.progress ?? silentProgress, env });
  return { ...binariesIn(dir), source: 'built' };
}

function binariesIn(dir: string): Omit<BinarySet, 'source'> {
  return {
    kubeApiserver: join(dir, 'kube-apiserver'),
    etcd: join(dir, 'etcd'),
    kubectl: join(dir, 'kubectl'),
    kubeControllerManager: join(dir, 'kube-controller-manager'),
  };
}

function binariesFromEnv(env: NodeJS.ProcessEnv, cachedDir: string | undefined): BinarySet | undefined {
  const assets = env.KUBEBUILDER_ASSETS;
  const pick = (variable: string, name: string): string | undefined => {
    const explicit = env[variable];
    if (explicit) return explicit;
    if (assets && existsSync(join(assets, name))) return join(assets, name);
    return undefined;
  };
  const kubeApiserver = pick('TEST_ASSET_KUBE_APISERVER', 'kube-apiserver');
  const etcd = pick('TEST_ASSET_ETCD', 'etcd');
  if (!kubeApiserver && !etcd) return undefined;
  if (!kubeApiserver || !etcd) {
    throw new GroundworkError({
      code: 'ControlPlaneBinariesMissing',
      message: `envtest assets are incomplete: kube-apiserver=${kubeApiserver ?? 'missing'}, etcd=${etcd ?? 'missing'}`,
      fix: 'set both TEST_ASSET_KUBE_APISERVER and TEST_ASSET_ETCD, or KUBEBUILDER_ASSETS to a directory with both',
    });
  }
  for (const path of [kubeApiserver, etcd]) {
    if (!existsSync(path)) {
      throw new GroundworkError({
        code: 'ControlPlaneBinariesMissing',
        message: `${path} does not exist`,
        fix: 'check KUBEBUILDER_ASSETS / TEST_ASSET_* paths',
      });
    }
  }
  const cachedKcm = cachedDir ? join(cachedDir, 'kube-controller-manager') : undefined;
  return {
    kubeApiserver,
    etcd,
    kubectl: pick('TEST_ASSET_KUBECTL', 'kubectl') ?? (cachedDir ? join(cachedDir, 'kubectl') : undefined),
    kubeControllerManager: pick('TEST_ASSET_KUBE_CONTROLLER_MANAGER', 'kube-controller-manager') ?? cachedKcm,
    source: 'env',
  };
}

/** The newest complete build under `<cache>/controlplane/`, by Kubernetes version. */
async function newestCachedBuild(env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const root = join(cacheRoot(env), 'controlplane');
  if (!existsSync(root)) return undefined;
  const dirs = (await readdir(root)).filter(
    (d) => /^v\d+\.\d+\.\d+$/.test(d) && isCompleteBinaryDir(join(root, d)),
  );
  dirs.sort((a, b) => {
    const pa = a.slice(1).split('.').map(Number);
    const pb = b.slice(1).split('.').map(Number);
    return pb[0]! - pa[0]! || pb[1]! - pa[1]! || pb[2]! - pa[2]!;
  });
  return dirs[0] ? join(root, dirs[0]) : undefined;
}
