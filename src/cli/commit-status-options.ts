import type { Command } from 'commander';

/**
 * The commit status and cluster name options, shared by `groundwork agent` and `groundwork
 * bootstrap` (which passes them to the agent's Deployment). Checked by `commitStatusOf` when the
 * action runs; this module imports nothing, so the command tree stays light.
 */
export function commitStatusOptions(command: Command): Command {
  return command
    .option(
      '--commit-status-secret <name>',
      'set commit statuses on the forge: Secret in --namespace whose key token may write them (README "Notifications")',
    )
    .option(
      '--commit-status-forge <forge>',
      'github, gitlab or gitea (Forgejo too) (default: from the repo host)',
    )
    .option('--commit-status-api <url>', "the forge's API root (default: from the repo URL)")
    .option('--dashboard-url <url>', 'the link on each commit status')
    .option(
      '--cluster-name <name>',
      'the cluster in commit status contexts and alerts (default: the overlay)',
    );
}
