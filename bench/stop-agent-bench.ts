import type { ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import type { KubeClient } from '../src/cluster/client.js';
import type { LocalControlPlane } from '../src/dev/controlplane/control-plane.js';
import type { GitServer } from '../src/dev/git-server.js';

/**
 * Tears down an agent bench in dependency order: the agent process (SIGTERM, waited for), then the
 * git server it fetched from, the client, the control plane, and last the bench's temp `root`.
 */
export async function stopAgentBench(parts: {
  agent: ChildProcess;
  server: GitServer;
  client: KubeClient;
  cp: LocalControlPlane;
  root: string;
}): Promise<void> {
  parts.agent.kill('SIGTERM');
  await new Promise((r) => parts.agent.once('exit', r));
  await parts.server.stop();
  parts.client.close();
  await parts.cp.stop();
  await rm(parts.root, { recursive: true, force: true });
}
