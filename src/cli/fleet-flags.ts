import type { Command } from 'commander';

export interface FleetFlags {
  dir: string;
  fleet?: string;
  kubeconfig?: string;
  repo?: string;
  clusterTimeout: string;
  output?: string;
  format?: string;
  /** `fleet status --hub`, `promote --hub`: the hub's kubeconfig; the fleet is read from its FleetMembers. */
  hub?: string;
  /** `fleet status --selector`, with `--hub`: a label selector. */
  selector?: string;
}

export interface PromoteFlags extends FleetFlags {
  dryRun?: boolean;
  force?: boolean;
  reason?: string;
  /** Files of trusted public keys (OpenPGP keyrings, allowed signers) for targets with `verify: true`. */
  trustedKeys?: string[];
}

/** `fleet.yaml` next to groundwork.yaml is the default fleet file. */
export const FLEET_FILE = 'fleet.yaml';

/** The flags of `fleet status` and `promote`: where the platform, the fleet file and the clusters are. */
export const fleetOptions = (cmd: Command): Command =>
  cmd
    .option('--dir <dir>', 'the platform repository (holds groundwork.yaml)', '.')
    .option(
      '--fleet <file>',
      `fleet file: the clusters and their kube contexts (default: ${FLEET_FILE} in --dir, else every context of the kubeconfig)`,
    )
    .option('--kubeconfig <file>', 'kubeconfig holding the contexts')
    .option('--repo <url>', "the platform's git repository (default: the one the agents follow)")
    .option('--cluster-timeout <duration>', 'how long to wait for one cluster', '10s');
