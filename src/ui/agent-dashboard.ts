import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeClient } from '../cluster/client.js';
import { ClusterDashboardSource } from './cluster-source.js';
import { dashboardHandler } from './dashboard-handler.js';
import type { DesiredSource } from './desired-objects.js';
import { reviewAuth } from './review-auth.js';
import type { StreamLimitsOptions } from './stream-limits.js';

/** The dashboard as the agent serves it: the handler for its HTTP server, and how to stop its watches. */
export interface AgentDashboard {
  handler: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
  stop(): void;
}

/**
 * Starts the agent's dashboard: a `ClusterDashboardSource` over the agent's client, showing the
 * PlatformSyncs of its namespace, behind `reviewAuth` (a bearer token the apiserver accepts for a
 * user who may `get` the PlatformSync). Each page then shows only what that user may `get` (objects,
 * their desired side, drift) or `list` (Events, the OpenShift kinds), asked with SubjectAccessReviews:
 * the agent's caches read more than most readers may. Resolves once the first lists are in; a kind
 * the agent may not list is a problem banner on the pages, never a failure of the agent.
 */
export async function startAgentDashboard(opts: {
  client: KubeClient;
  namespace: string;
  syncName?: string;
  onError?: (err: unknown) => void;
  /** The agent's desired objects (`agentDesired`), for the desired object, its diff and git's values. */
  desired?: DesiredSource;
  /** Open event streams per reader and in all. @default 8 and 100 */
  streams?: StreamLimitsOptions;
}): Promise<AgentDashboard> {
  const source = new ClusterDashboardSource(opts.client, {
    namespace: opts.namespace,
    ...(opts.desired ? { desired: opts.desired } : {}),
    ...(opts.syncName ? { sync: opts.syncName } : {}),
    ...(opts.onError ? { onError: opts.onError } : {}),
  });
  await source.start();
  const auth = reviewAuth({
    client: opts.client,
    namespace: opts.namespace,
    name: () => {
      const s = source.snapshot();
      return s.selected !== undefined ? s.syncs[s.selected]?.name : undefined;
    },
  });
  return {
    handler: dashboardHandler({ source, auth, ...(opts.streams ? { streams: opts.streams } : {}) }),
    stop: () => source.stop(),
  };
}
