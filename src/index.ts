/**
 * Groundwork's public API for platform repositories: `import { ... } from 'groundwork-gitops'`.
 * Everything a platform module needs is exported here, including `z` (zod) for overlay value
 * schemas and cdk8s' `ApiObject`/`Include` for plain objects, so a platform repository needs no
 * dependencies of its own.
 */
export { ApiObject, Include } from 'cdk8s';
export { z } from 'zod';
export {
  definePlatform,
  type BuildContext,
  type PlatformDefinition,
} from './render/synth/define-platform.js';
export { Platform, type IgnoreRule, type PlatformProps } from './render/synth/platform.js';
export { withPolicy, type ObjectPolicyProps } from './render/synth/policy.js';
export { SopsSecret, type SopsSecretProps } from './secrets/sops-secret.js';
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
export { HelmChart, type HelmChartProps } from './render/helm/helm-chart.js';
export { Kustomization, type KustomizationProps } from './render/kustomize/kustomization.js';
