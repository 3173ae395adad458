import type { Command } from 'commander';

/** kubectl's connection flags plus the repository flags shared by plan, apply and drift. */
export interface ClusterFlags {
  dir: string;
  overlay?: string;
  kubeconfig?: string;
  context?: string;
}

/** Adds `--dir`, `--overlay`, `--kubeconfig` and `--context` (declarations only: nothing is loaded). */
export function withClusterFlags(cmd: Command): Command {
  return cmd
    .option('--dir <dir>', 'repository root (holds groundwork.yaml)', '.')
    .option('--overlay <name>', 'overlay (default: groundwork.yaml defaultOverlay)')
    .option(
      '--kubeconfig <file>',
      'kubeconfig file (default: $KUBECONFIG, in-cluster config, ~/.kube/config)',
    )
    .option('--context <name>', 'kubeconfig context');
}

/** The kubeconfig and context the flags select, as `KubeClient.load` takes them (unset flags left out). */
export function connectionOf(flags: { kubeconfig?: string; context?: string }): {
  kubeconfig?: string;
  context?: string;
} {
  return {
    ...(flags.kubeconfig ? { kubeconfig: flags.kubeconfig } : {}),
    ...(flags.context ? { context: flags.context } : {}),
  };
}
