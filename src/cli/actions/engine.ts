import { resolve } from 'node:path';
import { platformHooks, loadPlatformData } from '../../engine/domains.js';
import { applyObserved, driftOf, observeAndPlan } from '../../engine/reconcile.js';
import { DriftReport } from '../../report/drift-report.js';
import { describeWorkTree } from '../../source/local-revision.js';
import { applyProgress } from '../apply-progress.js';
import type { ClusterFlags } from '../cluster-flags.js';
import { openSession, synthForCommand } from '../cluster-options.js';
import { parseDuration } from '../duration.js';
import { ExitCode } from '../exit-code.js';
import { outputOf } from '../output.js';
import { render } from '../render.js';
import { healthAfterApply } from '../apply-health.js';
import type { SetExitCode } from '../commands/command-module.js';

export interface PlanFlags extends ClusterFlags {
  output?: string;
  format?: string;
  forceConflicts?: boolean;
}

export interface ApplyFlags extends ClusterFlags {
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

/** `groundwork plan`: synth, observe, plan; prints the plan (exit 1 when it has changes). */
export async function runPlan(flags: PlanFlags, setExitCode: SetExitCode): Promise<void> {
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
}

/** `groundwork apply`: synth, observe, plan, apply in stages, then the health of what was applied. */
export async function runApply(flags: ApplyFlags, setExitCode: SetExitCode): Promise<void> {
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
    else process.stdout.write(render(changes, format) + (health ? `\n${health.report.toString()}\n` : ''));
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
}

/** `groundwork drift`: synth, observe, plan; prints the drift report (exit 1 on drift). Changes nothing. */
export async function runDrift(flags: PlanFlags, setExitCode: SetExitCode): Promise<void> {
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
}

/** kubectl's habit: an unavailable aggregated API is a warning, not a failure, unless the platform uses it. */
function warnUnavailableApis(apis: readonly string[]): void {
  for (const api of apis)
    process.stderr.write(`warning: ${api} is unavailable on the server (discovery: Stale); skipped\n`);
}
