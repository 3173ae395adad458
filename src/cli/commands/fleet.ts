import { fleetOptions, type FleetFlags, type PromoteFlags } from '../fleet-flags.js';
import { withOutput } from '../output.js';
import type { CommandModule } from './command-module.js';
import { registerFleetRollout } from './fleet-rollout.js';

/**
 * `groundwork fleet status` and `groundwork promote <environment>`: the fleet as its agents report
 * it (PlatformSync objects read through each cluster's kube context) and promotion of a revision
 * from one environment's ref to the next, gated by the health of the clusters that run it.
 */
export const registerFleet: CommandModule = (program, setExitCode) => {
  const fleet = program
    .command('fleet')
    .description('the clusters of the platform, as their agents report them');
  fleetOptions(withOutput(fleet.command('status'), ['text', 'json', 'yaml'], 'text'))
    .description(
      'one row per cluster: environment, overlay, revision, commits behind its ref, Ready, health, drift, last applied',
    )
    .option(
      '--hub <kubeconfig>',
      'read the fleet from the hub instead (one LIST of its FleetMembers: member, environment, revision, Ready, reachable, last seen; no groundwork.yaml or cluster contexts needed)',
    )
    .option('--selector <labels>', 'with --hub: only members matching this label selector (e.g. region=eu)')
    .action(async (flags: FleetFlags) =>
      flags.hub
        ? // Its own module: the hub's view loads no git, promotion or signature code.
          (await import('../actions/hub-fleet-status.js')).runHubFleetStatus(
            { ...flags, hub: flags.hub },
            setExitCode,
          )
        : (await import('../actions/fleet.js')).runFleetStatus(flags, setExitCode),
    );
  registerFleetRollout(fleet, setExitCode);

  fleetOptions(withOutput(program.command('promote'), ['text', 'json', 'yaml'], 'text'))
    .description(
      "fast-forward an environment's ref to the revision its source environment runs, once every gate passes",
    )
    .argument('<environment>', 'the environment to promote into')
    .option('--dry-run', 'check every gate and show what would be pushed; push nothing')
    .option('--force', 'promote past failed gates (never past a non-fast-forward); needs --reason')
    .option('--reason <text>', 'why the gates are forced: recorded in the promotion tag')
    .option(
      '--hub <kubeconfig>',
      "read the source environment's gates from the hub instead (one LIST of its FleetMembers; not with --fleet)",
    )
    .option(
      '--selector <labels>',
      "with --hub: only the source environment's members matching this label selector gate the promotion (e.g. region=eu); matching none blocks",
    )
    .option(
      '--trusted-keys <file...>',
      'public keys (armored OpenPGP, or SSH allowed signers) the commit must be signed with when the target has verify: true',
    )
    .action(async (environment: string, flags: PromoteFlags) =>
      (await import('../actions/fleet.js')).runPromote(environment, flags, setExitCode),
    );
};
