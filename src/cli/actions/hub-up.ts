import { existsSync, readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pino from 'pino';
import { KubeClient } from '../../cluster/client.js';
import { GroundworkError } from '../../core/errors.js';
import { terminalProgress } from '../progress.js';
import { LocalControlPlane } from '../../dev/controlplane/control-plane.js';
import { clusterStateDir } from '../../dev/controlplane/paths.js';
import { isAlive } from '../../core/process-alive.js';
import { HUB_NAMESPACE } from '../../hub/hub-names.js';
import { installHub } from '../../hub/hub-install.js';
import { runHub } from '../../hub/hub-run.js';

export interface HubUpFlags {
  /** `--name`: several local hubs may run at once. @default 'default' */
  name: string;
  logLevel: string;
}

/** Where hub `name` keeps its certificates, kubeconfig and logs while it runs. */
export function hubUpDir(name: string): string {
  return clusterStateDir(`hub-${name}`);
}

/** The next commands, for a person: a member's token, its agent, the fleet view. Pure. */
export function hubUpInstructions(input: { name: string; server: string; kubeconfig: string }): string {
  const k = input.kubeconfig;
  return [
    `Hub "${input.name}" is up: a local control plane at ${input.server}, the hub installed in namespace ${HUB_NAMESPACE}, its controller running in this process.`,
    `  kubeconfig: ${k}`,
    '',
    'Register a member (a one-time token, as a bootstrap kubeconfig for its agent):',
    `  groundwork hub token create --kubeconfig ${k} --member edge-1 --environment dev --out edge-1.hub.yaml`,
    "Start that member's agent against the hub (on its own cluster, beside its usual flags):",
    '  groundwork agent --hub edge-1.hub.yaml --repo <git url> --overlay dev',
    'See the fleet (one LIST from the hub):',
    `  groundwork fleet status --hub ${k}`,
    '',
    "Ctrl-C stops the controller and the control plane and deletes the hub's data.",
    '',
  ].join('\n');
}

/** The pid of a `hub up` of this name still running, if any. */
function runningPid(pidFile: string): number | undefined {
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid) ? pid : undefined;
}

/**
 * `groundwork hub up`: the embedded local control plane (as `groundwork cluster up` runs it, with
 * no nodes) as a fleet hub, in the foreground: starts it (building the binaries the first time),
 * installs the hub (`installHub`, no controller Deployment: nothing would run its pod), runs the
 * controller in this process with the control plane's admin credentials, prints the kubeconfig
 * and the next commands, and on SIGINT or SIGTERM stops the controller, then the control plane,
 * and deletes the hub's data (etcd in /dev/shm, the work directory). It does not outlive the
 * command: `cluster down` is not needed, and a second `hub up` of the same `--name` is refused
 * while one runs.
 */
export async function runHubUp(flags: HubUpFlags): Promise<void> {
  // Handlers first: the control plane's exit hooks take over a signal only when nobody handles it,
  // and this command stops its hub itself (controller before apiserver). A signal during start-up
  // stops the hub as soon as it has started.
  const stopSignal = new Promise<NodeJS.Signals>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve(signal));
  });
  const workDir = hubUpDir(flags.name);
  const pidFile = join(workDir, 'hub-up.pid');
  const other = runningPid(pidFile);
  if (other !== undefined)
    throw new GroundworkError({
      code: 'InvalidFlag',
      subject: '--name',
      message: `hub "${flags.name}" already runs (pid ${other})`,
      fix: 'use that hub, stop it with Ctrl-C in its terminal, or pass another --name',
    });
  await rm(workDir, { recursive: true, force: true }); // a hub killed before it cleaned up
  const progress = terminalProgress();
  const cp = await LocalControlPlane.start({ progress, workDir });
  const log = pino({ name: 'groundwork-hub', level: flags.logLevel }, pino.destination(2));
  let client: KubeClient | undefined;
  try {
    await writeFile(pidFile, `${process.pid}\n`);
    client = await KubeClient.load({ kubeconfig: cp.info.kubeconfig, userAgent: 'groundwork-hub' });
    progress.start('installing the hub (CRDs, namespace, RBAC)');
    await installHub(client, { namespace: HUB_NAMESPACE, image: 'unused', deployment: false });
    progress.succeed(`hub installed in namespace ${HUB_NAMESPACE}`);
    const hub = await runHub(client, { namespace: HUB_NAMESPACE, log });
    log.info({ namespace: HUB_NAMESPACE }, 'hub controller started');
    process.stdout.write(
      hubUpInstructions({ name: flags.name, server: cp.info.server, kubeconfig: cp.info.kubeconfig }),
    );
    const signal = await stopSignal;
    process.stderr.write(`${signal}: stopping the hub\n`);
    await hub.stop();
  } finally {
    client?.close();
    await cp.stop();
    await rm(workDir, { recursive: true, force: true });
  }
  process.stderr.write(`hub "${flags.name}" stopped; its data is deleted\n`);
}
