/**
 * Groundwork's public API for platform repositories: `import { ... } from 'groundwork-gitops'`.
 * Everything a platform module needs is exported here, including `z` (zod) for overlay value
 * schemas and cdk8s' `ApiObject`/`Include` for plain objects, so a platform repository needs no
 * dependencies of its own.
 */
export { ApiObject, Include } from 'cdk8s';
export { z } from 'zod';
export { definePlatform, type BuildContext, type PlatformDefinition } from './synth/define-platform.js';
export { Platform, type IgnoreRule, type PlatformProps } from './synth/platform.js';
export { withPolicy, type ObjectPolicyProps } from './synth/policy.js';
export { SopsSecret, type SopsSecretProps } from './synth/sops/sops-secret.js';
export { CatalogSource, type CatalogSourceProps } from './olm/constructs/catalog-source.js';
export {
  PlatformOperator,
  type Approval,
  type InstallMode,
  type OperandSpec,
  type PlatformOperatorProps,
  type SubscriptionConfig,
} from './olm/constructs/platform-operator.js';
export { ClusterVersionTarget, type ClusterVersionTargetProps } from './cluster-version/target.js';
export {
  MachineConfig,
  MachineConfigPool,
  type FileContents,
  type MachineConfigFile,
  type MachineConfigPoolProps,
  type MachineConfigProps,
  type MaintenanceWindow,
  type SystemdUnit,
  maintenanceWindowSchema,
} from './machine-config/index.js';
export { HelmChart, type HelmChartProps } from './synth/charts/helm-chart.js';
export { Kustomization, type KustomizationProps } from './synth/charts/kustomization.js';
