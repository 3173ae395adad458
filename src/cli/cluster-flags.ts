import type { Command } from 'commander';

/** kubectl's connection flags plus the repository flags shared by plan, apply and drift. */
export interface ClusterFlags {
  dir: string;
  overlay?: string;
  kubeconfig?: string;
  context?: string;
  /** Render without isolation where the machine cannot isolate (`--trust-repository`). */
  trustRepository?: boolean;
}

/** The `--trust-repository` flag of every command that renders (docs/security.md). */
export const TRUST_REPOSITORY_FLAG = [
  '--trust-repository',
  'render even where this machine cannot isolate the renderer (no user namespaces, not root): repository content then runs with your identity; say it only if you trust every author of the repository (also GROUNDWORK_TRUST_REPOSITORY=1)',
] as const;

/** Adds `--dir`, `--overlay`, `--kubeconfig`, `--context` and `--trust-repository` (declarations only: nothing is loaded). */
export function withClusterFlags(cmd: Command): Command {
  return cmd
    .option('--dir <dir>', 'repository root (holds groundwork.yaml)', '.')
    .option('--overlay <name>', 'overlay (default: groundwork.yaml defaultOverlay)')
    .option(
      '--kubeconfig <file>',
      'kubeconfig file (default: $KUBECONFIG, in-cluster config, ~/.kube/config)',
    )
    .option('--context <name>', 'kubeconfig context')
    .option(...TRUST_REPOSITORY_FLAG);
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
