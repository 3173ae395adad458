import type { Command } from 'commander';
import type { SynthFlags } from '../actions/synth.js';
import { TRUST_REPOSITORY_FLAG } from '../cluster-flags.js';
import { withOutput } from '../output.js';
import type { CommandModule } from './command-module.js';

/** `groundwork synth`: constructs → deterministic manifests, with no cluster and no network. */
export const registerSynth: CommandModule = (program: Command, setExitCode) => {
  withOutput(program.command('synth'), ['yaml', 'json'], 'yaml')
    .description('synthesize the platform into deterministic manifests (no cluster, no network)')
    .option('--dir <dir>', 'repository root (holds groundwork.yaml)', '.')
    .option('--overlay <name>', 'overlay to synthesize (default: groundwork.yaml defaultOverlay)')
    .option('--all-overlays', 'synthesize every overlay')
    .option('--out <dir>', 'write files to <dir>/<overlay>/ instead of printing a stream')
    .option(...TRUST_REPOSITORY_FLAG)
    .action(async (flags: SynthFlags) => (await import('../actions/synth.js')).runSynth(flags, setExitCode));
};
