import type { Command } from 'commander';
import type { QuickstartFlags } from '../actions/quickstart.js';
import type { CommandModule } from './command-module.js';

/**
 * `groundwork quickstart`: the main job on the embedded default. A local control plane made to
 * look like OpenShift (OLM, the CVO and the MCO played by simulators), the example platform shipped
 * with Groundwork served over git smart-HTTP, and the agent reconciling it from there; then one out-of-band
 * edit and the drift report. Every step says what it does.
 */
export const registerQuickstart: CommandModule = (program: Command, setExitCode) => {
  program
    .command('quickstart')
    .description(
      'demo on the embedded default: local control plane + simulators, the example platform shipped with Groundwork over git, the agent, drift',
    )
    .option('--overlay <name>', 'overlay of the example platform to apply', 'dev')
    .option('--keep-running', 'keep the control plane and the agent running after the demo (Ctrl-C stops)')
    .option('--timeout <seconds>', 'give up waiting for the platform to converge after this long', '240')
    .action(async (flags: QuickstartFlags) =>
      (await import('../actions/quickstart.js')).runQuickstart(flags, setExitCode),
    );
};
