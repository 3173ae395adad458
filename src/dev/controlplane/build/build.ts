import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GroundworkError } from '../../../core/errors.js';
import { cacheRoot } from '../../../core/cache-root.js';
import { binaryCacheDir } from '../paths.js';
import { silentProgress, type Progress } from '../../../core/progress.js';
import { downloadGoMod, localGoVersion, moduleVersions } from '../../../tools/go.js';
import { KUBE_COMMANDS, kubernetesModule } from './kubernetes-module.js';
import { tidy } from './tidy.js';
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
    // One `go build` for the three: their shared packages compile once and the links run in parallel.
    await compile({
      moduleDir: kubeModule,
      pkg: KUBE_COMMANDS,
      out: tmpDir,
      ldflags: versionLdflags(kube.version),
      progress,
      env,
    });

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
      env,
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

/** True when `dir` holds every control-plane binary and a build record. */
export function isCompleteBinaryDir(dir: string): boolean {
  return [...BINARY_NAMES, 'versions.json'].every((f) => existsSync(join(dir, f)));
}
