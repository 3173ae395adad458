import {
  ClusterVersionTarget,
  MachineConfig,
  MachineConfigPool,
  Platform,
  PlatformOperator,
  definePlatform,
} from 'groundwork-gitops';
import { Values } from './values.js';

/**
 * An OpenShift platform: the cert-manager operator following its channel, the Kepler operator
 * pinned to a CSV of the committed catalog, an `infra` pool with maintenance windows, time sync on
 * every node, huge pages on the infra nodes, and a cluster version target.
 */
export default definePlatform({
  values: Values,
  build(scope, values) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: values.clusterVersion.version });

    new PlatformOperator(platform, 'cert-manager', {
      package: 'openshift-cert-manager-operator',
      channel: 'stable-v1',
      namespace: 'cert-manager-operator',
      installMode: 'AllNamespaces',
    });

    // Pinned: Manual approval, in a namespace of its own so its InstallPlans are never batched.
    new PlatformOperator(platform, 'kepler', {
      package: 'kepler-operator',
      channel: values.kepler.channel,
      pin: values.kepler.pin,
      namespace: 'kepler-operator',
      installMode: 'AllNamespaces',
      catalog: { name: 'community-operators' },
    });

    const infra = new MachineConfigPool(platform, 'infra', {
      name: 'infra',
      maxUnavailable: values.infraPool.maxUnavailable,
      maintenanceWindows: values.infraPool.maintenanceWindows,
    });
    for (const role of ['master', 'worker'] as const) {
      new MachineConfig(platform, `chrony-${role}`, {
        name: `50-${role}-chrony`,
        pool: role,
        files: [{ path: '/etc/chrony.conf', mode: '0644', contents: chronyConf(values.ntpServers) }],
      });
    }
    new MachineConfig(platform, 'infra-hugepages', {
      pool: infra,
      kernelArguments: ['hugepagesz=2M', 'hugepages=512'],
    });

    new ClusterVersionTarget(platform, 'version', {
      channel: values.clusterVersion.channel,
      version: values.clusterVersion.version,
    });
  },
});

function chronyConf(servers: readonly string[]): string {
  return [
    ...servers.map((s) => `server ${s} iburst`),
    'driftfile /var/lib/chrony/drift',
    'makestep 1.0 3',
    '',
  ].join('\n');
}
