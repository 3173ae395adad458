import { DriftReport } from '../../report/drift-report.js';
import { driftOf } from '../../reconcile/drift-of.js';
import { unmanagedOf } from '../../reconcile/unmanaged-of.js';
import { unmanagedFor } from '../../project/unmanaged-config.js';
import type { ClusterFlags } from '../cluster-flags.js';
import type { SetExitCode } from '../commands/command-module.js';
import { ExitCode } from '../exit-code.js';
import { outputOf } from '../output.js';
import { render } from '../render.js';
import { synthAndObserve } from '../synth-and-observe.js';

export interface DriftFlags extends ClusterFlags {
  output?: string;
  /** Report objects in managed namespaces that Groundwork did not apply, even where groundwork.yaml does not ask. */
  unmanaged?: boolean;
}

/**
 * `groundwork drift`: synth, observe, plan; prints the drift report. Drift is what Groundwork
 * applies, missing or modified (exit 1). Objects in its namespaces that it did not apply are
 * listed when groundwork.yaml (`unmanaged: { report: true }`) or `--unmanaged` asks, and change
 * the exit code only when groundwork.yaml says `failOn: true`. Writes nothing.
 */
export async function runDrift(flags: DriftFlags, setExitCode: SetExitCode): Promise<void> {
  const observation = await synthAndObserve(flags);
  if (!observation) return setExitCode(ExitCode.Error);
  try {
    const { synth, observed, revision, project, session } = observation;
    const asked = unmanagedFor(project, synth.overlay);
    const config = flags.unmanaged && !asked.report ? { ...asked, report: true } : asked;
    const unmanaged = await unmanagedOf(session, observed, config);
    const report = new DriftReport(
      synth.platform,
      synth.overlay,
      driftOf(observed, unmanaged),
      revision,
    ).withUnmanaged(unmanaged);
    // Cut to the terminal's width on a terminal only: in a pipe or a CI log every name stays whole.
    const width = process.stdout.isTTY ? process.stdout.columns : undefined;
    process.stdout.write(
      render(report, outputOf(flags), { text: () => report.toTable(width ? { width } : {}) }),
    );
    setExitCode(report.drifted ? ExitCode.Changes : ExitCode.Ok);
  } finally {
    observation.session.client.close();
  }
}
