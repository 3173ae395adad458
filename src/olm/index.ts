export * from './catalog/index.js';
export { candidateReasons, updateCandidates } from './candidates.js';
export { upgradePath } from './upgrade-path.js';
export { type Hop, type UpgradePathRequest, type UpgradePathResult } from './upgrade-path-result.js';
export { PinUnreachableError, wantedCSVs } from './pin.js';
export { decideApprovals } from './approval.js';
export { heldAtPin } from './held-at-pin.js';
export {
  OlmObjectInvalidError,
  isManualApproval,
  toInstallPlan,
  toSubscription,
  type InstallPlanLike,
  type SubscriptionLike,
} from './olm-objects.js';
