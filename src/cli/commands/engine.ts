import type { Command } from 'commander';
import { resolve } from 'node:path';
import { platformHooks, loadPlatformData } from '../../engine/domains.js';
import { applyObserved, driftOf, observeAndPlan } from '../../engine/reconcile.js';
import { DriftReport } from '../../report/drift-report.js';
import { describeWorkTree } from '../../source/local-revision.js';
import { applyProgress } from '../apply-progress.js';
import { openSession, synthForCommand, withClusterFlags, type ClusterFlags } from '../cluster-options.js';
import { ExitCode } from '../exit-code.js';
import type { CommandModule } from './command-module.js';
import { outputOf, render, withOutput } from '../output.js';
import { healthAfterApply } from '../apply-health.js';

interface PlanFlags extends ClusterFlags {
  output?: string;
  format?: string;
  forceConflicts?: boolean;
}

interface ApplyFlags extends ClusterFlags {
  waitWorkloads?: boolean;
  output?: string;
  format?: string;
  prune?: boolean;
  wait: boolean;
  timeout: string;
  forceConflicts?: boolean;
  allowMassPrune?: boolean;
  maxPruneShare: string;
  concurrency: string;
}

/** `groundwork plan | apply | drift`: the reconcile engine against a cluster. */
export const registerEngine: CommandModule = (program: Command, setExitCode) => {
  withOutput(withClusterFlags(program.command('plan')), ['text', 'markdown', 'json', 'yaml'], 'text')
    .description('show what apply would change (exit 0: nothing, 1: changes, 2: error)')
    .option('--force-conflicts', 'plan as if conflicts will be forced')
    .action(async (flags: PlanFlags) => {
      const synth = await synthForCommand(flags);
      if (!synth) return setExitCode(ExitCode.Error);
      const session = await openSession(flags);
      try {
        const revision = await describeWorkTree(resolve(flags.dir));
        const observed = await observeAndPlan(session, synth, {
          revision,
          force: flags.forceConflicts ?? false,
        });
        warnUnavailableApis(observed.unavailableApis);
        const { plan } = observed;
        process.stdout.write(render(plan, outputOf(flags)));
        if (plan.problems.length > 0)
          process.stderr.write(`${plan.problems.length} object(s) would fail to apply (see above)\n`);
        setExitCode(plan.hasChanges ? ExitCode.Changes : ExitCode.Ok);
      } finally {
        session.client.close();
      }
    });

  withOutput(withClusterFlags(program.command('apply')), ['text', 'json', 'yaml'], 'text')
    .description('apply the platform in stages (server-side apply, field manager "groundwork")')
    .option('--prune', 'delete objects removed from git (inventory objects only, with guards)')
    .option('--no-wait', 'do not wait for CSVs, operands and pools between stages')
    .option('--timeout <duration>', 'timeout of each stage wait, e.g. 5m or 90s', '5m')
    .option('--force-conflicts', 'take ownership of fields other managers own')
    .option('--allow-mass-prune', 'allow pruning more than --max-prune-share of the inventory')
    .option('--max-prune-share <fraction>', 'largest share of the inventory one apply may prune', '0.3')
    .option('--concurrency <n>', 'parallel writes inside a stage', '16')
    .option(
      '--wait-workloads',
      'after applying, wait (up to --timeout) until Deployments, StatefulSets and DaemonSets are Healthy',
    )
    .action(async (flags: ApplyFlags) => {
      const synth = await synthForCommand(flags);
      if (!synth) return setExitCode(ExitCode.Error);
      const session = await openSession(flags);
      const controller = new AbortController();
      // First signal: finish the objects in flight and stop (a wait ends at once); a second signal,
      // or 10 s without stopping, ends the process (exit 130/143, as a shell reports a signal).
      const onSignal = (signal: NodeJS.Signals) => {
        const code = signal === 'SIGINT' ? 130 : 143;
        if (controller.signal.aborted) process.exit(code);
        controller.abort();
        setTimeout(() => process.exit(code), 10_000).unref();
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      const progress = applyProgress();
      try {
        const revision = await describeWorkTree(resolve(flags.dir));
        const observed = await observeAndPlan(session, synth, {
          revision,
          force: flags.forceConflicts ?? false,
        });
        warnUnavailableApis(observed.unavailableApis);
        const changes = await applyObserved(session, observed, {
          revision,
          hooks: platformHooks(await loadPlatformData(resolve(flags.dir))),
          prune: flags.prune ?? false,
          wait: flags.wait,
          timeoutMs: parseDuration(flags.timeout),
          force: flags.forceConflicts ?? false,
          allowMassPrune: flags.allowMassPrune ?? false,
          maxPruneShare: Number(flags.maxPruneShare),
          concurrency: Number(flags.concurrency),
          listener: progress,
          signal: controller.signal,
        });
        // What was applied, and its health: a verdict per object, as the quick start shows it.
        const health = changes.error
          ? undefined
          : await healthAfterApply(session, synth.manifests, {
              waitWorkloads: flags.waitWorkloads ?? false,
              timeoutMs: parseDuration(flags.timeout),
              signal: controller.signal,
              listener: progress,
            });
        const format = outputOf(flags);
        if (format === 'json' || format === 'yaml')
          process.stdout.write(
            render(
              { ...(changes.toJSON() as object), ...(health ? { health: health.report.toJSON() } : {}) },
              format,
            ),
          );
        else
          process.stdout.write(render(changes, format) + (health ? `\n${health.report.toString()}\n` : ''));
        if (health?.notReady) process.stderr.write(`--wait-workloads: ${health.notReady}\n`);
        setExitCode(
          changes.error || health?.notReady
            ? ExitCode.Error
            : changes.pruneRefused
              ? ExitCode.PruneRefused
              : ExitCode.Ok,
        );
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        session.client.close();
      }
    });

  withOutput(withClusterFlags(program.command('drift')), ['table', 'markdown', 'json', 'yaml'], 'table')
    .description('report drift between git and the cluster; changes nothing (exit 1 on drift)')
    .action(async (flags: PlanFlags) => {
      const synth = await synthForCommand(flags);
      if (!synth) return setExitCode(ExitCode.Error);
      const session = await openSession(flags);
      try {
        const revision = await describeWorkTree(resolve(flags.dir));
        const observed = await observeAndPlan(session, synth, { revision });
        warnUnavailableApis(observed.unavailableApis);
        const report = new DriftReport(synth.platform, synth.overlay, driftOf(observed), revision);
        process.stdout.write(render(report, outputOf(flags)));
        setExitCode(report.drifted ? ExitCode.Changes : ExitCode.Ok);
      } finally {
        session.client.close();
      }
    });
};

/** `5m`, `90s`, `1h`, `1500ms` or plain milliseconds. */
export function parseDuration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) throw new Error(`invalid duration ${JSON.stringify(text)}: use e.g. 90s, 5m or 1h`);
  const n = Number(m[1]);
  return Math.round(n * ({ ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] ?? 'ms'] ?? 1));
}

/** kubectl's habit: an unavailable aggregated API is a warning, not a failure, unless the platform uses it. */
function warnUnavailableApis(apis: readonly string[]): void {
  for (const api of apis)
    process.stderr.write(`warning: ${api} is unavailable on the server (discovery: Stale); skipped\n`);
}
