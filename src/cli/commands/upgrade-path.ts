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
import type { CommandModule } from './command-module.js';
import { outputOf, render, withOutput } from '../output.js';

interface UpgradePathFlags {
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

/**
 * `groundwork upgrade-path --graph FILE --from X --to Y [--channel C] [--accept-risk NAME ...]
 * [--previous V] [--eus-control-plane-only] [-o text|markdown|json|yaml]`: prints the planned
 * `desiredUpdate` steps, or the reason there are none. Exit code 0 when a path exists, 2 when there is
 * none or the input is invalid. `--graph` is a Cincinnati graph response (JSON) or a ClusterVersion
 * (YAML/JSON, `oc get clusterversion version -o yaml`); for a ClusterVersion, `--from` and
 * `--previous` default to its `status.desired` version and its previous version.
 */
export const registerUpgradePath: CommandModule = (program, setExitCode) => {
  withOutput(program.command('upgrade-path'), ['text', 'markdown', 'json', 'yaml'], 'text')
    .description('plan OpenShift cluster version updates, minor by minor, over an update graph')
    .requiredOption('--graph <file>', 'Cincinnati update-graph JSON, or a ClusterVersion YAML/JSON')
    .option('--from <version>', 'the version the cluster runs (default for a ClusterVersion: status.desired)')
    .requiredOption('--to <version>', 'the target version')
    .option('--channel <channel>', 'the update channel, e.g. stable-4.16: the target must be in it')
    .option('--accept-risk <name>', 'accept a conditional-update risk by name (repeatable)', collect, [])
    .option('--previous <version>', "the cluster's previous version: the only allowed rollback target")
    .option('--eus-control-plane-only', 'EUS-to-EUS update with the non-master pools paused')

    .action(async (flags: UpgradePathFlags) => {
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
    });
};

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
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
