import { createHash } from 'node:crypto';
import { mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { confinedRealPath, readConfinedFile } from '../../core/confined-file.js';
import { loadManifestYaml } from '../../core/manifest-yaml.js';
import { GroundworkError } from '../../core/errors.js';
import { CHART_LOCK_FILE, lockedChart, readChartLock, type ChartLockEntry } from './chart-lock.js';
import type { ValueOrigin } from '../synth/overlays.js';
import { chartFilesOf, type ChartSource } from './chart-files.js';
import type { ValueLayer } from './chart-value-source.js';
import { explainHelmFailure, parseYaml } from './explain-helm-failure.js';
import { lockedArchive } from './chart-repository.js';
import { helmRequestProblem, helmTemplateArgs } from './helm-args.js';
import { archiveCacheDir } from './chart-archive-cache.js';
import { binaryIdentity, cachedRender, directoryDigest, renderKey } from '../recorded/render-cache.js';
import type { HelmRequest } from '../recorded/render-request.js';
import { runTool } from '../recorded/run-tool.js';
import type { RenderLimits, RenderOutcome } from '../recorded/render-outcome.js';

/** What a helm render needs: the checkout, the binary, its bounds, and where renders are cached. */
export interface HelmContext {
  dir: string;
  helm: string;
  limits: RenderLimits;
  /** Render results by chart digest, values and flags; none when undefined. */
  cacheDir?: string;
  /**
   * The overlay's values and where each was set, asked for only when helm fails on a value of the
   * construct's `values` (to name the overlay key it probably came from). @default none
   */
  overlayOrigins?: () => Promise<readonly ValueOrigin[]>;
  /**
   * The archive of a locked chart. The renderer passes one that only looks in what the trusted
   * side fetched beforehand (it has no network). @default `lockedArchive` (cache, else download)
   */
  archive?: (entry: ChartLockEntry) => Promise<string>;
}

/** The largest values file read from the repository. */
const VALUES_FILE_MAX = 4 * 1024 * 1024;

/**
 * Renders one chart with `helm template` (`runTool`: no credentials, no cluster, no network where
 * the kernel allows). The chart directory and every values file must be in the checkout (real
 * paths, `confinedRealPath`); values files are copied to a temporary directory first, so helm reads
 * no path the repository could swap for a link afterwards; the code's values are the last values
 * file. The chart's Chart.yaml must hold `request.version` when one is given. Returns helm's output
 * or the problem (naming helm's template file and line), never throws for a problem of the chart.
 */
export async function renderHelm(request: HelmRequest, ctx: HelmContext): Promise<RenderOutcome> {
  // Before anything is read or fetched: a value that may not reach helm's command line.
  const unsafe = helmRequestProblem(request);
  if (unsafe)
    return {
      ok: false,
      field: unsafe.field,
      problem: `${unsafe.message}: helm was not run`,
      fix: 'set releaseName to lower-case letters, digits and -, at most 53 characters (and namespace to a DNS-1123 label)',
    };
  if (request.repo !== undefined) {
    const archive = await lockedChartArchive(request, ctx.dir, ctx.archive ?? lockedArchive);
    if (!archive.ok) return archive;
    return runHelm(request, { archive: archive.path }, ctx, {
      version: request.version,
      digest: archive.digest,
    });
  }
  let chartDir: string;
  try {
    chartDir = await confinedRealPath({ root: ctx.dir, path: request.chart });
  } catch (err) {
    return {
      ok: false,
      problem: missingOr(err, `chart directory ${request.chart} does not exist`),
      field: 'chart',
    };
  }
  const chartYaml = await readChartYaml(chartDir);
  if (!chartYaml.ok) return { ok: false, problem: chartYaml.problem, field: 'chart', fix: chartYaml.fix };
  if (request.version !== undefined && chartYaml.version !== request.version)
    return {
      ok: false,
      field: 'version',
      problem: `${request.chart} holds version ${chartYaml.version ?? '(none)'} of ${chartYaml.name ?? 'the chart'}, not ${request.version}`,
      fix: 'vendor the version you name (helm pull --untar), or change version to the one in the repository',
    };
  return runHelm(request, { dir: chartDir }, ctx, {
    version: chartYaml.version,
    digest: ctx.cacheDir ? await directoryDigest(chartDir) : undefined,
  });
}

/** The archive the lock pins for a chart of a repository, or the problem. */
async function lockedChartArchive(
  request: HelmRequest,
  dir: string,
  archiveOf: (entry: ChartLockEntry) => Promise<string>,
): Promise<
  { ok: true; path: string; digest: string } | { ok: false; problem: string; field: string; fix?: string }
> {
  const key = { repo: request.repo!, name: request.chart, version: request.version ?? '' };
  let entry;
  try {
    entry = lockedChart(await readChartLock(dir), key);
  } catch (err) {
    return {
      ok: false,
      field: 'repo',
      problem: err instanceof Error ? err.message : String(err),
      ...(err instanceof GroundworkError && err.fix ? { fix: err.fix } : {}),
    };
  }
  if (!entry)
    return {
      ok: false,
      field: 'version',
      problem: `${key.name} ${key.version} of ${key.repo} is not in ${CHART_LOCK_FILE}`,
      fix: 'run groundwork chart lock and commit the lock file: synth renders only locked chart archives',
    };
  try {
    return { ok: true, path: await archiveOf(entry), digest: entry.digest };
  } catch (err) {
    return {
      ok: false,
      field: 'repo',
      problem: err instanceof Error ? err.message : String(err),
      ...(err instanceof GroundworkError && err.fix ? { fix: err.fix } : {}),
    };
  }
}

/** `helm template` of `source` (a directory or an archive) with the request's values files and values. */
async function runHelm(
  request: HelmRequest,
  source: ChartSource,
  ctx: HelmContext,
  chartOf: { version: string | undefined; digest: string | undefined },
): Promise<RenderOutcome> {
  const version = chartOf.version;
  const work = await realpath(await mkdtemp(join(tmpdir(), 'groundwork-values-')));
  try {
    const valuesFiles: string[] = [];
    const given: ValueLayer[] = [{ kind: 'values', values: request.values }];
    const hash = createHash('sha256');
    for (const [i, file] of request.valuesFiles.entries()) {
      let text: string;
      try {
        text = await readConfinedFile({
          root: ctx.dir,
          path: file,
          maxBytes: VALUES_FILE_MAX,
          what: 'values file',
        });
      } catch (err) {
        return {
          ok: false,
          problem: missingOr(err, `values file ${file} does not exist`),
          field: `valuesFiles[${i}]`,
        };
      }
      hash.update(`${text.length}\n${text}`);
      // Later files win: each goes before the ones read earlier, after the code's values.
      given.splice(1, 0, { kind: 'valuesFile', index: i, file, values: parseYaml(text) });
      valuesFiles.push(join(work, `values-${i}.yaml`));
      await writeFile(valuesFiles.at(-1)!, text);
    }
    hash.update(JSON.stringify(request.values));
    if (Object.keys(request.values).length > 0) {
      valuesFiles.push(join(work, 'values-code.json'));
      await writeFile(valuesFiles.at(-1)!, JSON.stringify(request.values));
    }
    const valuesHash = `sha256:${hash.digest('hex')}`;
    const chart = { ...(version !== undefined ? { version } : {}), valuesHash };
    // Cached by what the output depends on: the chart's bytes, the values, the request's flags
    // (kube version, API versions, namespace, release name) and the helm binary.
    const cacheKey =
      ctx.cacheDir && chartOf.digest
        ? renderKey({
            chart: chartOf.digest,
            valuesHash,
            request: { ...request, path: '' },
            helm: await binaryIdentity(ctx.helm),
          })
        : undefined;
    if (ctx.cacheDir && cacheKey) {
      const text = await cachedRender(ctx.cacheDir, cacheKey);
      if (text !== undefined) return { ok: true, text, chart, cacheKey, cached: true, source };
    }
    const args = helmTemplateArgs(request, {
      chart: 'dir' in source ? source.dir : source.archive,
      chartRoots: [ctx.dir, archiveCacheDir()],
      valuesFiles,
      valuesDir: work,
    });
    const outcome = await runTool({
      binary: ctx.helm,
      args,
      cwd: work,
      timeoutMs: ctx.limits.timeoutMs,
      outputCapBytes: ctx.limits.outputCapBytes,
    });
    if (outcome.ok)
      return { ok: true, text: outcome.stdout, chart, source, ...(cacheKey ? { cacheKey } : {}) };
    if (outcome.reason !== 'exit')
      return {
        ok: false,
        problem: limitProblem(outcome.reason, 'helm template', ctx.limits),
        field: 'chart',
      };
    // The values helm points at, where each came from, and the overlay key it probably came from.
    const explained = explainHelmFailure({
      stderr: outcome.stderr,
      files: (await chartFilesOf(source)).files,
      given,
      origins: ctx.overlayOrigins ? await ctx.overlayOrigins().catch(() => []) : [],
    });
    return { ok: false, ...explained };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The name and version of a chart directory's Chart.yaml, or why it has none. */
async function readChartYaml(
  chartDir: string,
): Promise<{ ok: true; name?: string; version?: string } | { ok: false; problem: string; fix: string }> {
  const file = join(chartDir, 'Chart.yaml');
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile())
    return {
      ok: false,
      problem: 'the chart directory holds no Chart.yaml',
      fix: 'name the directory that holds the chart (its Chart.yaml), e.g. charts/ingress-nginx',
    };
  try {
    // As helm reads it (YAML 1.1).
    const doc = loadManifestYaml(await readFile(file, 'utf8')).documents[0] as {
      name?: unknown;
      version?: unknown;
    } | null;
    return {
      ok: true,
      ...(typeof doc?.name === 'string' ? { name: doc.name } : {}),
      ...(doc?.version !== undefined ? { version: String(doc.version) } : {}),
    };
  } catch {
    return {
      ok: false,
      problem: 'its Chart.yaml is not YAML',
      fix: 'fix Chart.yaml (helm lint shows where)',
    };
  }
}

/** The message of a path problem: confinement's own, or `missing` for a path that does not exist. */
export function missingOr(err: unknown, missing: string): string {
  if ((err as NodeJS.ErrnoException).code === 'ENOENT') return missing;
  return err instanceof Error ? err.message : String(err);
}

export function limitProblem(
  reason: 'timeout' | 'output-cap' | 'spawn',
  tool: string,
  limits: RenderLimits,
): string {
  if (reason === 'timeout') return `${tool} did not finish within ${Math.round(limits.timeoutMs / 1000)} s`;
  if (reason === 'output-cap')
    return `${tool} wrote more than ${Math.round(limits.outputCapBytes / 1024 / 1024)} MiB`;
  return `${tool} could not be started`;
}
