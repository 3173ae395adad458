import { Option } from 'commander';

/**
 * `FORGES` of report/notifications/forge.ts, spelled here because command modules load nothing
 * heavier than commander (test/cli/command-tree); test/propose/forge/pull-request-clients checks
 * the two agree.
 */
export const FORGE_CHOICES = ['github', 'gitlab', 'gitea'] as const;

/** The variable the forge token is read from when `--token-env` names none. */
export const DEFAULT_TOKEN_ENV = 'GROUNDWORK_FORGE_TOKEN';

/** What `groundwork propose` without `--dry-run` reads from its flags to publish. */
export interface ProposePublishFlags {
  /** The platform repository root inside the git checkout (holds groundwork.yaml). */
  readonly dir: string;
  readonly environment?: string;
  readonly forge?: string;
  readonly forgeApi?: string;
  readonly tokenEnv?: string;
  readonly repoUrl?: string;
  readonly trustRepository?: boolean;
}

/**
 * The options `propose` publishes with, named as the agent's commit-status flags are
 * (`--commit-status-forge`, `--commit-status-api`): the token is never a flag's value (a command
 * line is visible to every user of the machine), only the name of the variable holding it.
 */
export function proposePublishOptions(): Option[] {
  return [
    new Option(
      '--forge <forge>',
      'the forge the pull requests go to (default: from the repository URL: github.com, gitlab.com); Forgejo speaks gitea',
    ).choices([...FORGE_CHOICES]),
    new Option(
      '--forge-api <url>',
      "the forge's API root (default: from the repository URL, as for commit statuses)",
    ),
    new Option(
      '--token-env <name>',
      `the environment variable holding the forge token (default: ${DEFAULT_TOKEN_ENV})`,
    ),
    new Option('--repo-url <url>', "the repository's clone URL (default: the checkout's origin remote)"),
  ];
}
