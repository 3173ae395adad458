import { applyPlan, type ApplyOptions } from '../apply/apply.js';
import type { ChangeSet } from '../apply/changeset.js';
import type { ClusterSession } from './cluster-session.js';
import type { Observed } from './observe-and-plan.js';

/** Applies a plan against the session's cluster, recording the inventory. */
export function applyObserved(
  session: ClusterSession,
  observed: Observed,
  opts: Omit<ApplyOptions, 'inventory'> & { revision: string },
): Promise<ChangeSet> {
  return applyPlan(observed.plan, session.target, {
    ...opts,
    inventory: {
      previous: observed.inventory,
      revision: opts.revision,
      write: (inv) => session.inventory.write(inv),
    },
  });
}
