import { renderUpdatePath } from './path-render.js';
import type { ClusterUpdatePlan } from './update-plan.js';

/**
 * A cluster update as `groundwork plan` prints it: the path as `groundwork upgrade-path` prints it,
 * what it was planned over, where it stops short of the target, the conditional-update risks on the
 * way with whether each is accepted, the accepted findings, and what blocks (refused at apply) or
 * holds (waited for).
 *
 * @example
 * Upgrade path of ClusterVersion/version (runs 4.8.2, target 4.9.53):
 *   Update 4.8.2 -> 4.9.53 in 2 steps (channel stable-4.9):
 *     1. 4.8.2 -> 4.8.54  patch
 *     2. 4.8.54 -> 4.9.53  minor
 *   planned over stable-4.8.json + stable-4.9.json + ClusterVersion/version
 */
export function renderClusterUpdatePlan(plan: ClusterUpdatePlan): string {
  const lines = [
    `Upgrade path of ClusterVersion/${plan.clusterVersion} (runs ${plan.current || '(unknown)'}, target ${plan.target}):`,
    ...renderUpdatePath(plan.path)
      .split('\n')
      .map((l) => `  ${l}`),
  ];
  const { path } = plan;
  if (path.ok && !plan.complete) {
    const end = path.steps.at(-1)?.to ?? plan.current;
    lines.push(
      `  then ${end} -> ${plan.target}: planned once the update service offers a step from ${end} (only the cluster's own updates are known: list update graphs under graphs: in groundwork.yaml to see the whole path)`,
    );
  }
  lines.push(`  planned over ${plan.graphs.join(' + ')}`);
  for (const r of plan.risks)
    lines.push(`  risk ${r.name} on the update to ${r.version}: ${r.accepted ? 'accepted' : 'not accepted'}`);
  for (const f of plan.findings.filter((x) => x.accepted)) lines.push(`  accepted ${f.risk}: ${f.message}`);
  for (const b of plan.blockers) {
    // The path's own refusal is on its line above already.
    const said = !path.ok && b.code === path.reason && b.message === path.message;
    lines.push(`  ${b.definitive ? 'blocked' : 'holds'} (${b.code})${said ? '' : `: ${b.message}`}`);
    if (b.fix) lines.push(`    fix: ${b.fix}`);
  }
  if (plan.blockers.some((b) => b.definitive))
    lines.push(`  apply refuses this target before writing anything.`);
  return lines.join('\n');
}
