// The one way a checkout becomes objects: the trusted side's steps around one renderer.
import { randomBytes } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { cacheRoot } from '../core/cache-root.js';
import { hasCode } from '../core/errors.js';
import { loadProjectConfig } from '../project/config.js';
import type { Project } from '../project/project.js';
import { resolveTool } from '../tools/resolve-tool.js';
import { prefetchLockedCharts, type PrefetchedCharts } from './helm/prefetch-charts.js';
import { settleOutcome } from './sandbox/child-outcome.js';
import { heapCapFor, memoryBudgetMb, readMemoryLimit } from './sandbox/heap-cap.js';
import {
  chooseIsolation,
  describeIsolation,
  isolationUnavailable,
  probeIsolation,
  type Isolation,
  type ProbeOptions,
} from './sandbox/isolation.js';
import { foundTools } from './sandbox/found-tools.js';
import type { RenderJob } from './sandbox/render-job.js';
import { assertSymlinksStayInside } from './sandbox/sandbox-paths.js';
import { fromView, rendererTreePlace } from './sandbox/tree-place.js';
import type { SupervisedExit } from './sandbox/supervise.js';
import { cachedRender } from './result-cache/cached-render.js';
import { checkResults } from './synth/check-results.js';
import { listOverlays } from './synth/overlays.js';
import type { PostSynthCheck } from './synth/post-synth-checks.js';
import type { SynthResult } from './synth/synthesize.js';

/**
 * Whose renders a renderer's caches hold: each domain's bundles and renders live apart
 * (`<cache>/render/<domain>`), written only by its renderers and read by no one else, so a pull
 * request's render (`preview-head`) can leave nothing behind that a trusted render reads.
 */
export type TrustDomain = 'agent' | 'local' | 'preview-base' | 'preview-head';

/** How `renderPlatform` renders. */
export interface RenderPlatformOptions {
  /** One overlay, or every overlay. */
  overlay: string | { all: true };
  /** Whose caches the renderer uses. */
  domain: TrustDomain;
  /**
   * The top of the tree the checkout was written from, when the checkout is a subdirectory of it
   * (the commit's root): its links are checked, and the renderer sees it. @default the checkout
   */
  treeRoot?: string;
  /** Directories whose `node_modules` platform imports resolve from (installed by the trusted side). @default [] */
  libraryRoots?: readonly string[];
  /** Whole-platform checks, run once here on the rendered result (`checkResults`). @default none */
  checks?: readonly PostSynthCheck[];
  /** `false`: return what the platform recorded, unrendered (`groundwork chart lock`). @default true */
  render?: boolean;
  /** The platform child's time limit. @default 60_000 */
  timeoutMs?: number;
  /** The platform child's V8 heap cap (MiB). @default `heapCapFor` the container's memory limit */
  memoryMb?: number;
  /** The largest answer read (MiB). @default GROUNDWORK_SYNTH_OUTPUT_MB, else 64 */
  outputCapMb?: number;
  /**
   * Keep bundles and renders in the domain's cache, and results in its result cache (`cachedRender`:
   * an unchanged checkout starts no renderer). @default true, unless GROUNDWORK_SYNTH_CACHE=0
   */
  cache?: boolean;
  /** The cache root (domain caches under `render/`, the renderer's bundle under `renderer/`). @default cacheRoot() */
  cacheDir?: string;
  /**
   * Render even where the renderer cannot be isolated, with process-group isolation only.
   * @default GROUNDWORK_TRUST_REPOSITORY=1
   */
  trustRepository?: boolean;
  /**
   * Act as if the machine refused user namespaces (`userNamespaces: false`: `uid` mode as root) or
   * root's namespaces too (`rootNamespaces: false`); never more than the machine allows. @default probed
   */
  isolation?: ProbeOptions;
  /** helm and kustomize binaries to render with. @default found by `resolveTool` (built when needed) */
  tools?: { helm?: string; kustomize?: string };
  /** Where the one warning of an unisolated render goes. @default stderr */
  warn?: (message: string) => void;
  /**
   * A renderer pod's URL (`groundwork renderer`, the agent's `--renderer`): the checkout, its
   * libraries and chart archives are sent there as bytes and rendered under its isolation, with
   * its helm and kustomize (`tools`, `isolation` and `trustRepository` are not used here); its
   * answer is read as a local renderer's is. @default a renderer launched here
   */
  renderer?: string;
}

/**
 * Renders the checkout `checkout` (its directory, or its project as the caller read it: then
 * groundwork.yaml is not read again here) into one `SynthResult` per overlay asked for. On this side,
 * with this process's identity: the symbolic-link check (`assertSymlinksStayInside`), groundwork.yaml
 * and the overlay list, the locked chart archives fetched into the cache (`prefetchLockedCharts`),
 * helm and kustomize found. Then one renderer (`launchRenderer`, under `chooseIsolation`'s choice)
 * bundles and runs the platform code and renders its charts and kustomizations, with no network,
 * no credential and no view of this process. Its answer is data: bounded, parsed with strict
 * schemas, each object's identity checked, its overlays and platform those asked for
 * (`decodeFrame`). Then the post-synth checks once (`checkResults`). SOPS values stay encrypted:
 * decrypting them is the caller's, after this.
 *
 * Throws `RenderIsolationUnavailable` where the renderer cannot be isolated and the repository is
 * not trusted, `SynthValidationError` with every issue, or the renderer's `GroundworkError`
 * (`SynthTimeout`, `SynthOutOfMemory`, `SynthOutputTooLarge`, `SynthCrashed`, ...).
 *
 * @example
 * const [result] = await renderPlatform(dir, { overlay: 'prod', domain: 'local', checks: POST_SYNTH_CHECKS });
 */
export async function renderPlatform(
  checkout: string | Project,
  opts: RenderPlatformOptions,
): Promise<SynthResult[]> {
  const dir = await realpath(typeof checkout === 'string' ? checkout : checkout.dir);
  const treeRoot = await realpath(opts.treeRoot ?? dir);
  // Before anything reads the checkout: the bundler and the tools follow links wherever they lead.
  const { absoluteLinks } = await assertSymlinksStayInside({ dir, treeRoot });
  const config = typeof checkout === 'string' ? await loadProjectConfig(dir) : checkout;
  const overlays =
    typeof opts.overlay === 'string' ? [opts.overlay] : await listOverlays(join(dir, config.overlays));
  const remote = opts.renderer;
  const isolation = remote === undefined ? await isolationFor(opts) : undefined;
  // Where the renderer sees the tree: one path for every checkout where it can (`rendererTreePlace`),
  // and then the result cache is keyed without the checkout's own path.
  const treeAt = await rendererTreePlace({ isolation, treeRoot, absoluteLinks });
  const render = opts.render !== false;
  const charts: PrefetchedCharts = render
    ? await prefetchLockedCharts(dir)
    : { archives: [], unavailable: [] };
  const root = opts.cacheDir ?? cacheRoot();
  const caching = opts.cache ?? process.env.GROUNDWORK_SYNTH_CACHE !== '0';
  const heapMb = opts.memoryMb ?? heapCapFor(await readMemoryLimit());
  const rssMb = memoryBudgetMb(heapMb);
  const capBytes = (opts.outputCapMb ?? defaultOutputCapMb()) * 1024 * 1024;
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const once = async (tools: RenderJob['tools']) => {
    const job: RenderJob = {
      nonce: randomBytes(16).toString('hex'),
      dir,
      overlay: opts.overlay,
      libraryRoots: await Promise.all((opts.libraryRoots ?? []).map((r) => realpath(r))),
      ...(caching ? { cacheDir: join(root, 'render', opts.domain) } : {}),
      archives: charts.archives.map((a) => ({ ...a })),
      unavailableCharts: charts.unavailable.map((u) => ({ ...u })),
      tools,
      render,
      limits: { timeoutMs, heapMb, rssMb, outputCapBytes: capBytes },
    };
    let ended: SupervisedExit;
    let here: ((text: string) => string) | undefined;
    if (remote !== undefined) {
      const { tools: _local, cacheDir: _cache, dir: _dir, ...sent } = job;
      // Loaded on a miss only: a cached result needs neither the renderer's code nor esbuild.
      const { packRequest, renderRemotely } = await import('./remote/remote-render.js');
      const request = await packRequest({ ...sent, domain: opts.domain, treeRoot, dir });
      const answer = await renderRemotely(remote, request, {
        timeoutMs: timeoutMs + 330_000,
        frameCapBytes: capBytes,
      });
      ended = answer;
      // Bounded: the renderer's answer is data, its messages included.
      here = (text) => text.replaceAll(answer.dir, dir).slice(0, 64 * 1024);
    } else {
      const { launchRenderer } = await import('./sandbox/launch-renderer.js');
      const local = await launchRenderer({
        isolation: isolation!,
        probes: await probeIsolation(opts.isolation ?? {}),
        job,
        treeRoot,
        ...(treeAt ? { treeAt } : {}),
        // The platform child's limit, and time for its charts (each helm run has 60 s of its own).
        timeoutMs: timeoutMs + 300_000,
        frameCapBytes: capBytes,
        // The child's budget, and room for the renderer's own work (its answer, helm's output).
        dataLimitBytes: (rssMb + 512) * 1024 * 1024,
        bundleCacheDir: root,
      });
      ended = local;
      // The renderer's paths in its messages, as this side's.
      if (local.treeAt !== treeRoot) here = (text) => fromView(text, local.treeAt, treeRoot);
    }
    return settleOutcome({
      dir,
      ...ended,
      ...(here ? { here } : {}),
      nonce: job.nonce,
      limits: { timeoutMs, heapMb, rssMb, resultBytes: capBytes },
      expect: { overlays, platform: config.name, capBytes },
    });
  };
  const tools = render && remote === undefined ? { ...(await foundTools()), ...opts.tools } : {};
  const fresh = async (): Promise<SynthResult[]> => {
    try {
      return await once(tools);
    } catch (err) {
      // A tool the renderer needed and this side had not found: found (built, once) and rendered again.
      const missing = (['helm', 'kustomize'] as const).find(
        (t) =>
          remote === undefined &&
          hasCode(err, 'ToolNotUsable') &&
          err.message.startsWith(`${t} `) &&
          tools[t] === undefined,
      );
      if (!missing) throw err;
      return once({ ...tools, [missing]: (await resolveTool(missing)).path });
    }
  };
  // An unchanged checkout's results come from the domain's result cache, and no renderer starts.
  // Not for a renderer pod: its tools and version are not this side's to digest.
  const results = await cachedRender({
    cacheRoot: caching && remote === undefined ? root : undefined,
    inputs: {
      dir,
      treeRoot,
      treeAt,
      libraryRoots: await Promise.all((opts.libraryRoots ?? []).map((r) => realpath(r))),
      overlay: opts.overlay,
      domain: opts.domain,
      render,
      archives: charts.archives,
      unavailable: charts.unavailable,
      tools,
      isolation: isolation?.mode ?? 'remote',
      limits: { timeoutMs, heapMb, rssMb, capBytes },
      env: { cacheRoot: cacheRoot(), loopback: process.env.GROUNDWORK_ALLOW_LOOPBACK_URLS },
    },
    expect: { overlays, platform: config.name, capBytes },
    render: fresh,
  });
  return checkResults(results, { config, dir, checks: opts.checks ?? [] });
}

let warned = false;

/** The isolation of this render (`chooseIsolation`), or `RenderIsolationUnavailable`. */
async function isolationFor(opts: RenderPlatformOptions): Promise<Isolation> {
  const probes = await probeIsolation(opts.isolation ?? {});
  const choice = chooseIsolation(probes, {
    trustRepository: opts.trustRepository ?? process.env.GROUNDWORK_TRUST_REPOSITORY === '1',
  });
  if (!choice.ok) throw isolationUnavailable(choice.why);
  if (choice.isolation.mode === 'trusted' && !warned) {
    warned = true;
    (opts.warn ?? ((m: string) => process.stderr.write(`warning: ${m}\n`)))(
      `${describeIsolation(choice.isolation)}; see docs/security.md`,
    );
  }
  return choice.isolation;
}

/** GROUNDWORK_SYNTH_OUTPUT_MB when it is a positive number, else 64. */
function defaultOutputCapMb(): number {
  const fromEnv = Number(process.env.GROUNDWORK_SYNTH_OUTPUT_MB);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : 64;
}

/** What keeps platform code from harming this process here, for the agent's start-up log. */
export async function synthSandboxSummary(
  opts: Pick<RenderPlatformOptions, 'trustRepository' | 'isolation'> = {},
): Promise<{ heapCapMb: number; memoryLimitBytes?: number; isolation: string }> {
  const limit = await readMemoryLimit();
  const choice = chooseIsolation(await probeIsolation(opts.isolation ?? {}), {
    trustRepository: opts.trustRepository ?? process.env.GROUNDWORK_TRUST_REPOSITORY === '1',
  });
  return {
    heapCapMb: heapCapFor(limit),
    ...(limit !== undefined ? { memoryLimitBytes: limit } : {}),
    isolation: choice.ok
      ? describeIsolation(choice.isolation)
      : `renderer: none (${choice.why}): renders are refused`,
  };
}
