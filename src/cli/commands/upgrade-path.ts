import type { Command } from 'commander';
import type { UpgradePathFlags } from '../actions/upgrade-path.js';
import { withOutput } from '../output.js';
import type { CommandModule } from './command-module.js';

/**
 * `groundwork upgrade-path --graph FILE --from X --to Y [--channel C] [--accept-risk NAME ...]
 * [--previous V] [--eus-control-plane-only] [-o text|markdown|json|yaml]`: prints the planned
 * `desiredUpdate` steps, or the reason there are none. Exit code 0 when a path exists, 2 when there is
 * none or the input is invalid. `--graph` is a Cincinnati graph response (JSON) or a ClusterVersion
 * (YAML/JSON, `oc get clusterversion version -o yaml`); for a ClusterVersion, `--from` and
 * `--previous` default to its `status.desired` version and its previous version.
 */
export const registerUpgradePath: CommandModule = (program: Command, setExitCode) => {
  withOutput(program.command('upgrade-path'), ['text', 'markdown', 'json', 'yaml'], 'text')
    .description('plan OpenShift cluster version updates, minor by minor, over an update graph')
    .requiredOption('--graph <file>', 'Cincinnati update-graph JSON, or a ClusterVersion YAML/JSON')
    .option('--from <version>', 'the version the cluster runs (default for a ClusterVersion: status.desired)')
    .requiredOption('--to <version>', 'the target version')
    .option('--channel <channel>', 'the update channel, e.g. stable-4.16: the target must be in it')
    .option('--accept-risk <name>', 'accept a conditional-update risk by name (repeatable)', collect, [])
    .option('--previous <version>', "the cluster's previous version: the only allowed rollback target")
    .option('--eus-control-plane-only', 'EUS-to-EUS update with the non-master pools paused')
    .action(async (flags: UpgradePathFlags) =>
      (await import('../actions/upgrade-path.js')).runUpgradePath(flags, setExitCode),
    );
};

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
