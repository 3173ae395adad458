export * from './catalog/index.js';
export { candidateReasons, updateCandidates } from './candidates.js';
export { upgradePath } from './upgrade-path.js';
export { type Hop, type UpgradePathRequest, type UpgradePathResult } from './upgrade-path-result.js';
export { PinUnreachableError, wantedCSVs } from './pin.js';
export { decideApprovals } from './approval.js';
export { heldAtPin } from './held-at-pin.js';
export {
  dependencyLookup,
  describeRequirement,
  requirementHolds,
  type DependencyLookup,
} from './dependencies.js';
export {
  planDependencies,
  type DependencyJoin,
  type DependencyPlan,
  type UnmetRequirement,
} from './dependency-plan.js';
export {
  presentOf,
  successorsOf,
  type NamedCatalog,
  type OperatorSubscription,
  type PresentOperator,
} from './present-operator.js';
export { pathDependencies, renderPathDependencies, type HopDependencies } from './path-dependencies.js';
export { DependencyUnresolvableError, unresolvableDependency } from './dependency-blocked.js';
export {
  OlmObjectInvalidError,
  isManualApproval,
  toInstallPlan,
  toSubscription,
  type InstallPlanLike,
  type SubscriptionLike,
} from './olm-objects.js';
