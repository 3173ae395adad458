/**
 * How much a reviewer should worry, worst first. `blocker`: the change is invalid or will be refused
 * (skipped minors); `high`: disruptive or destructive (a minor update, deleting a namespace or a CRD,
 * rebooting the control plane); `medium`: changes what runs or how it updates (operator channels and
 * pins, node reboots in worker pools, pruning); `low`: routine (a patch update, a new operator);
 * `info`: worth knowing, nothing happens to the cluster.
 */
export type RiskSeverity = 'blocker' | 'high' | 'medium' | 'low' | 'info';

/** Every severity, worst first: the order of roll-ups and of notes in a preview. */
export const RISK_SEVERITIES: readonly RiskSeverity[] = ['blocker', 'high', 'medium', 'low', 'info'];

/** What a risk note is about: a closed vocabulary, part of the preview's JSON (see docs/preview.md). */
type RiskCode =
  | 'ClusterVersionPatch'
  | 'ClusterVersionMinor'
  | 'ClusterVersionEusToEus'
  | 'ClusterVersionSkipsMinors'
  | 'ClusterVersionMajor'
  | 'ClusterVersionDowngrade'
  | 'ClusterVersionChannel'
  | 'ClusterVersionRisksAccepted'
  | 'ClusterVersionTargetAdded'
  | 'ClusterVersionPath'
  | 'ClusterVersionUnreachable'
  | 'ClusterVersionUnknown'
  | 'ClusterVersionEdgeRisk'
  | 'MachineConfigPoolRolls'
  | 'MachineConfigUnselected'
  | 'SubscriptionAdded'
  | 'SubscriptionChannel'
  | 'SubscriptionApproval'
  | 'SubscriptionPin'
  | 'SubscriptionSource'
  | 'ObjectPruned'
  | 'NamespacePruned'
  | 'CrdRemoved'
  | 'PruneKept'
  | 'OverlayRemoved'
  | 'ChartVersion'
  | 'ChartValues'
  | 'ClusterAdminGranted';

/** Every risk code, for readers of a preview's JSON (`parsePreviewJson`). */
export const RISK_CODES = [
  'ClusterVersionPatch',
  'ClusterVersionMinor',
  'ClusterVersionEusToEus',
  'ClusterVersionSkipsMinors',
  'ClusterVersionMajor',
  'ClusterVersionDowngrade',
  'ClusterVersionChannel',
  'ClusterVersionRisksAccepted',
  'ClusterVersionTargetAdded',
  'ClusterVersionPath',
  'ClusterVersionUnreachable',
  'ClusterVersionUnknown',
  'ClusterVersionEdgeRisk',
  'MachineConfigPoolRolls',
  'MachineConfigUnselected',
  'SubscriptionAdded',
  'SubscriptionChannel',
  'SubscriptionApproval',
  'SubscriptionPin',
  'SubscriptionSource',
  'ObjectPruned',
  'NamespacePruned',
  'CrdRemoved',
  'PruneKept',
  'OverlayRemoved',
  'ChartVersion',
  'ChartValues',
  'ClusterAdminGranted',
] as const satisfies readonly RiskCode[];

// RISK_CODES lists every RiskCode: this fails to compile when one is missing.
const _everyCode: Exclude<RiskCode, (typeof RISK_CODES)[number]> extends never ? true : never = true;
void _everyCode;

/** One thing a reviewer should look at, about one object (`subject`, as `Kind/namespace/name`). */
export interface RiskNote {
  severity: RiskSeverity;
  code: RiskCode;
  subject: string;
  message: string;
  /**
   * Construct path of the object the note is about (head's, or base's for a removed object), e.g.
   * `platform/gitops/subscription`: where in `platform/` the change comes from. Absent when the
   * subject is not an object the platform emits (an overlay, a built-in pool).
   */
  source?: string;
}

/** Worst severity first, then code and subject, so notes come out in the same order every time. */
export function compareRiskNotes(a: RiskNote, b: RiskNote): number {
  const bySeverity = RISK_SEVERITIES.indexOf(a.severity) - RISK_SEVERITIES.indexOf(b.severity);
  if (bySeverity !== 0) return bySeverity;
  if (a.code !== b.code) return a.code < b.code ? -1 : 1;
  return a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : 0;
}

/** Counts per severity, every severity present (zero when none). */
export function countBySeverity(notes: readonly RiskNote[]): Record<RiskSeverity, number> {
  const counts = { blocker: 0, high: 0, medium: 0, low: 0, info: 0 };
  for (const n of notes) counts[n.severity]++;
  return counts;
}
