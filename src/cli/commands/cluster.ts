import type { Command } from 'commander';
import { withOutput } from '../output.js';
import type { CommandModule } from './command-module.js';

/** `groundwork cluster up | down | status | kubeconfig`: the local control plane. */
export const registerCluster: CommandModule = (program: Command, setExitCode) => {
  const cluster = program
    .command('cluster')
    .description(
      'run a real local control plane (etcd, kube-apiserver, kube-controller-manager, kube-scheduler, KWOK nodes) on loopback',
    );

  cluster
    .command('up')
    .description('build (first time only) and start the local control plane, install the platform CRDs')
    .option('--name <name>', 'instance name; several can run at once', 'default')
    .option(
      '--crds <dir...>',
      'CRD directories to install (default: the OLM and OpenShift CRDs in data/crds, and crds/)',
    )
    .option(
      '--openshift [version]',
      'also run the OLM, CVO and MCO simulators (a fresh OpenShift, default 4.14.38) until `cluster down`, serving the catalogs groundwork.yaml names',
    )
    .option('--dir <dir>', "the platform repository whose groundwork.yaml's catalogs are served", '.')
    .option(
      '--workers <n>',
      'worker nodes, beside the control-plane node (three masters with --openshift)',
      '2',
    )
    .option(
      '--no-nodes',
      'no nodes, kube-scheduler or KWOK: pods stay Pending (and nothing more is built the first time)',
    )
    .action(
      async (opts: {
        name: string;
        crds?: string[];
        openshift?: string | true;
        dir: string;
        workers: string;
        nodes: boolean;
      }) => (await import('../actions/cluster.js')).runClusterUp(opts),
    );

  cluster
    .command('simulate', { hidden: true })
    .description(
      'play OLM, the CVO and the MCO against a running instance until stopped (run by up --openshift)',
    )
    .option('--name <name>', 'instance name', 'default')
    .option('--dir <dir>', 'the platform repository whose catalogs are served', '.')
    .option('--openshift <version>', 'the OpenShift version the cluster starts at', '4.14.38')
    .action(async (opts: { name: string; dir: string; openshift: string }) =>
      (await import('../actions/cluster-openshift.js')).runClusterSimulate(opts),
    );

  cluster
    .command('down')
    .description('stop the local control plane (exactly the processes it started) and delete its data')
    .option('--name <name>', 'instance name', 'default')
    .action(async (opts: { name: string }) => (await import('../actions/cluster.js')).runClusterDown(opts));

  withOutput(cluster.command('status'), ['text', 'json', 'yaml'], 'text')
    .description('Kubernetes version, endpoints, PIDs and installed CRDs of the local control plane')
    .option('--name <name>', 'instance name', 'default')
    .action(async (opts: { name: string; output?: string; format?: string }) =>
      (await import('../actions/cluster.js')).runClusterStatus(opts, setExitCode),
    );

  cluster
    .command('kubeconfig')
    .description('print the kubeconfig path (or, with --raw, its contents)')
    .option('--name <name>', 'instance name', 'default')
    .option('--raw', 'print the file contents')
    .action(async (opts: { name: string; raw?: boolean }) =>
      (await import('../actions/cluster.js')).runClusterKubeconfig(opts),
    );
};
