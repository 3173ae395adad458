// Builds Flux's kustomize-controller once from the Go module proxy and caches it, like the control
// plane: a throwaway module that requires
// github.com/fluxcd/kustomize-controller at FLUX_VERSION with the replace directives of that
// version's go.mod, Go 1.27 (fetched by the go command), and the source.toolkit.fluxcd.io and
// kustomize.toolkit.fluxcd.io CRDs copied from the downloaded modules.
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compile } from '../../src/tools/compile.js';
import { toolBuildGoMod } from '../../src/tools/gomod.js';
import { runGo } from '../../src/tools/go.js';
import { cacheRoot } from '../../src/core/cache-root.js';
import type { Progress } from '../../src/core/progress.js';
import { terminalProgress } from '../../src/cli/progress.js';

export const FLUX_VERSION = 'v1.7.3';
/** The source-controller whose API (GitRepository) kustomize-controller v1.7.3 reads. */
export const SOURCE_CONTROLLER_VERSION = 'v1.8.5';
export const FLUX_TOOLCHAIN = 'go1.27.3';
const MODULE = 'github.com/fluxcd/kustomize-controller';
const SOURCE_MODULE = 'github.com/fluxcd/source-controller';
/** Modules the checksum database mirror here does not know. */
const GONOSUMDB = 'github.com/fluxcd/*,github.com/google/go-containerregistry/*';

export interface FluxBuild {
  readonly binary: string;
  /** Directory of the CRDs kustomize-controller needs (Kustomization and every source kind). */
  readonly crds: string;
}

/**
 * The go.mod of the throwaway build module: requires kustomize-controller and copies every
 * `replace` of its own go.mod except those pointing into its repository (`=> ./api`). Pure.
 */
export function fluxBuildGoMod(upstream: string, version: string, goVersion: string): string {
  return toolBuildGoMod({ name: 'flux', module: MODULE, version, goVersion, upstreamGoMod: upstream });
}

/** The cached build, or builds it (about 6 minutes on 2 cores the first time). */
export async function ensureFluxBuild(progress: Progress = terminalProgress()): Promise<FluxBuild> {
  const dir = join(cacheRoot(process.env), 'flux', `kustomize-controller-${FLUX_VERSION}`);
  const binary = join(dir, 'kustomize-controller');
  const crds = join(dir, 'crds');
  if (existsSync(binary) && existsSync(join(crds, 'done'))) return { binary, crds };
  const work = join(cacheRoot(process.env), 'flux', '.work');
  await mkdir(work, { recursive: true });
  const env = { GONOSUMDB, GOFLAGS: '-mod=mod' };
  const go = (args: string[], onLine?: (l: string) => void) =>
    runGo(args, { cwd: work, env, toolchain: FLUX_TOOLCHAIN, ...(onLine ? { onLine } : {}) });

  progress.start(`downloading kustomize-controller ${FLUX_VERSION} (and Go ${FLUX_TOOLCHAIN} once)`);
  await writeFile(join(work, 'go.mod'), `module groundwork.local/flux-scratch\n\ngo 1.25\n`);
  const info = JSON.parse(await go(['mod', 'download', '-json', `${MODULE}@${FLUX_VERSION}`])) as {
    GoMod: string;
    Dir: string;
  };
  const source = JSON.parse(
    await go(['mod', 'download', '-json', `${SOURCE_MODULE}@${SOURCE_CONTROLLER_VERSION}`]),
  ) as {
    Dir: string;
  };
  const goVersion = (await go(['env', 'GOVERSION'])).trim().replace(/^go/, '');
  await writeFile(
    join(work, 'go.mod'),
    fluxBuildGoMod(await readFile(info.GoMod, 'utf8'), FLUX_VERSION, goVersion),
  );
  progress.succeed(`kustomize-controller ${FLUX_VERSION} downloaded`);

  const tmp = `${dir}.tmp-${process.pid}`;
  try {
    await rm(tmp, { recursive: true, force: true });
    await mkdir(join(tmp, 'crds'), { recursive: true });
    await compile({
      moduleDir: work,
      pkg: MODULE,
      out: join(tmp, 'kustomize-controller'),
      ldflags: '-s -w',
      progress,
      env,
      toolchain: FLUX_TOOLCHAIN,
    });
    for (const base of [
      join(info.Dir, 'config', 'crd', 'bases'),
      join(source.Dir, 'config', 'crd', 'bases'),
    ]) {
      for (const f of await readdir(base))
        if (f.endsWith('.yaml')) await cp(join(base, f), join(tmp, 'crds', f));
    }
    await writeFile(join(tmp, 'crds', 'done'), `${FLUX_VERSION} ${SOURCE_CONTROLLER_VERSION}\n`);
    await rm(dir, { recursive: true, force: true });
    await rename(tmp, dir);
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    progress.fail('kustomize-controller build failed');
    throw err;
  }
  return { binary, crds };
}
