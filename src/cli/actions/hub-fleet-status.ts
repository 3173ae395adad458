import { KubeClient } from '../../cluster/client.js';
import { hubFleetText, listFleetRows } from '../../hub/fleet-list.js';
import type { SetExitCode } from '../commands/command-module.js';
import { ExitCode } from '../exit-code.js';
import type { FleetFlags } from '../fleet-flags.js';
import { outputOf } from '../output.js';
import { render } from '../render.js';

/**
 * `fleet status --hub`: the members as the hub holds them (the CRD's printer columns as a Table,
 * `listFleetRows`). Its own module, so the command loads neither git, promotion nor signature
 * code (`fleet status` without `--hub` needs them).
 */
export async function runHubFleetStatus(
  flags: FleetFlags & { hub: string },
  setExitCode: SetExitCode,
): Promise<void> {
  const client = await KubeClient.load({ kubeconfig: flags.hub, userAgent: 'groundwork-fleet-status' });
  try {
    const rows = await listFleetRows(client, flags.selector);
    const data = { apiVersion: 'groundwork.io/v1', kind: 'HubFleetStatus', members: rows };
    process.stdout.write(render(data, outputOf(flags), { text: () => hubFleetText(rows) }));
  } finally {
    client.close();
  }
  setExitCode(ExitCode.Ok);
}
