import { DriftReport } from '../../report/drift-report.js';
import { driftOf } from '../../reconcile/drift-of.js';
import type { ClusterFlags } from '../cluster-flags.js';
import type { SetExitCode } from '../commands/command-module.js';
import { ExitCode } from '../exit-code.js';
import { outputOf } from '../output.js';
import { render } from '../render.js';
import { synthAndObserve } from '../synth-and-observe.js';
import { cliPlan } from '../cli-plan.js';

export interface PlanFlags extends ClusterFlags {
  output?: string;
  format?: string;
  forceConflicts?: boolean;
}

/** `groundwork plan`: synth, observe, plan; prints the plan (exit 1 when it has changes). Writes nothing. */
export async function runPlan(flags: PlanFlags, setExitCode: SetExitCode): Promise<void> {
  const observation = await synthAndObserve(flags, { force: flags.forceConflicts ?? false });
  if (!observation) return setExitCode(ExitCode.Error);
  try {
    const plan = cliPlan(observation.observed.plan);
    process.stdout.write(render(plan, outputOf(flags)));
    if (plan.problems.length > 0)
      process.stderr.write(`${plan.problems.length} object(s) would fail to apply (see above)\n`);
    setExitCode(plan.hasChanges ? ExitCode.Changes : ExitCode.Ok);
  } finally {
    observation.session.client.close();
  }
}

/** `groundwork drift`: synth, observe, plan; prints the drift report (exit 1 on drift). Writes nothing. */
export async function runDrift(flags: PlanFlags, setExitCode: SetExitCode): Promise<void> {
  const observation = await synthAndObserve(flags);
  if (!observation) return setExitCode(ExitCode.Error);
  try {
    const { synth, observed, revision } = observation;
    const report = new DriftReport(synth.platform, synth.overlay, driftOf(observed), revision);
    // The table uses the terminal's width (COLUMNS when the output is not a terminal).
    const width = process.stdout.columns || Number(process.env.COLUMNS) || undefined;
    process.stdout.write(
      render(report, outputOf(flags), { text: () => report.toTable(width ? { width } : {}) }),
    );
    setExitCode(report.drifted ? ExitCode.Changes : ExitCode.Ok);
  } finally {
    observation.session.client.close();
  }
}
