import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { packageRoot } from '../../core/package-root.js';
import { cacheRoot } from '../../core/cache-root.js';
import { resolveTool } from '../../tools/resolve-tool.js';
import { checkResults } from '../synth/check-results.js';
import type { PostSynthCheck } from '../synth/post-synth-checks.js';
import { renderRecorded, type RenderTools } from '../recorded/render-recorded.js';
import { loadProjectConfig } from '../../project/config.js';
import { bundleChild } from './bundle.js';
import type { SynthResult } from '../synth/synthesize.js';
import { heapCapFor, readMemoryLimit } from './heap-cap.js';
import { describeLauncher, detectLauncher } from './isolation.js';
import { assertSymlinksStayInside, sandboxReadPaths } from './sandbox-paths.js';
import { runBundle } from './spawn-child.js';

export interface ChildSynthOptions {
  /** Repository checkout holding groundwork.yaml. */
  dir: string;
  /** One overlay, or every overlay. */
  overlay: string | { all: true };
  /**
   * The top of the tree the checkout was written from, when `dir` is a subdirectory of it (the
   * commit's root): its symbolic links are checked too (`assertSymlinksStayInside`). @default dir
   */
  treeRoot?: string;
  /** Kill the child after this long. @default 60_000 */
  timeoutMs?: number;
  /**
   * V8 heap cap of the child in MiB.
   * @default `heapCapFor` the container's memory limit (cgroup): 1024 without a limit, 480 under 1 GiB
   */
  memoryMb?: number;
  /**
   * The largest result the parent reads, in MiB; the child is stopped past it (`SynthOutputTooLarge`).
   * @default GROUNDWORK_SYNTH_OUTPUT_MB, else 64 (a 5,000-object platform's result is about 2 MB)
   */
  outputCapMb?: number;
  /**
   * Start the child in a PID namespace of its own when this machine allows it (`detectLauncher`).
   * `false` keeps only its own process group and the in-child guard. @default true
   */
  pidNamespace?: boolean;
  /**
   * Reuse the bundle of an earlier synth whose input files are unchanged (`<cache>/synth/`).
   * @default true, unless GROUNDWORK_SYNTH_CACHE=0
   */
  cache?: boolean;
  /** Where cached bundles live. @default `<cache root>/synth` */
  cacheDir?: string;
  /**
   * Directories holding a `node_modules` that platform imports resolve from after the checkout's
   * own and before Groundwork's (`installDependencies`'s install, the preview's working tree).
   * Code under their `node_modules` (by real path) may be bundled. @default []
   */
  libraryRoots?: readonly string[];
  /**
   * The helm and kustomize binaries that render recorded charts and Kustomize directories (after
   * the child, outside its sandbox: `renderRecorded`), asked for only when the platform records one.
   * @default `resolveTool('helm' | 'kustomize')` (GROUNDWORK_HELM, PATH, the cache, else a build)
   */
  renderTools?: RenderTools;
  /**
   * Render what the platform recorded. `false` returns the results with their `renders` as
   * recorded (`groundwork chart lock` reads which charts a platform uses). @default true
   */
  render?: boolean;
  /**
   * Whole-platform checks (`POST_SYNTH_CHECKS` of `src/reconcile/domains.ts`), run once here on
   * the rendered result, outside the sandbox. @default none
   */
  checks?: readonly PostSynthCheck[];
}

/**
 * Synthesizes in a separate Node process with a timeout and a heap cap, an environment stripped
 * to `ALLOWED_ENV` (no kubeconfig, no service-account variables, no git credentials), under Node's
 * permission model (`sandboxFlags`): platform code can read its checkout and nothing else of the
 * machine (not the agent's service-account token), write nothing, start no process or thread,
 * signal no other process (`guardSignals`, and a PID namespace where allowed: `detectLauncher`).
 * The parent reads at most `outputCapMb` of result and parses it (`decodeFrame`), never casts it.
 * The child is one bundle (`bundleChild`) of Groundwork's synth and the platform code. Helm charts
 * and Kustomize directories the platform recorded are rendered here, after the child, by the real
 * helm and kustomize (`renderRecorded`: no credentials, no network, confined to the checkout).
 * Platform code is untrusted input; a crash, an endless loop or a memory blow-up in it cannot
 * take the agent down. Rejects with the same errors in-process synth throws (SynthValidationError
 * with every issue, or a GroundworkError with code CompileFailed, BuildFailed, NotPermitted, SynthTimeout,
 * SynthOutOfMemory, SynthOutputTooLarge, SynthCrashed).
 */
export async function synthesizeInChild(opts: ChildSynthOptions): Promise<SynthResult[]> {
  const dir = await realpath(opts.dir);
  // Before anything reads the checkout: the bundler and the child follow links wherever they lead.
  await assertSymlinksStayInside({ dir, treeRoot: await realpath(opts.treeRoot ?? dir) });
  const config = await loadProjectConfig(dir);
  const bundle = await bundleChild(dir, config.entry, {
    ...(opts.libraryRoots ? { libraryRoots: opts.libraryRoots } : {}),
    ...(opts.cache === false || process.env.GROUNDWORK_SYNTH_CACHE === '0'
      ? {}
      : { cacheDir: opts.cacheDir ?? join(cacheRoot(), 'synth') }),
  });
  try {
    const results = await runBundle({
      dir,
      overlay: opts.overlay,
      bundleFile: bundle.file,
      builtIn: bundle.builtIn,
      nodeFlags: sandboxFlags(dir, bundle.file),
      launcher: await detectLauncher({ pidNamespace: opts.pidNamespace ?? true }),
      timeoutMs: opts.timeoutMs ?? 60_000,
      memoryMb: opts.memoryMb ?? heapCapFor(await readMemoryLimit()),
      outputCapBytes: (opts.outputCapMb ?? defaultOutputCapMb()) * 1024 * 1024,
    });
    if (opts.render === false) return results;
    const rendered = await renderRecorded(results, {
      dir,
      tools: opts.renderTools ?? resolvedRenderTools(),
      config,
    });
    return await checkResults(rendered, { config, dir, checks: opts.checks ?? [] });
  } finally {
    await bundle.dispose();
  }
}

/**
 * Node's permission model for platform code: read the checkout but its `.git` and `node_modules`
 * (`sandboxReadPaths`, real paths), the bundle, and Groundwork's shipped data (CRDs, update graphs)
 * and package.json; write nothing; no child processes, no worker threads. The network is not
 * restricted by Node 20 (see the README's security notes).
 */
function sandboxFlags(dir: string, bundleFile: string): string[] {
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

/** helm and kustomize as `resolveTool` finds them (built once from the Go module proxy when missing). */
function resolvedRenderTools(): RenderTools {
  const found = new Map<'helm' | 'kustomize', Promise<string>>();
  const path = (name: 'helm' | 'kustomize') => {
    if (!found.has(name))
      found.set(
        name,
        resolveTool(name).then((t) => t.path),
      );
    return found.get(name)!;
  };
  return { helm: () => path('helm'), kustomize: () => path('kustomize') };
}

/** GROUNDWORK_SYNTH_OUTPUT_MB when it is a positive number, else 64. */
function defaultOutputCapMb(): number {
  const fromEnv = Number(process.env.GROUNDWORK_SYNTH_OUTPUT_MB);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : 64;
}

/** What keeps the synth child from harming its parent on this machine, for the agent's start-up log. */
export async function synthSandboxSummary(): Promise<{
  heapCapMb: number;
  memoryLimitBytes?: number;
  isolation: string;
}> {
  const limit = await readMemoryLimit();
  return {
    heapCapMb: heapCapFor(limit),
    ...(limit !== undefined ? { memoryLimitBytes: limit } : {}),
    isolation: describeLauncher(await detectLauncher()),
  };
}
