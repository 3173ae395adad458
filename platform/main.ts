import {
  ApiObject,
  ClusterVersionTarget,
  MachineConfig,
  MachineConfigPool,
  PlatformOperator,
  Platform,
  definePlatform,
  withPolicy,
} from 'groundwork-gitops';
import { Values } from './values.js';

/**
 * The example platform: OpenShift GitOps with an Argo CD instance, the cert-manager operator,
 * the Kepler operator pinned to a CSV in its own namespace, chrony and an SSH banner on the
 * nodes, an `infra` pool, and a cluster version target.
 */
export default definePlatform({
  values: Values,
  build(scope, values) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: values.clusterVersion.version });

    // OpenShift GitOps (Argo CD), cluster-wide, with the platform's own Argo CD instance as its operand.
    new ApiObject(platform, 'gitops-namespace', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'platform-gitops', labels: { 'openshift.io/cluster-monitoring': 'true' } },
    });
    new PlatformOperator(platform, 'gitops', {
      package: 'openshift-gitops-operator',
      channel: values.gitops.channel,
      approval: values.gitops.approval,
      namespace: 'openshift-gitops-operator',
      installMode: 'AllNamespaces',
      config: { env: [{ name: 'DISABLE_DEFAULT_ARGOCD_INSTANCE', value: 'true' }] },
      operands: [
        {
          apiVersion: 'argoproj.io/v1beta1',
          kind: 'ArgoCD',
          metadata: { name: 'platform', namespace: 'platform-gitops' },
          spec: { server: { route: { enabled: true } }, rbac: { defaultPolicy: 'role:readonly' } },
        },
      ],
    });

    // cert-manager operator for Red Hat OpenShift.
    new PlatformOperator(platform, 'cert-manager', {
      package: 'openshift-cert-manager-operator',
      channel: values.certManager.channel,
      namespace: 'cert-manager-operator',
      installMode: 'AllNamespaces',
    });

    // Kepler, pinned: Manual approval, in its own namespace so its InstallPlans are never batched.
    new PlatformOperator(platform, 'kepler', {
      package: 'kepler-operator',
      channel: values.kepler.channel,
      pin: values.kepler.pin,
      namespace: 'kepler-operator',
      installMode: 'AllNamespaces',
      catalog: { name: 'community-operators' },
    });

    // A plain object next to the typed ones; its replica count is left to whoever scales it.
    withPolicy(
      new ApiObject(platform, 'banner', {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'platform-info', namespace: 'platform-gitops' },
        data: { owner: 'platform-team', managedBy: 'groundwork' },
      }),
      { prune: 'keep' },
    );

    // Nodes: an `infra` pool (inherits worker configs), time sync and an SSH banner everywhere.
    const infra = new MachineConfigPool(platform, 'infra', {
      name: 'infra',
      maxUnavailable: values.infraPool.maxUnavailable,
      ...(values.infraPool.paused ? { paused: true } : {}),
      maintenanceWindows: values.infraPool.maintenanceWindows,
    });
    for (const role of ['master', 'worker'] as const) {
      new MachineConfig(platform, `chrony-${role}`, {
        name: `50-${role}-chrony`,
        pool: role,
        files: [{ path: '/etc/chrony.conf', mode: '0644', contents: chronyConf(values.chrony.servers) }],
      });
    }
    new MachineConfig(platform, 'ssh-banner', {
      pool: 'worker',
      files: [
        {
          path: '/etc/ssh/sshd_config.d/40-banner.conf',
          mode: '0600',
          contents: 'Banner /etc/issue.d/platform-banner\n',
        },
        {
          path: '/etc/issue.d/platform-banner',
          mode: '0644',
          contents: 'Authorized use only. This node is managed by the platform team.\n',
        },
      ],
      ...(values.workerKernelArguments.length ? { kernelArguments: values.workerKernelArguments } : {}),
    });
    new MachineConfig(platform, 'infra-hugepages', {
      pool: infra,
      kernelArguments: ['hugepagesz=2M', 'hugepages=512'],
    });

    new ClusterVersionTarget(platform, 'version', {
      channel: values.clusterVersion.channel,
      version: values.clusterVersion.version,
      acceptedRisks: values.clusterVersion.acceptedRisks,
    });
  },
});

function chronyConf(servers: readonly string[]): string {
  return [
    ...servers.map((s) => `server ${s} iburst`),
    'driftfile /var/lib/chrony/drift',
    'makestep 1.0 3',
    'rtcsync',
    'logdir /var/log/chrony',
    '',
  ].join('\n');
}
