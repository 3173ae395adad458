import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cacheRoot } from '../../../core/cache-root.js';
import type { Progress } from '../../../core/progress.js';
import { downloadGoMod, localGoVersion } from '../../../tools/go.js';
import { toolsGo } from '../../../tools/gomod.js';
import { withLock } from '../../../tools/tool-lock.js';
import { KWOK_RECIPE } from '../../tools/kwok-recipe.js';
import { tidy } from './tidy.js';
import { kubernetesBuildGoMod, stagingModules } from './gomod.js';

/** The control plane's commands, built together by `buildControlPlane`. */
export const KUBE_COMMANDS = ['kube-apiserver', 'kube-controller-manager', 'kubectl'].map(
  (c) => `k8s.io/kubernetes/cmd/${c}`,
);
/** Built only when a cluster needs running pods (`build/scheduler-build.ts`), from the same module. */
export const KUBE_SCHEDULER = 'k8s.io/kubernetes/cmd/kube-scheduler';

/**
 * The throwaway module that builds Kubernetes `version`'s commands (`.work/kubernetes-<version>/`),
 * written and tidied; returns its directory. It requires KWOK's pinned release too, and its tools.go
 * names kube-scheduler and KWOK, so a later build of either (`scheduler-build.ts`, `kwok-build.ts`)
 * uses the module as it is and the packages the control plane's build compiled: KWOK's k8s.io
 * modules (the same minor) resolve to the release's. The build list is the union, the higher version
 * of a module both require, so the control plane links the golang.org/x, grpc and otel releases KWOK
 * asks for when they are newer than the release's. A module already written for the same input is
 * returned as it is; a lock keeps two processes from writing it at once.
 */
export async function kubernetesModule(opts: {
  version: string;
  /** The release's own go.mod (its staging modules are replaced by their published twins). */
  goMod: string;
  go: string;
  env: NodeJS.ProcessEnv;
  progress: Progress;
}): Promise<string> {
  const dir = join(cacheRoot(opts.env), 'controlplane', '.work', `kubernetes-${opts.version}`);
  const goMod = kubernetesBuildGoMod({
    version: opts.version,
    goVersion: opts.go,
    staging: stagingModules(opts.goMod),
    also: [`${KWOK_RECIPE.module} ${KWOK_RECIPE.version}`],
  });
  const tools = toolsGo([...KUBE_COMMANDS, KUBE_SCHEDULER, KWOK_RECIPE.pkg]);
  const input = `${goMod}\n${tools}`;
  const stamp = join(dir, 'groundwork-input.txt');
  await mkdir(dir, { recursive: true });
  return withLock(`${dir}.lock`, async () => {
    const done = await readFile(stamp, 'utf8').catch(() => undefined);
    if (done === input && existsSync(join(dir, 'go.sum'))) return dir;
    await writeFile(join(dir, 'go.mod'), goMod);
    await writeFile(join(dir, 'tools.go'), tools);
    await tidy(dir, `Kubernetes ${opts.version}`, opts.progress);
    await writeFile(stamp, input);
    return dir;
  });
}

/**
 * `kubernetesModule` of a release known by its version only (a later build of the scheduler or
 * KWOK): reads the release's go.mod from the module proxy (or the module cache) first.
 */
export async function releaseModule(opts: {
  version: string;
  env: NodeJS.ProcessEnv;
  progress: Progress;
}): Promise<string> {
  const scratch = join(cacheRoot(opts.env), 'controlplane', '.work', 'scratch');
  await mkdir(scratch, { recursive: true });
  await writeFile(join(scratch, 'go.mod'), 'module groundwork.local/scratch\n');
  const go = await localGoVersion(scratch);
  const goMod = await readFile(await downloadGoMod(`k8s.io/kubernetes@${opts.version}`, scratch), 'utf8');
  return kubernetesModule({ ...opts, goMod, go });
}
