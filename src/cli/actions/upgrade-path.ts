import { readBoundedFile } from '../../core/confined-file.js';
import { failureLocation, yamlFailure } from '../../core/parse-failure.js';
import { GRAPH_MAX_BYTES } from '../../cluster-version/graph-file.js';
import { parse as parseYaml } from 'yaml';
import { GroundworkError } from '../../core/errors.js';
import {
  type ClusterVersionState,
  previousVersion,
  readClusterVersion,
} from '../../cluster-version/cluster-state.js';
import {
  type UpdateGraph,
  graphFromCincinnati,
  graphFromClusterVersion,
} from '../../cluster-version/graph.js';
import { planUpdatePath } from '../../cluster-version/path.js';
import { renderUpdatePath, updatePathMarkdown } from '../../cluster-version/path-render.js';
import { ExitCode } from '../exit-code.js';
import type { SetExitCode } from '../commands/command-module.js';
import { outputOf } from '../output.js';
import { render } from '../render.js';

export interface UpgradePathFlags {
  graph: string;
  from?: string;
  to: string;
  channel?: string;
  acceptRisk: string[];
  previous?: string;
  eusControlPlaneOnly?: boolean;
  output?: string;
  format?: string;
}

/** `groundwork upgrade-path`: the planned `desiredUpdate` steps, or why there are none (exit 2). */
export async function runUpgradePath(flags: UpgradePathFlags, setExitCode: SetExitCode): Promise<void> {
  const { graph, cv } = await loadGraph(flags.graph);
  const from = flags.from ?? cv?.status?.desired?.version;
  if (!from) {
    throw new GroundworkError({
      code: 'MissingFlag',
      subject: 'upgrade-path',
      message: '--from is required',
      fix: 'pass --from <version>',
    });
  }
  const previous = flags.previous ?? (cv ? previousVersion(cv)?.version : undefined);
  const path = planUpdatePath(graph, {
    from,
    to: flags.to,
    ...(flags.channel !== undefined ? { channel: flags.channel } : {}),
    acceptedRisks: flags.acceptRisk,
    ...(previous !== undefined ? { previousVersion: previous } : {}),
    eusControlPlaneOnly: flags.eusControlPlaneOnly === true,
  });
  process.stdout.write(
    render(path, outputOf(flags), {
      text: () => renderUpdatePath(path),
      markdown: () => updatePathMarkdown(path),
    }),
  );
  setExitCode(path.ok ? ExitCode.Ok : ExitCode.Error);
}

/**
 * Reads `--graph`: a Cincinnati response (has `nodes`) or a ClusterVersion (or a List of one).
 * The user's own file, so not confined to a checkout; but bounded (`GRAPH_MAX_BYTES`, checked
 * before reading) as a repository's graphs are.
 */
async function loadGraph(file: string): Promise<{ graph: UpdateGraph; cv?: ClusterVersionState }> {
  const content = await readBoundedFile(file, { maxBytes: GRAPH_MAX_BYTES, what: 'update graph' });
  let doc: unknown;
  try {
    doc = parseYaml(content);
  } catch (err) {
    const failure = yamlFailure(err);
    throw new GroundworkError({
      code: 'InvalidUpdateGraph',
      subject: failureLocation(file, failure),
      message: `not JSON or YAML: ${failure.reason}`,
    });
  }
  const kind = typeof doc === 'object' && doc !== null ? (doc as { kind?: unknown }).kind : undefined;
  if (kind === 'ClusterVersion' || kind === 'List') {
    const cv = readClusterVersion(doc, file);
    return { graph: graphFromClusterVersion(cv), cv };
  }
  return { graph: graphFromCincinnati(content, file) };
}
