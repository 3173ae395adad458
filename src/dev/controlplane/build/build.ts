import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GroundworkError } from '../../../core/errors.js';
import { cacheRoot } from '../../../core/cache-root.js';
import { binaryCacheDir } from '../paths.js';
import { formatElapsed, silentProgress, type Progress } from '../../../core/progress.js';
import { downloadGoMod, localGoVersion, moduleVersions, runGo } from '../../../tools/go.js';
import { kubernetesBuildGoMod, stagingModules } from './gomod.js';
import { compile } from '../../../tools/compile.js';
import { toolsGo } from '../../../tools/gomod.js';
import { candidateVersions, newestBuildable } from './versions.js';

/** What a finished build wrote next to the binaries, as `versions.json`. */
interface BuildRecord {
  kubernetes: string;
  etcd: string;
  go: string;
  builtAt: string;
}

const BINARY_NAMES = ['kube-apiserver', 'kube-controller-manager', 'kubectl', 'etcd'] as const;

const KUBE_COMMANDS = ['kube-apiserver', 'kube-controller-manager', 'kubectl'].map(
  (c) => `k8s.io/kubernetes/cmd/${c}`,
);
/** Built only when a cluster needs running pods (`build/scheduler-build.ts`), from the same module. */
export const KUBE_SCHEDULER = 'k8s.io/kubernetes/cmd/kube-scheduler';
const ETCD_MAIN = 'go.etcd.io/etcd/server/v3';

interface BuildOptions {
  progress?: Progress;
  env?: NodeJS.ProcessEnv;
  /** Kubernetes minors to consider, newest first. @default ['1.36', '1.35'] */
  kubernetesMinors?: readonly string[];
  /** etcd minors to consider, newest first. @default ['3.6', '3.5'] */
  etcdMinors?: readonly string[];
}

/**
 * Builds kube-apiserver, kube-controller-manager, kubectl and etcd from the Go module proxy
 * into `<cache>/controlplane/<version>/` and returns that directory. The newest patch of the
 * requested minors whose go.mod the local Go can build is chosen. A finished build is moved
 * into place atomically, so an interrupted build leaves no half-filled cache entry.
 *
 * Does not look for existing binaries: see `resolveBinaries` for the lookup order.
 */
export async function buildControlPlane(opts: BuildOptions = {}): Promise<string> {
  const progress = opts.progress ?? silentProgress;
  const env = opts.env ?? process.env;
  const work = join(cacheRoot(env), 'controlplane', '.work');
  const scratch = join(work, 'scratch');
  await mkdir(scratch, { recursive: true });
  await writeFile(join(scratch, 'go.mod'), 'module groundwork.local/scratch\n');

  progress.start('resolving versions on the Go module proxy');
  const go = await localGoVersion(scratch);
  const readGoMod = (module: string) => async (v: string) =>
    readFile(await downloadGoMod(`${module}@${v}`, scratch), 'utf8');
  const kube = await newestBuildable(
    candidateVersions(
      await moduleVersions('k8s.io/kubernetes', scratch),
      opts.kubernetesMinors ?? ['1.36', '1.35'],
    ),
    go,
    readGoMod('k8s.io/kubernetes'),
  );
  const etcd = await newestBuildable(
    candidateVersions(await moduleVersions(ETCD_MAIN, scratch), opts.etcdMinors ?? ['3.6', '3.5']),
    go,
    readGoMod(ETCD_MAIN),
  );
  if (!kube || !etcd) {
    progress.fail('no buildable version found');
    throw new GroundworkError({
      code: 'ControlPlaneBuildFailed',
      message: `no Kubernetes 1.35/1.36 or etcd 3.5/3.6 release builds with local Go ${go}`,
      fix: 'install a newer Go, or set KUBEBUILDER_ASSETS to a directory with kube-apiserver, etcd and kubectl',
    });
  }
  progress.succeed(`Kubernetes ${kube.version}, etcd ${etcd.version}, Go ${go}`);

  const finalDir = binaryCacheDir(kube.version, env);
  const tmpDir = `${finalDir}.tmp-${process.pid}`;
  await rm(tmpDir, { recursive: true, force: true });
  await mkdir(tmpDir, { recursive: true });
  try {
    const kubeModule = await kubernetesModule({
      version: kube.version,
      goMod: kube.goMod,
      go,
      env,
      progress,
    });
    for (const pkg of KUBE_COMMANDS) {
      await compile({
        moduleDir: kubeModule,
        pkg,
        out: tmpDir,
        ldflags: versionLdflags(kube.version),
        progress,
      });
    }

    const etcdModule = join(work, `etcd-${etcd.version}`);
    await mkdir(etcdModule, { recursive: true });
    await writeFile(
      join(etcdModule, 'go.mod'),
      `module groundwork.local/etcd-build\n\ngo ${go}\n\nrequire ${ETCD_MAIN} ${etcd.version}\n`,
    );
    await writeFile(join(etcdModule, 'tools.go'), toolsGo([ETCD_MAIN]));
    await tidy(etcdModule, `etcd ${etcd.version}`, progress);
    await compile({
      moduleDir: etcdModule,
      pkg: ETCD_MAIN,
      out: join(tmpDir, 'etcd'),
      ldflags: '-s -w',
      progress,
      name: 'etcd',
    });

    const record: BuildRecord = {
      kubernetes: kube.version,
      etcd: etcd.version,
      go,
      builtAt: new Date().toISOString(),
    };
    await writeFile(join(tmpDir, 'versions.json'), `${JSON.stringify(record, null, 2)}\n`);
    await rm(finalDir, { recursive: true, force: true });
    await rename(tmpDir, finalDir);
    return finalDir;
  } catch (err) {
    await rm(tmpDir, { recursive: true, force: true });
    progress.fail('control-plane build failed');
    throw new GroundworkError({
      code: 'ControlPlaneBuildFailed',
      message: err instanceof Error ? err.message : String(err),
      fix:
        'check network access to the Go module proxy (GOPROXY), or supply binaries: set KUBEBUILDER_ASSETS ' +
        '(or TEST_ASSET_KUBE_APISERVER, TEST_ASSET_ETCD, TEST_ASSET_KUBECTL) to prebuilt kube-apiserver, etcd and kubectl',
      cause: err,
    });
  }
}

/**
 * The throwaway module that builds Kubernetes `version`'s commands (`.work/kubernetes-<version>/`),
 * written and tidied; returns its directory. Its tools.go names kube-scheduler too, so a later
 * scheduler build reuses the module as it is.
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
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'go.mod'),
    kubernetesBuildGoMod({ version: opts.version, goVersion: opts.go, staging: stagingModules(opts.goMod) }),
  );
  await writeFile(join(dir, 'tools.go'), toolsGo([...KUBE_COMMANDS, KUBE_SCHEDULER]));
  await tidy(dir, `Kubernetes ${opts.version}`, opts.progress);
  return dir;
}

/** The `-X` flags that make `--version` report the real release instead of `v0.0.0-master`. */
export function versionLdflags(version: string): string {
  const [major, minor] = version.replace(/^v/, '').split('.');
  const pkgs = ['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version'];
  const vars = {
    gitVersion: version,
    gitMajor: major,
    gitMinor: minor,
    gitTreeState: 'clean',
    buildDate: '1970-01-01T00:00:00Z',
  };
  const flags = pkgs.flatMap((p) => Object.entries(vars).map(([k, v]) => `-X ${p}.${k}=${v}`));
  return ['-s', '-w', ...flags].join(' ');
}

async function tidy(moduleDir: string, what: string, progress: Progress): Promise<void> {
  const started = Date.now();
  let downloads = 0;
  progress.start(`downloading modules for ${what}`);
  await runGo(['mod', 'tidy'], {
    cwd: moduleDir,
    onLine: (line) => {
      const m = /^go: downloading (\S+)/.exec(line);
      if (m)
        progress.update(
          `downloading modules for ${what}: ${++downloads} (${m[1]}), ${formatElapsed(Date.now() - started)}`,
        );
    },
  });
  progress.succeed(
    `modules for ${what} ready (${downloads} downloaded, ${formatElapsed(Date.now() - started)})`,
  );
}

/** True when `dir` holds every control-plane binary and a build record. */
export function isCompleteBinaryDir(dir: string): boolean {
  return [...BINARY_NAMES, 'versions.json'].every((f) => existsSync(join(dir, f)));
}
