import { resolve } from 'node:path';
import type { ClusterUpdatePlan } from '../../cluster-version/update-plan.js';
import { intentsOf } from '../../cluster-version/update-plan.js';
import type { ClusterFlags } from '../cluster-flags.js';
import type { SetExitCode } from '../commands/command-module.js';
import { ExitCode } from '../exit-code.js';
import { outputOf } from '../output.js';
import { render } from '../render.js';
import { synthAndObserve, type CommandObservation } from '../synth-and-observe.js';
import { cliPlan } from '../cli-plan.js';

export interface PlanFlags extends ClusterFlags {
  output?: string;
  format?: string;
  forceConflicts?: boolean;
}

/**
 * `groundwork plan`: synth, observe, plan; prints the plan (exit 1 when it has changes), and the
 * upgrade path of a ClusterVersion target the cluster does not run yet (`upgradePaths` in JSON).
 * Writes nothing.
 */
export async function runPlan(flags: PlanFlags, setExitCode: SetExitCode): Promise<void> {
  const observation = await synthAndObserve(flags, { force: flags.forceConflicts ?? false });
  if (!observation) return setExitCode(ExitCode.Error);
  try {
    const plan = cliPlan(observation.observed.plan);
    const upgrades = await upgradePaths(flags, observation);
    const { renderClusterUpdatePlan } = await import('../../cluster-version/update-plan-render.js');
    const { updatePathMarkdown } = await import('../../cluster-version/path-render.js');
    process.stdout.write(
      render(upgrades.length > 0 ? { ...plan.toJSON(), upgradePaths: upgrades } : plan, outputOf(flags), {
        text: () => [plan.toString(), ...upgrades.map(renderClusterUpdatePlan)].join('\n\n'),
        markdown: () => [plan.toMarkdown(), ...upgrades.map((u) => updatePathMarkdown(u.path))].join('\n\n'),
      }),
    );
    if (plan.problems.length > 0)
      process.stderr.write(`${plan.problems.length} object(s) would fail to apply (see above)\n`);
    for (const u of upgrades.filter((x) => x.blockers.some((b) => b.definitive)))
      process.stderr.write(
        `ClusterVersion/${u.clusterVersion}: apply would refuse target ${u.target} (${u.blockers
          .filter((b) => b.definitive)
          .map((b) => b.code)
          .join(', ')}; see above)\n`,
      );
    setExitCode(plan.hasChanges ? ExitCode.Changes : ExitCode.Ok);
  } finally {
    observation.session.client.close();
  }
}

/** The ClusterVersion targets' update paths, planned as the version stage plans them; none without a target. */
async function upgradePaths(flags: PlanFlags, observation: CommandObservation): Promise<ClusterUpdatePlan[]> {
  const desired = observation.synth.manifests.map((m) => m.object);
  if (intentsOf(desired).length === 0) return [];
  const [{ loadProject }, { loadPlatformData }, { clusterUpdatePlans }] = await Promise.all([
    import('../../project/project.js'),
    import('../../reconcile/domains.js'),
    import('../../cluster-version/live-cluster-version.js'),
  ]);
  const data = await loadPlatformData(await loadProject(resolve(flags.dir)));
  return clusterUpdatePlans(observation.session.target, desired, data);
}
