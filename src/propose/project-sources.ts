import { mergeGraphs } from '../cluster-version/graph.js';
import { loadGraphFile } from '../cluster-version/graph-file.js';
import type { OutboundPolicy } from '../core/outbound-url.js';
import { loadCatalog } from '../olm/catalog/index.js';
import type { ProjectConfig } from '../project/config.js';
import { resolveChart } from '../render/helm/chart-repository.js';
import { listChartVersions } from './chart-versions.js';
import type { ProposeSources } from './engine.js';

/**
 * The sources a platform repository names, and nothing else: the catalogs and update graphs of
 * its groundwork.yaml (files inside the checkout, confined and bounded as synth reads them), and
 * each chart's own repository or registry (`chart update`'s reading, anonymous and checked).
 */
export function projectSources(
  dir: string,
  config: Pick<ProjectConfig, 'catalogs' | 'graphs'>,
  opts: { policy?: OutboundPolicy } = {},
): ProposeSources {
  return {
    catalogs: () =>
      Promise.all(
        config.catalogs.map(async (name) => ({ name, catalog: await loadCatalog(name, { root: dir }) })),
      ),
    graph: async () => {
      if (config.graphs.length === 0)
        throw new Error(
          'groundwork.yaml lists no update graph (graphs:), so no OpenShift step can be checked',
        );
      return mergeGraphs(await Promise.all(config.graphs.map((path) => loadGraphFile({ root: dir, path }))));
    },
    chartVersions: (key) => listChartVersions(key, opts),
    resolveChart: (key) => resolveChart(key, opts),
  };
}
