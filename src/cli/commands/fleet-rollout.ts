import type { Command } from 'commander';
import type { RolloutFlags, RolloutStartFlags } from '../actions/fleet-rollout.js';
import { withOutput } from '../output.js';
import type { SetExitCode } from './command-module.js';

const HUB = "the hub's kubeconfig (an identity with rights on FleetRollouts in namespace groundwork-hub)";

/**
 * `groundwork fleet rollout start|status|pause|resume|abort`: a revision released to an
 * environment's members wave by wave by the fleet hub (docs/hub.md "Rollouts").
 */
export function registerFleetRollout(fleet: Command, setExitCode: SetExitCode): void {
  const rollout = fleet
    .command('rollout')
    .description("release a revision to an environment's hub members wave by wave");
  const formats = ['text', 'json', 'yaml'] as const;

  withOutput(rollout.command('start'), formats, 'text')
    .description(
      "create a FleetRollout on the hub: the waves and limits of the environment's rollout: in groundwork.yaml",
    )
    .argument('<environment>', 'the environment (groundwork.yaml environments[].name)')
    .requiredOption('--revision <sha>', 'the commit to release: a full 40-hex id on the environment ref')
    .option(
      '--changes <kinds>',
      'what the revision changes that the OpenShift gates hold members for: cluster-version, machine-config (comma-separated)',
    )
    .option('--name <name>', 'the FleetRollout name (default: <environment>-<12 hex of the commit>)')
    .option('--dir <dir>', 'the platform repository (holds groundwork.yaml)', '.')
    .requiredOption('--hub <kubeconfig>', HUB)
    .action(async (environment: string, flags: RolloutStartFlags) =>
      (await import('../actions/fleet-rollout.js')).runRolloutStart(environment, flags, setExitCode),
    );

  withOutput(rollout.command('status'), formats, 'text')
    .description(
      'a rollout: phase, halt reason, waves, and the members held, failed or in flight; without a name, every rollout',
    )
    .argument('[name]', 'the FleetRollout')
    .requiredOption('--hub <kubeconfig>', HUB)
    .action(async (name: string | undefined, flags: RolloutFlags) =>
      (await import('../actions/fleet-rollout.js')).runRolloutStatus(name, flags, setExitCode),
    );

  const actions = [
    ['pause', 'release nothing more until resumed; members already released go on'],
    ['resume', 'release again after a pause (a halted rollout is never resumed)'],
    ['abort', 'release nothing more, for good (releases already written stay)'],
  ] as const;
  for (const [action, description] of actions)
    withOutput(rollout.command(action), formats, 'text')
      .description(description)
      .argument('<name>', 'the FleetRollout')
      .requiredOption('--hub <kubeconfig>', HUB)
      .action(async (name: string, flags: RolloutFlags) =>
        (await import('../actions/fleet-rollout.js')).runRolloutChange(action, name, flags, setExitCode),
      );
}
