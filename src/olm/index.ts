export * from './catalog/index.js';
export {
  candidateReasons,
  updateCandidates,
  type Candidate,
  type CandidateReason,
  type InstalledCSV,
} from './candidates.js';
export { olmWalk, upgradePath } from './upgrade-path.js';
export {
  UpgradePathFound,
  UpgradePathUnreachable,
  explainHop,
  type Hop,
  type HopReason,
  type UnreachableReason,
  type UpgradePathRequest,
  type UpgradePathResult,
} from './upgrade-path-result.js';
export { PinUnreachableError, wantedCSVs, type PinRequest, type PinResult } from './pin.js';
export {
  APPROVAL_DECISION_ORDER,
  ApprovalReport,
  type ApprovalDecision,
  type ApprovalReason,
  type PlanCSV,
  type PlanVerdict,
} from './approval-report.js';
export { decideApproval, decideApprovals, type ApprovalInput } from './approval.js';
export { heldAtPin } from './held-at-pin.js';
export {
  OlmObjectInvalidError,
  installPlanSchema,
  isManualApproval,
  subscriptionSchema,
  toInstallPlan,
  toSubscription,
  type InstallPlanLike,
  type SubscriptionLike,
} from './olm-objects.js';
