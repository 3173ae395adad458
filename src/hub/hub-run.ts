import type { KubeClient } from '../cluster/client.js';
import { ReachabilityController } from './reachability-controller.js';
import { RegistrationController } from './registration-controller.js';
import { RolloutController } from './rollout-controller.js';
import type { HubLog } from './hub-resources.js';

/** The running hub controller (`groundwork hub run`): its parts, and how to stop it. */
export interface RunningHub {
  readonly registrations: RegistrationController;
  readonly reachability: ReachabilityController;
  readonly rollouts: RolloutController;
  stop(): Promise<void>;
}

/**
 * Starts the hub's controller on `client` (a kubeconfig of the hub with the controller's rights):
 * registrations answered (`RegistrationController`), heartbeats judged
 * (`ReachabilityController`) and rollouts released wave by wave (`RolloutController`), all from
 * watches. Resolves once each has its first list.
 */
export async function runHub(
  client: KubeClient,
  opts: {
    readonly namespace: string;
    readonly log: HubLog;
    readonly memberTokenSeconds?: number;
    readonly tickMs?: number;
  },
): Promise<RunningHub> {
  const registrations = new RegistrationController(client, {
    namespace: opts.namespace,
    log: opts.log,
    ...(opts.memberTokenSeconds ? { memberTokenSeconds: opts.memberTokenSeconds } : {}),
  });
  const reachability = new ReachabilityController(client, {
    log: opts.log,
    ...(opts.tickMs ? { tickMs: opts.tickMs } : {}),
  });
  const rollouts = new RolloutController(client, { namespace: opts.namespace, log: opts.log });
  await Promise.all([registrations.start(), reachability.start(), rollouts.start()]);
  return {
    registrations,
    reachability,
    rollouts,
    async stop() {
      reachability.stop();
      await rollouts.stop();
      await registrations.stop();
    },
  };
}
