// The renderer pod's side of one render request: the bytes written out, then the same renderer
// launch a local render uses.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { cacheRoot } from '../../core/cache-root.js';
import { GroundworkError } from '../../core/errors.js';
import { digestOf, storeArchive } from '../helm/chart-archive-cache.js';
import { chooseIsolation, isolationUnavailable, probeIsolation } from '../sandbox/isolation.js';
import { launchRenderer } from '../sandbox/launch-renderer.js';
import type { RenderJob } from '../sandbox/render-job.js';
import { foundTools } from '../sandbox/found-tools.js';
import type { RemoteAnswer, RemoteRequest } from './remote-request.js';
import { writeTree } from './tree-files.js';

/**
 * Renders `request` here: its tree written into `<workDir>/tree`, each library's `node_modules`
 * into `<workDir>/lib-<i>/node_modules`, each archive into this machine's chart cache once its
 * bytes match its digest; then one renderer (`launchRenderer`) under the isolation this machine
 * allows (`pod` in the renderer pod: GROUNDWORK_RENDERER_POD=1, honoured only here), with this machine's helm and
 * kustomize. Resolves to how the renderer ended and what it sent; its frame is the agent's to
 * parse. Throws `RenderIsolationUnavailable`, `ChartFetchFailed` (an archive whose bytes are not
 * its digest's) or what writing the tree threw.
 */
export async function renderRequest(
  request: RemoteRequest,
  at: { workDir: string; cacheDir?: string | false },
): Promise<RemoteAnswer> {
  const probes = await probeIsolation({ rendererPod: true });
  const choice = chooseIsolation(probes, {
    trustRepository: process.env.GROUNDWORK_TRUST_REPOSITORY === '1',
  });
  if (!choice.ok) throw isolationUnavailable(choice.why);
  const treeRoot = join(at.workDir, 'tree');
  await mkdir(treeRoot);
  await writeTree(treeRoot, request.tree);
  const libraryRoots: string[] = [];
  for (const [i, files] of request.libraries.entries()) {
    const root = join(at.workDir, `lib-${i}`);
    await mkdir(join(root, 'node_modules'), { recursive: true });
    await writeTree(join(root, 'node_modules'), files);
    libraryRoots.push(root);
  }
  const archives: RenderJob['archives'] = [];
  for (const a of request.archives) {
    const bytes = Buffer.from(a.data, 'base64');
    if (digestOf(bytes) !== a.digest)
      throw new GroundworkError({
        code: 'ChartFetchFailed',
        subject: a.digest,
        message: 'a chart archive of the render request does not have its digest',
      });
    archives.push({ digest: a.digest, path: await storeArchive(a.digest, bytes) });
  }
  const { limits } = request;
  const dir = request.dir === '.' ? treeRoot : join(treeRoot, request.dir);
  const caching = at.cacheDir !== false && process.env.GROUNDWORK_SYNTH_CACHE !== '0';
  const job: RenderJob = {
    nonce: request.nonce,
    dir,
    overlay: request.overlay,
    libraryRoots,
    ...(caching ? { cacheDir: at.cacheDir || join(cacheRoot(), 'render', request.domain) } : {}),
    archives,
    unavailableCharts: request.unavailableCharts,
    tools: request.render ? await foundTools() : {},
    render: request.render,
    limits,
  };
  const ended = await launchRenderer({
    isolation: choice.isolation,
    probes,
    job,
    treeRoot,
    timeoutMs: limits.timeoutMs + 300_000,
    frameCapBytes: limits.outputCapBytes,
    dataLimitBytes: (limits.rssMb + 512) * 1024 * 1024,
    bundleCacheDir: cacheRoot(),
  });
  return {
    exit: ended.exit,
    ...(ended.stopped ? { stopped: ended.stopped } : {}),
    frame: ended.frame.toString('base64'),
    log: ended.log.slice(-16_000),
    dir,
  };
}
