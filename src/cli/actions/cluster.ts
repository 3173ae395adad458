import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { defaultCrdDirs } from '../../core/crd-dirs.js';
import { GroundworkError } from '../../core/errors.js';
import { clusterNodes } from '../../dev/controlplane/nodes.js';
import {
  downInstance,
  instanceStatus,
  notRunning,
  readInstance,
  upInstance,
} from '../../dev/controlplane/instance.js';
import type { SetExitCode } from '../commands/command-module.js';
import { ExitCode } from '../exit-code.js';
import { openshiftVersionOf, startSimulators } from './cluster-openshift.js';
import { outputOf } from '../output.js';
import { terminalProgress } from '../progress.js';
import { render } from '../render.js';

/**
 * `cluster up`: starts (building once) the local control plane and says how to use it. Unless
 * `--no-nodes`, pods run: kube-scheduler and KWOK with a control-plane node (three masters with
 * `--openshift`) and `--workers` workers. With `--openshift [VERSION]` also the detached OLM/CVO/MCO
 * simulators (see `startSimulators`), whose MCO rolls the master and worker nodes.
 */
export async function runClusterUp(opts: {
  name: string;
  crds?: string[];
  openshift?: string | true;
  dir?: string;
  /** False with `--no-nodes`. @default true */
  nodes?: boolean;
  /** `--workers N`. @default '2' */
  workers?: string;
}): Promise<void> {
  // Bad flags are input errors: refused before anything starts.
  const version = opts.openshift === undefined ? undefined : openshiftVersionOf(opts.openshift);
  const workers = workersOf(opts.workers ?? '2');
  const progress = terminalProgress();
  const { state, started } = await upInstance(opts.name, {
    crdDirs: opts.crds ?? defaultCrdDirs(),
    progress,
    ...(opts.nodes === false
      ? {}
      : { nodes: clusterNodes({ flavour: version ? 'openshift' : 'kubernetes', workers }) }),
  });
  const out = process.stdout;
  if (version) {
    progress.start(`starting the OLM, CVO and MCO simulators (OpenShift ${version})`);
    const sim = await startSimulators({ name: opts.name, dir: resolve(opts.dir ?? '.'), version });
    progress.succeed(
      sim.started
        ? `simulators running (pid ${sim.state.simulators?.pid}, log ${sim.state.simulators?.logFile})`
        : `simulators already running (pid ${sim.state.simulators?.pid})`,
    );
  }
  out.write(
    started
      ? `Local control plane "${state.name}" is up.\n`
      : `Local control plane "${state.name}" was already running.\n`,
  );
  out.write(
    `  server:     ${state.server}\n  kubeconfig: ${state.kubeconfig}\n  CRDs:       ${state.crds.length}\n`,
  );
  out.write(
    state.pids.kwok
      ? `  nodes:      simulated by KWOK (pods are scheduled and reported running; no container runs)\n\n`
      : `  nodes:      none (started with --no-nodes: pods stay Pending)\n\n`,
  );
  out.write(`Point kubectl at it:\n  export KUBECONFIG=${state.kubeconfig}\n`);
  if (state.binaries.kubectl)
    out.write(`  ${state.binaries.kubectl} get ${state.pids.kwok ? 'nodes' : 'crds'}\n`);
  out.write(
    `Stop it with: groundwork cluster down${opts.name === 'default' ? '' : ` --name ${opts.name}`}\n`,
  );
}

/** `--workers N`: 0 to 20. @throws GroundworkError `InvalidFlag` for anything else. */
function workersOf(flag: string): number {
  if (/^\d{1,2}$/.test(flag) && Number(flag) <= 20) return Number(flag);
  throw new GroundworkError({
    code: 'InvalidFlag',
    subject: '--workers',
    message: `"${flag}" is not a number of worker nodes from 0 to 20`,
    fix: 'pass e.g. --workers 2, or --no-nodes for a control plane without nodes',
  });
}

/** `cluster down`: stops the instance's recorded processes and deletes what `up` created. */
export async function runClusterDown(opts: { name: string }): Promise<void> {
  const state = await downInstance(opts.name);
  process.stdout.write(
    state
      ? `Stopped "${opts.name}" (pids ${[...Object.values(state.pids), ...(state.simulators ? [state.simulators.pid] : [])].join(', ')}).\n`
      : `No instance "${opts.name}".\n`,
  );
}

/** `cluster status`: versions, endpoints, processes and CRDs (exit 2 when not healthy). */
export async function runClusterStatus(
  opts: { name: string; output?: string; format?: string },
  setExitCode: SetExitCode,
): Promise<void> {
  const status = await instanceStatus(opts.name);
  if (!status) throw notRunning(opts.name);
  const healthy = status.processes.every((p) => p.alive) && !status.error;
  const format = outputOf(opts);
  if (format !== 'text') {
    process.stdout.write(render(status, format));
  } else {
    const out: string[] = [
      `Local control plane "${opts.name}": ${healthy ? 'running' : 'NOT HEALTHY'}`,
      `  Kubernetes: ${status.version ?? `unreachable (${status.error})`}`,
      `  server:     ${status.state.server}`,
      `  etcd:       ${status.state.etcdUrl} (data in ${status.state.etcdDir})`,
      `  kubeconfig: ${status.state.kubeconfig}`,
      `  binaries:   ${status.state.binaries.source} (${status.state.binaries.kubeApiserver})`,
      '  processes:',
      ...status.processes.map(
        (p) => `    ${p.name.padEnd(24)} pid ${String(p.pid).padEnd(8)} ${p.alive ? 'running' : 'GONE'}`,
      ),
      `  nodes (${status.nodes?.length ?? 0}):`,
      ...(status.nodes ?? []).map(
        (n) =>
          `    ${n.name.padEnd(24)} ${(n.roles.join(',') || '<none>').padEnd(22)} ${n.ready ? 'Ready' : 'NotReady'}${n.unschedulable ? ',SchedulingDisabled' : ''}`,
      ),
      `  CRDs (${status.crds?.length ?? 0}):`,
      ...(status.crds ?? []).map((c) => `    ${c.name}${c.established ? '' : ' (not Established)'}`),
    ];
    process.stdout.write(`${out.join('\n')}\n`);
  }
  if (!healthy) setExitCode(ExitCode.Error);
}

/** `cluster kubeconfig`: the kubeconfig's path, or with `--raw` its contents. */
export async function runClusterKubeconfig(opts: { name: string; raw?: boolean }): Promise<void> {
  const state = await readInstance(opts.name);
  if (!state) throw notRunning(opts.name);
  process.stdout.write(opts.raw ? await readFile(state.kubeconfig, 'utf8') : `${state.kubeconfig}\n`);
}
