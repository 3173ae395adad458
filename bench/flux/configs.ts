// The kustomize-controller configurations `bench flux` sets beside Groundwork. Pure data.

/** Label that assigns a Kustomization to one configuration's controller (Flux's sharding selector). */
export const CONFIG_LABEL = 'bench.groundwork.io/flux-config';

/** One way of running kustomize-controller, with the flags that make it so. */
export interface FluxConfig {
  /** Short name: the shard label value, the namespace prefix and the log file suffix. */
  readonly name: 'defaults' | 'tuned';
  /** Column heading in the report. */
  readonly title: string;
  /** Flags added to the controller's command line. */
  readonly args: readonly string[];
}

/**
 * Flux as shipped (`--concurrent 4`, `--concurrent-ssa 4`, `--kube-api-qps 50`, burst 300), and
 * Flux with its client limits raised, so that a rate limit cannot explain the comparison away.
 */
export const FLUX_CONFIGS: readonly FluxConfig[] = [
  { name: 'defaults', title: 'Flux defaults', args: [] },
  {
    name: 'tuned',
    title: 'Flux tuned',
    args: ['--kube-api-qps=1000', '--kube-api-burst=2000', '--concurrent-ssa=16'],
  },
];

/**
 * kustomize-controller's command line for `config`: every namespace watched but only the
 * Kustomizations labelled for this configuration (`--watch-label-selector`), so two controllers
 * share one control plane without reconciling each other's objects. Metrics and health on loopback.
 */
export function controllerArgs(config: FluxConfig, ports: { metrics: number; health: number }): string[] {
  return [
    '--watch-all-namespaces',
    `--watch-label-selector=${CONFIG_LABEL}=${config.name}`,
    `--metrics-addr=127.0.0.1:${ports.metrics}`,
    `--health-addr=127.0.0.1:${ports.health}`,
    '--enable-leader-election=false',
    '--no-remote-bases=true',
    '--log-level=info',
    ...config.args,
  ];
}
