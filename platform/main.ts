import { ApiObject, ClusterVersionTarget, PlatformOperator, Platform, definePlatform, withPolicy } from 'groundwork';
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

    new ClusterVersionTarget(platform, 'version', {
      channel: values.clusterVersion.channel,
      version: values.clusterVersion.version,
      acceptedRisks: values.clusterVersion.acceptedRisks,
    });
  },
});
