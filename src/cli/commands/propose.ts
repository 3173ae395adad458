import type { Command } from 'commander';
import type { ProposeFlags } from '../actions/propose.js';
import { TRUST_REPOSITORY_FLAG } from '../cluster-flags.js';
import { withOutput } from '../output.js';
import { proposePublishOptions } from '../propose-publish-flags.js';
import type { CommandModule } from './command-module.js';

/**
 * `groundwork propose --dry-run [--dir D] [--environment E] [-o text|json]`: for each pin of the
 * platform (operator CSVs, the OpenShift target, chart versions), the newer version the `propose:`
 * policy of groundwork.yaml allows, checked (an OLM path, a graph edge, a chart that resolves) and
 * edited in place; prints each proposal (title, notes, a unified diff) and each refusal with its
 * reason. Declarations only.
 */
export const registerPropose: CommandModule = (program: Command, setExitCode) => {
  // Without --dry-run: where the pull requests go (the forge side, src/cli/propose-publish-flags.ts).
  const publishOptions = proposePublishOptions();
  withOutput(program.command('propose'), ['text', 'json'], 'text')
    .description('propose updates of operator, OpenShift and chart pins under the policy of groundwork.yaml')
    .option(
      '--dry-run',
      'print the proposals and refusals; change nothing (without it: publish them as pull requests)',
    )
    .option('--dir <dir>', 'repository root (holds groundwork.yaml)', '.')
    .option(
      '--environment <name>',
      'the environment to propose for (default: the first of the promotion chain)',
    )
    .option(...TRUST_REPOSITORY_FLAG)
    .addOption(publishOptions[0]!)
    .addOption(publishOptions[1]!)
    .addOption(publishOptions[2]!)
    .addOption(publishOptions[3]!)
    .action(async (flags: ProposeFlags) =>
      (await import('../actions/propose.js')).runPropose(flags, setExitCode),
    );
};
