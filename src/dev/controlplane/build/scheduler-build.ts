import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { cacheRoot } from '../../../core/cache-root.js';
import { GroundworkError } from '../../../core/errors.js';
import { formatElapsed, type Progress } from '../../../core/progress.js';
import { compile } from '../../../tools/compile.js';
import { withLock } from '../../../tools/tool-lock.js';
import { versionLdflags } from './build.js';
import { KUBE_SCHEDULER, releaseModule } from './kubernetes-module.js';

/**
 * Builds kube-scheduler of Kubernetes `version` from the Go module proxy into `<dir>/kube-scheduler`
 * (the control plane's cache directory of that version) and returns its path. It uses the same
 * throwaway module as the control plane's build (`kubernetesModule`: the release with its staging
 * modules replaced by their published twins), so the scheduler matches the apiserver it talks to and,
 * after a control-plane build, compiles mostly from Go's build cache. Two processes never build it at
 * once (a lock in the cache; the second takes the first one's result), and the binary is moved into
 * place only when complete. Returns at once when `<dir>/kube-scheduler` exists.
 */
export async function buildScheduler(opts: {
  version: string;
  dir: string;
  env: NodeJS.ProcessEnv;
  progress: Progress;
}): Promise<string> {
  const { version, dir, env, progress } = opts;
  const out = join(dir, 'kube-scheduler');
  const work = join(cacheRoot(env), 'controlplane', '.work');
  return withLock(join(work, `.lock-kube-scheduler-${version}`), async () => {
    if (existsSync(out)) return out;
    const started = Date.now();
    const tmp = `${out}.tmp-${process.pid}`;
    try {
      progress.start(`kube-scheduler ${version}: preparing its module`);
      const moduleDir = await releaseModule({ version, env, progress });
      await mkdir(dir, { recursive: true });
      await compile({
        moduleDir,
        pkg: KUBE_SCHEDULER,
        out: tmp,
        ldflags: versionLdflags(version),
        progress,
        name: 'kube-scheduler',
        env,
      });
      await rename(tmp, out);
      progress.succeed(`kube-scheduler ${version} built in ${formatElapsed(Date.now() - started)}`);
      return out;
    } catch (err) {
      await rm(tmp, { force: true });
      progress.fail('kube-scheduler build failed');
      throw new GroundworkError({
        code: 'ControlPlaneBuildFailed',
        subject: `kube-scheduler ${version}`,
        message: err instanceof Error ? err.message : String(err),
        fix:
          'check access to the Go module proxy (GOPROXY), or set TEST_ASSET_KUBE_SCHEDULER to a kube-scheduler ' +
          `of Kubernetes ${version.replace(/\.\d+$/, '')}`,
        cause: err,
      });
    }
  });
}
