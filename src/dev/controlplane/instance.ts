import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { KubeClient } from '../../cluster/client.js';
import { installCrds, listCrds } from '../../cluster/crds.js';
import { versionInfoSchema } from '../../cluster/response-body.js';
import { GroundworkError } from '../../core/errors.js';
import { readObjects } from '../../core/yaml-files.js';
import { LocalControlPlane, type ControlPlaneInfo } from './control-plane.js';
import { clusterStateDir } from './paths.js';
import { isAlive } from '../../core/process-alive.js';
import { silentProgress, type Progress } from '../../core/progress.js';
import { checkCrdDirs } from '../../core/crd-dirs.js';
import { nodeListSchema, nodeReady, type NodeSpec } from './nodes.js';

/** A named control plane that outlives the CLI call that started it (`groundwork cluster up`). */
export interface InstanceState extends ControlPlaneInfo {
  name: string;
  crds: string[];
  /** The detached `groundwork cluster simulate` process of `cluster up --openshift`, if any. */
  simulators?: SimulatorsProcess;
}

/** A detached Node process playing OLM, the CVO and the MCO against the instance. */
export interface SimulatorsProcess {
  pid: number;
  /** The Node binary it runs (checked against `/proc/<pid>/cmdline` before it is signalled). */
  binary: string;
  logFile: string;
}

interface InstanceStatus {
  state: InstanceState;
  processes: { name: string; pid: number; alive: boolean }[];
  version?: string;
  crds?: { name: string; established: boolean }[];
  nodes?: NodeSummary[];
  error?: string;
}

/** A node as `cluster status` shows it (`kubectl get nodes`' columns). */
export interface NodeSummary {
  name: string;
  roles: string[];
  ready: boolean;
  /** Cordoned (`spec.unschedulable`), e.g. by the MCO simulator during an update. */
  unschedulable: boolean;
}

const ROLE_LABEL = 'node-role.kubernetes.io/';

const stateFile = (name: string) => join(clusterStateDir(name), 'state.json');

/** Reads a recorded instance, if any. */
export async function readInstance(name: string): Promise<InstanceState | undefined> {
  if (!existsSync(stateFile(name))) return undefined;
  return JSON.parse(await readFile(stateFile(name), 'utf8')) as InstanceState;
}

/**
 * Starts a detached control plane named `name` (work files in `<cache>/clusters/<name>/`),
 * installs the CRDs found in `crdDirs`, and records its state. Returns the running instance
 * unchanged when it is already up.
 */
export async function upInstance(
  name: string,
  opts: {
    crdDirs: string[];
    progress?: Progress;
    /** Nodes to run pods on (`LocalControlPlane.start`'s `nodes`). @default none */
    nodes?: readonly NodeSpec[];
  },
): Promise<{ state: InstanceState; started: boolean }> {
  checkCrdDirs(opts.crdDirs); // before anything starts: a wrong --crds is an input error
  const existing = await readInstance(name);
  // The simulators are not part of the control plane: `up --openshift` restarts them on their own.
  const controlPlane = existing && processesOf(existing).filter((p) => p.name !== 'openshift-simulators');
  if (existing && controlPlane?.every((p) => p.alive)) return { state: existing, started: false };
  if (existing) await downInstance(name);
  const progress = opts.progress ?? silentProgress;
  const workDir = clusterStateDir(name);
  await mkdir(workDir, { recursive: true });
  const cp = await LocalControlPlane.start({
    progress,
    detached: true,
    workDir,
    ...(opts.nodes ? { nodes: opts.nodes } : {}),
  });
  try {
    const client = await KubeClient.load({ kubeconfig: cp.info.kubeconfig });
    progress.start(`installing CRDs from ${opts.crdDirs.join(', ') || '(none)'}`);
    const crds = (await Promise.all(opts.crdDirs.map((d) => readObjects(d)))).flat();
    const names = await installCrds(client, crds);
    progress.succeed(`${names.length} CRDs Established`);
    client.close();
    const state: InstanceState = { ...cp.info, name, crds: names };
    await writeFile(stateFile(name), `${JSON.stringify(state, null, 2)}\n`);
    return { state, started: true };
  } catch (err) {
    await cp.stop();
    throw err;
  }
}

/** Records the simulators process of a running instance, so `down` and `status` see it. */
export async function recordSimulators(name: string, simulators: SimulatorsProcess): Promise<void> {
  const state = await readInstance(name);
  if (!state) throw notRunning(name);
  await writeFile(stateFile(name), `${JSON.stringify({ ...state, simulators }, null, 2)}\n`);
}

/** Whether the instance's recorded simulators process still runs. */
export function simulatorsAlive(state: InstanceState): boolean {
  const sim = state.simulators;
  return sim !== undefined && isAlive(sim.pid) && commandMatches(sim.pid, sim.binary);
}

/**
 * Stops a recorded instance: ends exactly its recorded PIDs (checked against their command lines,
 * against PID reuse) and removes everything `up` created, keys and kubeconfig included.
 */
export async function downInstance(name: string): Promise<InstanceState | undefined> {
  const state = await readInstance(name);
  if (!state) return undefined;
  for (const p of processesOf(state).reverse()) {
    if (p.alive && commandMatches(p.pid, p.binary)) await terminate(p.pid);
  }
  // Everything `up` created: etcd's data (in /dev/shm) and the instance directory with its
  // certificates, service-account keys, tokens, kubeconfigs, logs and state. Never the binaries.
  await rm(state.etcdDir, { recursive: true, force: true });
  await rm(clusterStateDir(name), { recursive: true, force: true });
  return state;
}

/** Liveness of each process, the server version and the installed CRDs of a recorded instance. */
export async function instanceStatus(name: string): Promise<InstanceStatus | undefined> {
  const state = await readInstance(name);
  if (!state) return undefined;
  const status: InstanceStatus = {
    state,
    processes: processesOf(state).map(({ name: n, pid, alive }) => ({ name: n, pid, alive })),
  };
  try {
    const client = await KubeClient.load({ kubeconfig: state.kubeconfig, retries: 1 });
    status.version = (await client.request('GET', '/version', { schema: versionInfoSchema })).gitVersion;
    status.crds = await listCrds(client);
    status.nodes = (await client.request('GET', '/api/v1/nodes', { schema: nodeListSchema })).items.map(
      (n): NodeSummary => ({
        name: n.metadata.name,
        roles: Object.keys(n.metadata.labels ?? {})
          .filter((l) => l.startsWith(ROLE_LABEL))
          .map((l) => l.slice(ROLE_LABEL.length)),
        ready: nodeReady(n),
        unschedulable: n.spec?.unschedulable === true,
      }),
    );
    client.close();
  } catch (err) {
    status.error = err instanceof Error ? err.message : String(err);
  }
  return status;
}

function processesOf(state: InstanceState): { name: string; pid: number; binary: string; alive: boolean }[] {
  const list = [
    { name: 'etcd', pid: state.pids.etcd, binary: state.binaries.etcd },
    { name: 'kube-apiserver', pid: state.pids.kubeApiserver, binary: state.binaries.kubeApiserver },
  ];
  if (state.pids.kubeControllerManager && state.binaries.kubeControllerManager) {
    list.push({
      name: 'kube-controller-manager',
      pid: state.pids.kubeControllerManager,
      binary: state.binaries.kubeControllerManager,
    });
  }
  if (state.pids.kubeScheduler && state.binaries.kubeScheduler)
    list.push({
      name: 'kube-scheduler',
      pid: state.pids.kubeScheduler,
      binary: state.binaries.kubeScheduler,
    });
  if (state.pids.kwok && state.binaries.kwok)
    list.push({ name: 'kwok', pid: state.pids.kwok, binary: state.binaries.kwok });
  // Last, so `down` (which stops in reverse) ends the simulators before the apiserver they talk to.
  if (state.simulators)
    list.push({ name: 'openshift-simulators', pid: state.simulators.pid, binary: state.simulators.binary });
  return list.map((p) => ({ ...p, alive: isAlive(p.pid) && commandMatches(p.pid, p.binary) }));
}

/** Guards against PID reuse: the PID must still run the binary we started. */
function commandMatches(pid: number, binary: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] === binary;
  } catch {
    return false;
  }
}

async function terminate(pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + 5000;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (isAlive(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

export function notRunning(name: string): GroundworkError {
  return new GroundworkError({
    code: 'ClusterNotRunning',
    subject: `cluster ${name}`,
    message: 'not running',
    fix: `run \`groundwork cluster up --name ${name}\``,
  });
}
