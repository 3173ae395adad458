import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, realpathSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { packageRoot } from '../../core/package-root.js';
import { GroundworkError } from '../../core/errors.js';
import {
  notRunning,
  readInstance,
  recordSimulators,
  simulatorsAlive,
  type InstanceState,
} from '../../dev/controlplane/instance.js';
import { clusterStateDir } from '../../dev/controlplane/paths.js';
import { isAlive } from '../../core/process-alive.js';
import { logTail } from '../../dev/controlplane/process.js';
import { CONFIG_FILE, loadProjectConfig } from '../../project/config.js';

/** The OpenShift version `cluster up --openshift` gives the cluster when none is named. */
export const DEFAULT_OPENSHIFT_VERSION = '4.14.38';

/** How long `cluster up --openshift` waits for the simulators' baseline (namespaces, catalogs, CVO). */
const READY_TIMEOUT_MS = 60_000;

const readyFile = (name: string) => join(clusterStateDir(name), 'simulators.ready');

/**
 * The OpenShift version of `--openshift [VERSION]` (`true`: the default), checked as `X.Y.Z`.
 * @throws GroundworkError `InvalidFlag` for anything else.
 */
export function openshiftVersionOf(flag: string | true): string {
  if (flag === true) return DEFAULT_OPENSHIFT_VERSION;
  if (/^\d+\.\d+\.\d+$/.test(flag)) return flag;
  throw new GroundworkError({
    code: 'InvalidFlag',
    subject: '--openshift',
    message: 'not an OpenShift version X.Y.Z',
    fix: `pass e.g. --openshift ${DEFAULT_OPENSHIFT_VERSION}, or --openshift alone`,
  });
}

/**
 * Starts `groundwork cluster simulate` for a running instance as a detached process (it outlives
 * this command), records its PID with the instance's (so `cluster down` stops it), and waits until
 * it reports its baseline written. Does nothing when the instance's simulators already run.
 * @throws GroundworkError `SimulatorsFailed` (with the log's tail) when it exits or is not ready in time.
 */
export async function startSimulators(opts: {
  name: string;
  dir: string;
  version: string;
}): Promise<{ state: InstanceState; started: boolean }> {
  const state = await readInstance(opts.name);
  if (!state) throw notRunning(opts.name);
  if (simulatorsAlive(state)) return { state, started: false };
  const logFile = join(clusterStateDir(opts.name), 'simulators.log');
  await rm(readyFile(opts.name), { force: true });
  const fd = openSync(logFile, 'a');
  const bin = join(packageRoot, 'bin', 'groundwork.js');
  // Arguments as an array, no shell: the directory and name are data.
  const args = ['cluster', 'simulate', '--name', opts.name, '--dir', opts.dir, '--openshift', opts.version];
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', fd, fd], detached: true });
  closeSync(fd);
  if (child.pid === undefined) throw simulatorsFailed(logFile, 'could not be started');
  child.unref();
  const simulators = { pid: child.pid, binary: process.execPath, logFile };
  await recordSimulators(opts.name, simulators);
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!existsSync(readyFile(opts.name))) {
    if (!isAlive(child.pid)) throw simulatorsFailed(logFile, 'exited during start-up');
    if (Date.now() > deadline)
      throw simulatorsFailed(logFile, `not ready after ${READY_TIMEOUT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { state: { ...state, simulators }, started: true };
}

/**
 * `cluster simulate` (what `cluster up --openshift` runs detached): plays OLM, the CVO and the
 * MCO against the instance until SIGTERM/SIGINT, serving the FBC catalogs the platform's
 * groundwork.yaml names under `community-operators` (paths confined to `dir`, real paths).
 */
export async function runClusterSimulate(opts: {
  name: string;
  dir: string;
  openshift: string;
}): Promise<void> {
  const state = await readInstance(opts.name);
  if (!state) throw notRunning(opts.name);
  const version = openshiftVersionOf(opts.openshift);
  const { SimulatedOpenShift } = await import('../../dev/simulators/world.js');
  const world = await SimulatedOpenShift.start({
    kubeconfig: state.kubeconfig,
    version,
    channel: `stable-${version.split('.').slice(0, 2).join('.')}`,
    communityCatalogs: await platformCatalogs(resolve(opts.dir)),
    intervalMs: 250,
    updateTicks: 2,
  });
  await writeFile(readyFile(opts.name), `${process.pid}\n`);
  process.stdout.write(`simulators running against ${state.server} (OpenShift ${version})\n`);
  await new Promise<void>((done) => {
    process.once('SIGTERM', done);
    process.once('SIGINT', done);
  });
  await world.stop();
}

/** The catalogs groundwork.yaml names, as real paths inside `dir`; none without a groundwork.yaml. */
async function platformCatalogs(dir: string): Promise<string[]> {
  if (!existsSync(join(dir, CONFIG_FILE))) return [];
  const root = realpathSync(dir);
  return (await loadProjectConfig(dir)).catalogs.map((c) => {
    const real = realpathSync(join(dir, c));
    if (real !== root && !real.startsWith(root + sep)) {
      throw new GroundworkError({
        code: 'PathOutsideCheckout',
        subject: `${CONFIG_FILE} catalogs: ${c}`,
        message: 'resolves outside the repository',
        fix: 'keep catalogs inside the repository (no links out of it)',
      });
    }
    return real;
  });
}

function simulatorsFailed(logFile: string, what: string): GroundworkError {
  return new GroundworkError({
    code: 'SimulatorsFailed',
    subject: 'openshift simulators',
    message: `${what}; last lines of ${logFile}:\n${logTail(logFile)}`,
    fix: `read ${logFile}; \`groundwork cluster down\` then \`cluster up --openshift\` starts afresh`,
  });
}
