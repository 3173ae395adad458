import type { Command } from 'commander';
import type { GitServeFlags } from '../actions/git-serve.js';
import type { CommandModule } from './command-module.js';

/**
 * `groundwork git serve [dir]`: serves a local repository read-only on 127.0.0.1 for an agent on
 * the same machine. Declarations only; the action loads when it runs.
 */
export const registerGit: CommandModule = (program: Command) => {
  program
    .command('git')
    .description('git helpers for trying the agent on a laptop')
    .command('serve [dir]')
    .description(
      'serve a local repository (its branches and tags, read-only) over git smart HTTP on 127.0.0.1, and print the URL for groundwork agent --repo; Ctrl-C stops it',
    )
    .option('--port <port>', 'port on 127.0.0.1 (default: a free one)', '0')
    .option('--no-token', 'serve without a token (any local user can then read the repository)')
    .action(async (dir: string | undefined, flags: GitServeFlags) =>
      (await import('../actions/git-serve.js')).runGitServe(dir ?? '.', flags),
    );
};
