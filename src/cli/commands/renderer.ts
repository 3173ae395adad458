import type { Command } from 'commander';
import type { RendererFlags } from '../actions/renderer.js';
import type { CommandModule } from './command-module.js';

/**
 * `groundwork renderer`: serves render requests from the agent over HTTP (the renderer pod's
 * command, docs/security.md). Declarations only; the action loads when it runs.
 */
export const registerRenderer: CommandModule = (program: Command) => {
  program
    .command('renderer')
    .description(
      "serve render requests from the agent (--renderer) over HTTP: the repository's bytes in, the rendered objects out; run it where no credential lives (the renderer pod)",
    )
    .option('--bind <address>', 'IP address to listen on (the renderer pod: 0.0.0.0)', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: a free one, printed)', '8443')
    .option(
      '--max-request-mb <mb>',
      'largest render request read (the checkout, dependencies and charts)',
      '256',
    )
    .action(async (flags: RendererFlags) => (await import('../actions/renderer.js')).runRenderer(flags));
};
