import { withOutput } from '../output.js';
import type { CommandModule } from './command-module.js';
import type { SyncFlags } from '../actions/sync.js';

/**
 * `groundwork sync status|history|reconcile|suspend|resume`: steer a running agent through its PlatformSync. The
 * requests are annotations on that object, so RBAC on PlatformSyncs decides who may, and
 * `kubectl annotate` does the same by hand.
 */
export const registerSync: CommandModule = (program, setExitCode) => {
  const sync = program.command('sync').description("steer the agent's sync through its PlatformSync object");
  const target = (cmd: ReturnType<typeof program.command>) =>
    cmd
      .option('--sync <name>', 'the PlatformSync (default: the only one in the namespace)')
      .option('--namespace <ns>', "the agent's namespace", 'groundwork-system')
      .option(
        '--kubeconfig <file>',
        'kubeconfig file (default: $KUBECONFIG, in-cluster config, ~/.kube/config)',
      )
      .option('--context <name>', 'kubeconfig context');
  target(withOutput(sync.command('status'), ['text', 'markdown', 'json', 'yaml'], 'text'))
    .description(
      "the PlatformSync's status: conditions, revision, health, drift, and who suspended it and why",
    )
    .action(async (flags: SyncFlags) =>
      (await import('../actions/sync.js')).runSyncStatus(flags, setExitCode),
    );
  target(withOutput(sync.command('history'), ['text', 'json', 'yaml'], 'text'))
    .description('the revisions applied or failed, newest first: time, outcome, object counts, phase timings')
    .action(async (flags: SyncFlags) =>
      (await import('../actions/sync.js')).runSyncHistory(flags, setExitCode),
    );
  target(withOutput(sync.command('reconcile'), ['text', 'json', 'yaml'], 'text'))
    .description('ask the agent for a cycle now and wait for its outcome (exit 0 Ready, 1 not Ready)')
    .option('--no-wait', 'only ask; do not wait for the cycle')
    .option('--timeout <duration>', 'how long to wait for the cycle', '2m')
    .action(async (flags: SyncFlags) =>
      (await import('../actions/sync.js')).runSyncReconcile(flags, setExitCode),
    );
  target(sync.command('suspend'))
    .description(
      'stop applying and healing (drift is still detected and reported) until resume; records who and why, and waits until the agent confirms it holds',
    )
    .option('--reason <text>', 'why (shown in status and fleet status)', '')
    .option('--no-wait', 'only ask; do not wait for the agent to confirm it holds')
    .option('--timeout <duration>', 'how long to wait for the agent to confirm', '1m')
    .action(async (flags: SyncFlags) => (await import('../actions/sync.js')).runSyncSuspend(flags));
  target(sync.command('resume'))
    .description('apply again: the next cycle corrects what drifted while suspended')
    .action(async (flags: SyncFlags) => (await import('../actions/sync.js')).runSyncResume(flags));
};
