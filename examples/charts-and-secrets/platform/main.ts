import {
  ApiObject,
  HelmChart,
  Kustomization,
  Platform,
  SopsSecret,
  definePlatform,
  z,
} from 'groundwork-gitops';

/** What an overlay (overlays/*.yaml) sets. */
const Values = z
  .object({
    /** Picks the Kustomize overlay (deploy/team-config/overlays/<environment>). */
    environment: z.enum(['dev', 'prod']),
    web: z.object({ replicas: z.number().int().min(1) }).strict(),
  })
  .strict();

/**
 * A team's namespace with the `web` chart of charts/web (rendered by the real `helm template`),
 * the team's quota and limits from a Kustomize overlay (the real `kustomize build`), and the
 * database credentials the chart reads, from a SOPS file the agent decrypts after render.
 */
export default definePlatform({
  values: Values,
  build(scope, values) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });

    new ApiObject(platform, 'namespace', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'web' },
    });

    new HelmChart(platform, 'web', {
      chart: 'charts/web',
      version: '1.2.0',
      namespace: 'web',
      releaseName: 'web',
      values: { replicaCount: values.web.replicas },
    });

    new Kustomization(platform, 'team-config', { dir: `deploy/team-config/overlays/${values.environment}` });

    // secrets/database.sops.yaml is encrypted for the EXAMPLE-ONLY key in example-only.agekey.
    new SopsSecret(platform, 'database', {
      file: 'secrets/database.sops.yaml',
      name: 'database',
      namespace: 'web',
    });
  },
});
