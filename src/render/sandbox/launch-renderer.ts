// Starting the renderer under its isolation and reading what it sends, bounded.
import { mkdtemp, realpath, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheRoot } from '../../core/cache-root.js';
import { GroundworkError } from '../../core/errors.js';
import { packageRoot } from '../../core/package-root.js';
import { groundworkRoots } from './bundle-confine.js';
import type { Isolation, IsolationProbes } from './isolation.js';
import { launchArgv } from './launch-plan.js';
import type { RenderJob } from './render-job.js';
import { prepareView, systemEntries } from './render-view.js';
import { rendererBundle } from './renderer-bundle.js';
import { supervise, type SupervisedExit } from './supervise.js';

const DRIVER = fileURLToPath(new URL('./enter-root.mjs', import.meta.url));

/** The PATH of the renderer: system directories only. */
const RENDERER_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** One renderer to start. */
export interface RendererLaunch {
  readonly isolation: Isolation;
  readonly probes: IsolationProbes;
  readonly job: RenderJob;
  /** The commit's tree the checkout (`job.dir`) is in: the renderer sees all of it but its `.git`. */
  readonly treeRoot: string;
  /**
   * Where an isolated renderer sees `treeRoot` (`VIEW_TREE`), the job's `dir` moved with it; a
   * `trusted` renderer sees the tree where it is. @default `treeRoot`
   */
  readonly treeAt?: string;
  /** The whole renderer is killed after this long. */
  readonly timeoutMs: number;
  /** The most read of its answer. */
  readonly frameCapBytes: number;
  /** RLIMIT_DATA of each of its processes, bytes. */
  readonly dataLimitBytes: number;
  /** Where the renderer's own bundle is kept (the trusted side's cache). @default cacheRoot() */
  readonly bundleCacheDir?: string;
}

/**
 * Starts the renderer (`rendererBundle`) with `job` on its stdin, under `launch.isolation`
 * (`launchArgv`: for `namespaces` and `uid` a root of its own holding the view `prepareView` finds:
 * Node, Groundwork, the tree, the libraries' `node_modules`, the tools, the job's chart archives,
 * the job's cache read-write), with an environment of system `PATH`, `HOME=/tmp` and Groundwork's
 * location only, and resolves to how it ended and what it sent (`supervise`), with where the
 * renderer saw the tree (`treeAt`: its paths in messages are there). Removes what it made for the
 * launch. Throws `SynthCrashed` when the renderer cannot be started at all.
 */
export async function launchRenderer(launch: RendererLaunch): Promise<SupervisedExit & { treeAt: string }> {
  const { isolation } = launch;
  const bundle = await rendererBundle(launch.bundleCacheDir ?? cacheRoot());
  const node = await realpath(process.execPath);
  const isolated = isolation.mode === 'namespaces' || isolation.mode === 'uid';
  const treeAt = isolated ? (launch.treeAt ?? launch.treeRoot) : launch.treeRoot;
  const job: RenderJob = { ...launch.job, dir: join(treeAt, relative(launch.treeRoot, launch.job.dir)) };
  const reads = [
    dirname(dirname(node)),
    ...(await groundworkRoots()),
    bundle,
    ...(await libraryModules(job.libraryRoots)),
    ...[job.tools.helm, job.tools.kustomize].filter((t): t is string => t !== undefined),
    ...job.archives.map((a) => a.path),
  ];
  const prepared = isolated
    ? await prepareView(
        { reads, treeRoot: launch.treeRoot, dir: launch.job.dir, cacheDir: job.cacheDir, treeAt },
        isolation.mode === 'uid' ? isolation.identity : undefined,
      )
    : undefined;
  const root = isolated ? await mkdtemp(join(tmpdir(), 'groundwork-root-')) : undefined;
  const home = isolated ? '/tmp' : tmpdir();
  try {
    const argv = launchArgv({
      isolation,
      programs: launch.probes.programs,
      dataLimitBytes: launch.dataLimitBytes,
      node,
      driver: DRIVER,
      root: root ?? '/',
      system: isolated ? await systemEntries() : [],
      view: prepared?.view ?? { readOnly: [], writable: [], hidden: [], substitutes: [] },
      renderer: [node, '--no-warnings', '--enable-source-maps', bundle],
    });
    const ended = await supervise({
      argv,
      cwd: '/',
      env: {
        PATH: RENDERER_PATH,
        HOME: home,
        TMPDIR: home,
        LANG: 'C.UTF-8',
        GROUNDWORK_PACKAGE_ROOT: packageRoot,
        // Where the job's chart archives are (helm's argv builder accepts charts from there only).
        GROUNDWORK_CACHE_DIR: cacheRoot(),
        // The URL policy the lock file is read with (the renderer itself connects nowhere).
        ...(process.env.GROUNDWORK_ALLOW_LOOPBACK_URLS
          ? { GROUNDWORK_ALLOW_LOOPBACK_URLS: process.env.GROUNDWORK_ALLOW_LOOPBACK_URLS }
          : {}),
      },
      stdin: JSON.stringify(job),
      timeoutMs: launch.timeoutMs,
      frameCapBytes: launch.frameCapBytes,
    }).catch((e: unknown) => {
      throw new GroundworkError({
        code: 'SynthCrashed',
        subject: launch.job.dir,
        message: `the renderer did not start: ${e instanceof Error ? e.message : String(e)}`,
        cause: e,
      });
    });
    return { ...ended, treeAt };
  } finally {
    await prepared?.dispose();
    // Never recursive: the new root's mounts live in the renderer's mount namespace only, and an
    // empty directory is all this side ever holds here.
    if (root) await rmdir(root).catch(() => {});
  }
}

/**
 * The `node_modules` of each library root that is a directory at its own path: one that is a link
 * elsewhere is not used by the bundler (`usableLibraryRoots`), so the renderer is not shown it.
 */
async function libraryModules(roots: readonly string[]): Promise<string[]> {
  const found = await Promise.all(
    roots.map(async (root) => {
      const modules = join(root, 'node_modules');
      return (await realpath(modules).catch(() => undefined)) === modules ? modules : undefined;
    }),
  );
  return found.filter((m): m is string => m !== undefined);
}
