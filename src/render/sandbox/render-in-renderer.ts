// What the renderer does with its job: bundle the platform, run it in the platform child, render
// what it recorded with helm and kustomize. Runs only inside the renderer (see isolation.ts).
import { join } from 'node:path';
import { GroundworkError } from '../../core/errors.js';
import { loadProjectConfig } from '../../project/config.js';
import type { ChartLockEntry } from '../helm/chart-lock.js';
import { renderRecorded, type RenderTools } from '../recorded/render-recorded.js';
import { bundleChild } from './bundle.js';
import { onPath } from './isolation.js';
import type { RenderJob } from './render-job.js';
import { sandboxFlags } from './sandbox-flags.js';
import { runBundle, type BundleAnswer } from './spawn-child.js';

/**
 * Renders `job` here, in this process: the platform bundled (`bundleChild`, its cache in the job's
 * `cacheDir`), synthesized in the platform child (`runBundle`: Node's permission model, its own
 * process group), then, unless `job.render` is false, what it recorded rendered (`renderRecorded`)
 * with the job's tools and only the chart archives the job names: nothing is fetched. A result
 * that recorded nothing to render is answered as the child's JSON, unparsed here (`{ json }`, for
 * the trusted side to read). Throws what the child or the render threw.
 */
export async function renderJob(job: RenderJob): Promise<BundleAnswer> {
  const config = await loadProjectConfig(job.dir);
  const setpriv = onPath('setpriv', process.env.PATH ?? '');
  const bundle = await bundleChild(job.dir, config.entry, {
    libraryRoots: job.libraryRoots,
    ...(job.cacheDir ? { cacheDir: join(job.cacheDir, 'bundles') } : {}),
  });
  try {
    const answer = await runBundle({
      dir: job.dir,
      overlay: job.overlay,
      bundleFile: bundle.file,
      builtIn: bundle.builtIn,
      nodeFlags: sandboxFlags(job.dir, bundle.file),
      prefix: setpriv ? [setpriv, '--pdeathsig', 'KILL', '--'] : [],
      timeoutMs: job.limits.timeoutMs,
      memoryMb: job.limits.heapMb,
      rssMb: job.limits.rssMb,
      outputCapBytes: job.limits.outputCapBytes,
      forward: true,
    });
    if ('json' in answer || !job.render) return answer;
    const results = await renderRecorded(answer.results, {
      dir: job.dir,
      tools: jobTools(job),
      config,
      cacheDir: job.cacheDir ? join(job.cacheDir, 'renders') : false,
      archive: archiveOf(job),
    });
    return { results };
  } finally {
    await bundle.dispose();
  }
}

/** The job's tools; one it lacks is `ToolNotUsable`, which the trusted side answers by finding it. */
function jobTools(job: RenderJob): RenderTools {
  const tool = (name: 'helm' | 'kustomize') => async () => {
    const path = job.tools[name];
    if (path) return path;
    throw new GroundworkError({
      code: 'ToolNotUsable',
      subject: name,
      message: `${name} was not handed to the renderer`,
      fix: `install ${name}, or set GROUNDWORK_${name.toUpperCase()} to its path`,
    });
  };
  return { helm: tool('helm'), kustomize: tool('kustomize') };
}

/** A locked chart's archive from the job's archives by digest; never fetched here. */
function archiveOf(job: RenderJob): (entry: ChartLockEntry) => Promise<string> {
  const byDigest = new Map(job.archives.map((a) => [a.digest, a.path] as const));
  const unavailable = new Map(job.unavailableCharts.map((u) => [u.digest, u] as const));
  return async (entry) => {
    const path = byDigest.get(entry.digest);
    if (path) return path;
    // The trusted side's own failure when it tried to fetch it, as it said it.
    const failed = unavailable.get(entry.digest);
    if (failed)
      throw new GroundworkError({
        code: 'ChartFetchFailed',
        message: failed.problem,
        ...(failed.fix ? { fix: failed.fix } : {}),
      });
    throw new GroundworkError({
      code: 'ChartFetchFailed',
      subject: `chart ${entry.name} ${entry.version} of ${entry.repo}`,
      message: `its locked archive ${entry.digest} is not in the chart archive cache, and the renderer has no network`,
      fix: 'run groundwork chart lock (online) to fetch it into the cache, and commit the lock file',
    });
  };
}
