import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { GroundworkError, hasCode } from '../../core/errors.js';
import { silentProgress, type Progress } from '../../core/progress.js';
import { resolveTool } from '../../tools/resolve-tool.js';
import { KWOK_RECIPE } from '../tools/kwok-recipe.js';
import type { BinarySet } from './binaries.js';
import { buildKwok } from './build/kwok-build.js';
import { buildScheduler } from './build/scheduler-build.js';
import { binaryCacheDir } from './paths.js';

/** What runs pods on the local control plane: the scheduler and the node simulator. */
export interface WorkloadBinaries {
  kubeScheduler: string;
  kwok: string;
}

interface ResolveWorkloadOptions {
  env?: NodeJS.ProcessEnv;
  progress?: Progress;
  /** Build what is missing. @default true */
  build?: boolean;
}

/**
 * Finds kube-scheduler and KWOK for a control plane already resolved (`resolveBinaries`), building
 * each the first time it is needed (never before: a cluster without pods pays for neither).
 * kube-scheduler: `TEST_ASSET_KUBE_SCHEDULER`, then `KUBEBUILDER_ASSETS/kube-scheduler`, then
 * `<cache>/controlplane/<version>/kube-scheduler` of the apiserver's own version (built there when
 * missing, `buildScheduler`). KWOK: `GROUNDWORK_KWOK`, PATH, then `<cache>/tools/kwok-v0.8.0/`,
 * built when missing (`kwokBinary`). The scheduler is built first: it is the shorter build.
 */
export async function resolveWorkloadBinaries(
  controlPlane: BinarySet,
  opts: ResolveWorkloadOptions = {},
): Promise<WorkloadBinaries> {
  const env = opts.env ?? process.env;
  const progress = opts.progress ?? silentProgress;
  const kubeScheduler = await schedulerBinary(controlPlane, { env, progress, build: opts.build ?? true });
  const kwok = await kwokBinary(controlPlane, { env, progress, build: opts.build ?? true });
  return { kubeScheduler, kwok };
}

/**
 * KWOK as `resolveTool` finds it; when it has to be built, it is built in the module of the control
 * plane's own Kubernetes release (`buildKwok`: minutes less than a module of its own), unless the
 * control plane is the user's (envtest assets of any version), where `resolveTool` builds it alone.
 */
async function kwokBinary(
  controlPlane: BinarySet,
  opts: { env: NodeJS.ProcessEnv; progress: Progress; build: boolean },
): Promise<string> {
  const { env, progress } = opts;
  const shared = opts.build && controlPlane.source !== 'env' && !env[KWOK_RECIPE.envVar];
  try {
    return (await resolveTool(KWOK_RECIPE, { env, progress, build: opts.build && !shared })).path;
  } catch (err) {
    if (!shared || !hasCode(err, 'ToolNotUsable')) throw err;
  }
  return buildKwok({ version: await apiserverVersion(controlPlane), env, progress });
}

async function schedulerBinary(
  controlPlane: BinarySet,
  opts: { env: NodeJS.ProcessEnv; progress: Progress; build: boolean },
): Promise<string> {
  const { env } = opts;
  const explicit = env.TEST_ASSET_KUBE_SCHEDULER;
  if (explicit) {
    if (!existsSync(explicit)) throw missing(`TEST_ASSET_KUBE_SCHEDULER=${explicit} does not exist`);
    return explicit;
  }
  const fromAssets = env.KUBEBUILDER_ASSETS && join(env.KUBEBUILDER_ASSETS, 'kube-scheduler');
  if (fromAssets && existsSync(fromAssets)) return fromAssets;
  const version = await apiserverVersion(controlPlane);
  const dir = binaryCacheDir(version, env);
  const cached = join(dir, 'kube-scheduler');
  if (existsSync(cached)) return cached;
  if (!opts.build) throw missing(`no kube-scheduler ${version} in ${dir}`);
  return buildScheduler({ version, dir, env, progress: opts.progress });
}

/** The apiserver's Kubernetes version: from its build record, else from `kube-apiserver --version`. */
async function apiserverVersion(controlPlane: BinarySet): Promise<string> {
  const record = join(dirname(controlPlane.kubeApiserver), 'versions.json');
  if (controlPlane.source !== 'env' && existsSync(record)) {
    const kubernetes = (JSON.parse(await readFile(record, 'utf8')) as { kubernetes?: unknown }).kubernetes;
    if (typeof kubernetes === 'string' && /^v\d+\.\d+\.\d+$/.test(kubernetes)) return kubernetes;
  }
  const { stdout } = await promisify(execFile)(controlPlane.kubeApiserver, ['--version'], {
    timeout: 10_000,
  });
  const version = /Kubernetes (v\d+\.\d+\.\d+)\b/.exec(stdout)?.[1];
  if (!version)
    throw missing(`cannot tell the version of ${controlPlane.kubeApiserver} ("${stdout.trim()}")`);
  return version;
}

function missing(message: string): GroundworkError {
  return new GroundworkError({
    code: 'ControlPlaneBinariesMissing',
    subject: 'kube-scheduler',
    message,
    fix: "run `groundwork cluster up` once to build it, or set TEST_ASSET_KUBE_SCHEDULER to a kube-scheduler of the apiserver's version",
  });
}
