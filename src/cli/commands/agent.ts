import type { Command } from 'commander';
import type { AgentFlagText } from '../../agent/options.js';
import { agentFlagOptions } from '../agent-flag-options.js';
import type { CommandModule } from './command-module.js';

/**
 * `groundwork agent`: the in-cluster sync agent (also runnable from a workstation with a
 * kubeconfig). Its flags are `AGENT_FLAGS` (src/agent/agent-flags.ts).
 */
export const registerAgent: CommandModule = (program: Command) => {
  agentFlagOptions(
    program
      .command('agent')
      .description(
        'run the sync agent: fetch → synth → plan → apply → health → report, continuously, with drift watches',
      ),
  ).action(async (flags: AgentFlagText) => (await import('../actions/agent.js')).runAgent(flags));
};
