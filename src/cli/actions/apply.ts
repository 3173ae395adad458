import type { ClusterFlags } from '../cluster-flags.js';
import type { SetExitCode } from '../commands/command-module.js';
import { parseDuration } from '../../core/duration.js';
import { ExitCode } from '../exit-code.js';
import { outputOf } from '../output.js';
import { render } from '../render.js';
import { synthAndObserve } from '../synth-and-observe.js';
import { cliPlan } from '../cli-plan.js';

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

/**
 * `groundwork apply`: synth, observe, plan, apply in stages, then the health of what was applied.
 * What only apply needs (the domains' stage hooks, progress, health) loads while synth runs.
 */
export async function runApply(flags: ApplyFlags, setExitCode: SetExitCode): Promise<void> {
  const [
    observation,
    { platformHooks, loadPlatformData },
    { applyObserved },
    { applyProgress },
    { healthAfterApply },
  ] = await Promise.all([
    // Waiting for CSVs no OLM will install would take the whole --timeout: refused at once.
    synthAndObserve(flags, { force: flags.forceConflicts ?? false, olm: flags.wait ? 'fail' : 'warn' }),
    import('../../reconcile/domains.js'),
    import('../../reconcile/apply-observed.js'),
    import('../apply-progress.js'),
    import('../apply-health.js'),
  ]);
  if (!observation) return setExitCode(ExitCode.Error);
  const { synth, session, revision } = observation;
  // Fields git owns that kubectl took are restored, as the agent does in self-heal mode.
  const observed = { ...observation.observed, plan: cliPlan(observation.observed.plan) };
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
    const changes = await applyObserved(session, observed, {
      revision,
      hooks: platformHooks(await loadPlatformData(observation.project)),
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
          skipped: new Map(
            changes.entries
              .filter((e) => e.action === 'skipped')
              .map((e) => [e.id, `${e.code ?? 'Skipped'}${e.message ? `: ${e.message}` : ''}`]),
          ),
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
        : changes.pruneRefused || changes.pruneBlocked.length > 0
          ? ExitCode.PruneRefused
          : ExitCode.Ok,
    );
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    session.client.close();
  }
}
