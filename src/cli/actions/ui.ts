import { KubeClient } from '../../cluster/client.js';
import { GroundworkError } from '../../core/errors.js';
import { ClusterDashboardSource } from '../../ui/cluster-source.js';
import { startDashboardServer } from '../../ui/dashboard-server.js';
import { newToken } from '../../ui/token-auth.js';
import { connectionOf } from '../cluster-flags.js';
import { checkSyncNames } from '../sync-names.js';
import { uiFleet, type UiFleetFlags } from '../ui-fleet.js';
import { uiHubFleet } from '../ui-hub-fleet.js';

export interface UiFlags extends UiFleetFlags {
  port?: string;
  namespace?: string;
  sync?: string;
  kubeconfig?: string;
  context?: string;
  /** The hub's kubeconfig: the Fleet page reads the hub's FleetMembers and FleetRollouts instead. */
  hub?: string;
}

/** `--port`: an integer 0-65535 (0: a free one), else `InvalidFlag`. */
export function uiPortOf(flag: string | undefined): number {
  if (flag === undefined) return 0;
  const port = /^\d{1,5}$/.test(flag) ? Number(flag) : NaN;
  if (!(port >= 0 && port <= 65535))
    throw new GroundworkError({
      code: 'InvalidFlag',
      subject: '--port',
      message: `not a port number: ${JSON.stringify(flag.slice(0, 32))}`,
      fix: 'pass a number from 1 to 65535, or leave --port out for a free port',
    });
  return port;
}

/**
 * `groundwork ui`: watches the cluster the kubeconfig selects, serves the dashboard on 127.0.0.1 and
 * prints its URL with a fresh token; runs until interrupted (Ctrl-C), then stops its watches.
 */
export async function runUi(flags: UiFlags): Promise<void> {
  const port = uiPortOf(flags.port);
  checkSyncNames(flags);
  // The fleet first: a bad groundwork.yaml or fleet file, or a hub that cannot be read, stops here.
  const fleet = flags.hub
    ? await uiHubFleet(flags.hub)
    : await uiFleet(flags, { warn: (m) => process.stderr.write(`warning: ${m}\n`) });
  const client = await KubeClient.load(connectionOf(flags));
  const source = new ClusterDashboardSource(client, {
    ...(flags.namespace ? { namespace: flags.namespace } : {}),
    ...(flags.sync ? { sync: flags.sync } : {}),
    onError: (err) => process.stderr.write(`warning: ${err instanceof Error ? err.message : String(err)}\n`),
  });
  await source.start();
  const server = await startDashboardServer({ source, token: newToken(), port, fleet: fleet.reader });
  process.stdout.write(`Dashboard (read-only): ${server.url}\nStop with Ctrl-C.\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  source.stop();
  await fleet.stop();
}
