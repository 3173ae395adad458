// The rollout figures of `bench hub` (issue 34): "time to roll a revision through all members in
// four waves" and "a wave released ≤ 2 s after its gates pass".
//
// HOOK, NOT MEASURED YET: the hub's rollout controller (src/hub/rollout-*.ts) was being written
// while this bench was; when it runs in `groundwork hub run`, this function should: create a
// rollout of a new revision over the simulated members in four waves (canary, 10 %, 50 %, rest),
// let each SimulatedMember follow its FleetMember's spec.release (apply: report the released
// revision as applied and Ready after a short simulated apply), record when each wave's gates
// passed (its last member reported Ready) and when the next wave's first release appeared, and
// return the total time and the gate-to-release p50/max. Until then it says so in the report.
import type { KubeClient } from '../src/cluster/client.js';
import type { SimulatedMember } from './hub-fleet.js';

/** The rollout line of the report; today, that it is not measured and why. */
export function rolloutFigures(input: {
  readonly admin: KubeClient;
  readonly members: readonly SimulatedMember[];
}): Promise<string> {
  void input;
  return Promise.resolve(
    'not measured: the hub rollout controller (src/hub/rollout-*.ts) does not run in `groundwork hub run` yet; bench/hub-rollout.ts is the hook',
  );
}
