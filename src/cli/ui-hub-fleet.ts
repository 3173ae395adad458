import { isNotFound } from '../cluster/api-error.js';
import { KubeClient } from '../cluster/client.js';
import { GroundworkError } from '../core/errors.js';
import type { FleetReader } from '../ui/fleet-state.js';
import { HubFleetSource } from '../ui/hub-fleet-source.js';

/**
 * `groundwork ui --hub KUBECONFIG`: the Fleet page's source read from the hub (`HubFleetSource`:
 * one watch of FleetMembers, one of FleetRollouts), started before the server so a hub that does
 * not serve the kinds stops `groundwork ui` (`HubNotInstalled`) and one that refuses the list
 * stops it with the apiserver's answer.
 */
export async function uiHubFleet(hub: string): Promise<{ reader: FleetReader; stop(): Promise<void> }> {
  const client = await KubeClient.load({ kubeconfig: hub, userAgent: 'groundwork-ui' });
  const source = new HubFleetSource(client, {
    onError: (err) =>
      process.stderr.write(`warning: hub: ${err instanceof Error ? err.message : String(err)}\n`),
  });
  try {
    await source.start();
  } catch (err) {
    source.stop();
    client.close();
    if (!isNotFound(err)) throw err;
    throw new GroundworkError({
      code: 'HubNotInstalled',
      subject: 'ui --hub',
      message: 'the cluster serves no FleetMembers or FleetRollouts (hub.groundwork.io)',
      fix: 'point --hub at the hub cluster, where groundwork hub bootstrap installed the hub',
    });
  }
  return {
    reader: source,
    stop: async () => {
      source.stop();
      client.close();
    },
  };
}
