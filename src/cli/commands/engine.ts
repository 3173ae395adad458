import type { Command } from 'commander';
import type { ApplyFlags } from '../actions/apply.js';
import type { DriftFlags } from '../actions/drift.js';
import type { PlanFlags } from '../actions/plan.js';
import { withClusterFlags } from '../cluster-flags.js';
import { withOutput } from '../output.js';
import type { CommandModule } from './command-module.js';

/** `groundwork plan | apply | drift`: the reconcile engine against a cluster. */
export const registerEngine: CommandModule = (program: Command, setExitCode) => {
  withOutput(withClusterFlags(program.command('plan')), ['text', 'markdown', 'json', 'yaml'], 'text')
    .description('show what apply would change (exit 0: nothing, 1: changes, 2: error)')
    .option('--force-conflicts', 'plan as if conflicts will be forced')
    .action(async (flags: PlanFlags) => (await import('../actions/plan.js')).runPlan(flags, setExitCode));

  withOutput(withClusterFlags(program.command('apply')), ['text', 'json', 'yaml'], 'text')
    .description('apply the platform in stages (server-side apply, field manager "groundwork")')
    .option('--prune', 'delete objects removed from git (inventory objects only, with guards)')
    .option(
      '--no-wait',
      'do not wait for CSVs, operands and pools between stages (CRDs are still waited for until Established)',
    )
    .option('--timeout <duration>', 'timeout of each stage wait, e.g. 5m or 90s', '5m')
    .option('--force-conflicts', 'take ownership of fields other managers own')
    .option('--allow-mass-prune', 'allow pruning more than --max-prune-share of the inventory')
    .option('--max-prune-share <fraction>', 'largest share of the inventory one apply may prune', '0.3')
    .option('--concurrency <n>', 'parallel writes inside a stage', '16')
    .option(
      '--wait-workloads',
      'after applying, wait (up to --timeout) until Deployments, StatefulSets and DaemonSets are Healthy',
    )
    .action(async (flags: ApplyFlags) => (await import('../actions/apply.js')).runApply(flags, setExitCode));

  withOutput(withClusterFlags(program.command('drift')), ['table', 'markdown', 'json', 'yaml'], 'table')
    .description('report drift between git and what Groundwork applied; changes nothing (exit 1 on drift)')
    .option(
      '--unmanaged',
      'also list objects in managed namespaces that Groundwork did not apply (informational unless groundwork.yaml says unmanaged.failOn)',
    )
    .action(async (flags: DriftFlags) => (await import('../actions/drift.js')).runDrift(flags, setExitCode));
};
