import type { Command } from 'commander';
import { AGENT_FLAGS, type FlagSpec } from '../agent/agent-flags.js';
import { BOOTSTRAP_FLAGS, type AgentFlagName } from '../agent/options.js';

/**
 * Declares agent flags on `command` from `AGENT_FLAGS` (src/agent/agent-flags.ts): each with its help
 * line and default, a required one as required. With `bootstrap`, only the flags bootstrap passes
 * on to the agent, with bootstrap's help lines and defaults. Declarations only: the action reads
 * the values with the schema (`agentOptionsOf`, `readAgentFlags`).
 */
export function agentFlagOptions(command: Command, opts: { bootstrap?: boolean } = {}): Command {
  const names = opts.bootstrap ? BOOTSTRAP_FLAGS : (Object.keys(AGENT_FLAGS) as AgentFlagName[]);
  for (const name of names) {
    const spec: FlagSpec = AGENT_FLAGS[name];
    const own = opts.bootstrap ? spec.bootstrap : undefined;
    const doc = own?.doc ?? spec.doc;
    const fallback = own ? own.default : spec.default;
    if (spec.required) command.requiredOption(spec.flag, doc);
    else if (fallback !== undefined) command.option(spec.flag, doc, fallback);
    else command.option(spec.flag, doc);
  }
  return command;
}
