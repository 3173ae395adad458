import { ApiObject, Platform, PlatformOperator, definePlatform } from 'groundwork-gitops';
import { Values } from './values.js';

/**
 * The platform: a namespace for the team's own objects, the cert-manager operator installed
 * through OLM, and a ConfigMap that says which environment this is. `groundwork synth` turns it
 * into manifests; the agent keeps a cluster at them.
 */
export default definePlatform({
  values: Values,
  build(scope, values) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: values.openshiftVersion });

    new ApiObject(platform, 'namespace', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'platform-config' },
    });

    new PlatformOperator(platform, 'cert-manager', {
      package: 'openshift-cert-manager-operator',
      channel: values.certManager.channel,
      approval: values.certManager.approval,
      namespace: 'cert-manager-operator',
    });

    new ApiObject(platform, 'platform-info', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'platform-info', namespace: 'platform-config' },
      data: { environment: values.environment, managedBy: 'groundwork' },
    });
  },
});
