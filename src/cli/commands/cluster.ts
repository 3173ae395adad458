import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { defaultCrdDirs } from '../../controlplane/crd-dirs.js';
import {
  downInstance,
  instanceStatus,
  notRunning,
  readInstance,
  upInstance,
} from '../../controlplane/instance.js';
import { terminalProgress } from '../progress.js';
import { ExitCode } from '../exit-code.js';
import type { CommandModule } from './command-module.js';
import { outputOf, render, withOutput } from '../output.js';

/** `groundwork cluster up | down | status | kubeconfig`: the local control plane. */
export const registerCluster: CommandModule = (program: Command, setExitCode) => {
  const cluster = program
    .command('cluster')
    .description(
      'run a real local control plane (etcd, kube-apiserver, kube-controller-manager) on loopback',
    );

  cluster
    .command('up')
    .description('build (first time only) and start the local control plane, install the platform CRDs')
    .option('--name <name>', 'instance name; several can run at once', 'default')
    .option(
      '--crds <dir...>',
      'CRD directories to install (default: the OLM and OpenShift CRDs in data/crds, and crds/)',
    )
    .action(async (opts: { name: string; crds?: string[] }) => {
      const { state, started } = await upInstance(opts.name, {
        crdDirs: opts.crds ?? defaultCrdDirs(),
        progress: terminalProgress(),
      });
      const out = process.stdout;
      out.write(
        started
          ? `Local control plane "${state.name}" is up.\n`
          : `Local control plane "${state.name}" was already running.\n`,
      );
      out.write(
        `  server:     ${state.server}\n  kubeconfig: ${state.kubeconfig}\n  CRDs:       ${state.crds.length}\n\n`,
      );
      out.write(`Point kubectl at it:\n  export KUBECONFIG=${state.kubeconfig}\n`);
      if (state.binaries.kubectl) out.write(`  ${state.binaries.kubectl} get crds\n`);
      out.write(
        `Stop it with: groundwork cluster down${opts.name === 'default' ? '' : ` --name ${opts.name}`}\n`,
      );
    });

  cluster
    .command('down')
    .description('stop the local control plane (exactly the processes it started) and delete its data')
    .option('--name <name>', 'instance name', 'default')
    .action(async (opts: { name: string }) => {
      const state = await downInstance(opts.name);
      process.stdout.write(
        state
          ? `Stopped "${opts.name}" (pids ${Object.values(state.pids).join(', ')}).\n`
          : `No instance "${opts.name}".\n`,
      );
    });

  withOutput(cluster.command('status'), ['text', 'json', 'yaml'], 'text')
    .description('Kubernetes version, endpoints, PIDs and installed CRDs of the local control plane')
    .option('--name <name>', 'instance name', 'default')
    .action(async (opts: { name: string; output?: string; format?: string }) => {
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
          `  CRDs (${status.crds?.length ?? 0}):`,
          ...(status.crds ?? []).map((c) => `    ${c.name}${c.established ? '' : ' (not Established)'}`),
        ];
        process.stdout.write(`${out.join('\n')}\n`);
      }
      if (!healthy) setExitCode(ExitCode.Error);
    });

  cluster
    .command('kubeconfig')
    .description('print the kubeconfig path (or, with --raw, its contents)')
    .option('--name <name>', 'instance name', 'default')
    .option('--raw', 'print the file contents')
    .action(async (opts: { name: string; raw?: boolean }) => {
      const state = await readInstance(opts.name);
      if (!state) throw notRunning(opts.name);
      process.stdout.write(opts.raw ? await readFile(state.kubeconfig, 'utf8') : `${state.kubeconfig}\n`);
    });
};
