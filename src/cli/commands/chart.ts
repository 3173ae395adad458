import type { Command } from 'commander';
import type { ChartFlags } from '../actions/chart.js';
import { TRUST_REPOSITORY_FLAG } from '../cluster-flags.js';
import type { CommandModule } from './command-module.js';

/** `groundwork chart lock|update`: pins the remote Helm charts of a platform. Declarations only. */
export const registerChart: CommandModule = (program: Command, setExitCode) => {
  const chart = program.command('chart').description('the remote Helm charts a platform renders');
  chart
    .command('lock')
    .description(
      'resolve remote charts the lock lacks and write groundwork-charts.lock.yaml (version, URL, digest)',
    )
    .option('--dir <dir>', 'repository root (holds groundwork.yaml)', '.')
    .option(...TRUST_REPOSITORY_FLAG)
    .action(async (flags: ChartFlags) =>
      (await import('../actions/chart.js')).runChartLock(flags, { update: false }, setExitCode),
    );
  chart
    .command('update')
    .description('resolve every remote chart again and rewrite the lock')
    .option('--dir <dir>', 'repository root (holds groundwork.yaml)', '.')
    .option(...TRUST_REPOSITORY_FLAG)
    .action(async (flags: ChartFlags) =>
      (await import('../actions/chart.js')).runChartLock(flags, { update: true }, setExitCode),
    );
};
