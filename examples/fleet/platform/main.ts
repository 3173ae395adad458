import { ApiObject, ClusterVersionTarget, Platform, definePlatform, z } from 'groundwork-gitops';

/** What an overlay sets: the environment, the cluster's region, its version target and sizes. */
const Values = z
  .object({
    environment: z.enum(['dev', 'staging', 'prod']),
    region: z.string().default('local'),
    clusterVersion: z.object({ channel: z.string(), version: z.string() }).strict(),
    ingressReplicas: z.number().int().min(1),
  })
  .strict();

/**
 * The same platform on every cluster of the fleet, told apart by its overlay: a namespace, a
 * ConfigMap that says where it runs, the default IngressController's size, and the cluster
 * version target, which `groundwork promote` carries from dev to staging to prod.
 */
export default definePlatform({
  values: Values,
  build(scope, values) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: values.clusterVersion.version });

    new ApiObject(platform, 'namespace', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'platform-config', labels: { 'example.com/environment': values.environment } },
    });
    new ApiObject(platform, 'cluster-info', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cluster-info', namespace: 'platform-config' },
      data: { environment: values.environment, region: values.region },
    });
    new ApiObject(platform, 'ingress', {
      apiVersion: 'operator.openshift.io/v1',
      kind: 'IngressController',
      metadata: { name: 'default', namespace: 'openshift-ingress-operator' },
      spec: { replicas: values.ingressReplicas },
    });

    new ClusterVersionTarget(platform, 'version', {
      channel: values.clusterVersion.channel,
      version: values.clusterVersion.version,
    });
  },
});
