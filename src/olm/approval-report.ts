/**
 * What to do with one InstallPlan, a closed vocabulary. `APPROVAL_DECISION_ORDER`
 * lists them worst first for roll-ups.
 * - `blocked`: a plan Groundwork wants part of but must not approve; needs a human (see `fix`);
 * - `failed`: OLM failed to install the plan;
 * - `wait`: not approvable now and nothing is wrong (plan not ready, beyond a pin, not ours);
 * - `approve`: every CSV in it is wanted by its own operator: set `spec.approved: true`;
 * - `already-approved`: approved (Automatic, or by someone), OLM is on it;
 * - `complete`: installed.
 */
export type ApprovalDecision = 'blocked' | 'failed' | 'wait' | 'approve' | 'already-approved' | 'complete';

const APPROVAL_DECISION_ORDER: readonly ApprovalDecision[] = [
  'blocked',
  'failed',
  'wait',
  'approve',
  'already-approved',
  'complete',
];

/** The stable reason behind a decision. */
export type ApprovalReason =
  | 'AllWanted'
  | 'WantedWithDependencies'
  | 'NotReady'
  | 'BeyondPin'
  | 'Unmanaged'
  | 'BatchedBeyondPin'
  | 'BatchedUnmanaged'
  | 'ManualForPin'
  | 'Approved'
  | 'ApprovedBeyondPin'
  | 'Complete'
  | 'Failed';

/** One CSV of a plan, with the Subscription it belongs to (when known) and whether that Subscription wants it. */
export interface PlanCSV {
  readonly csv: string;
  readonly owner: string | undefined;
  readonly wanted: boolean;
  /** For a CSV no pin wants: the wanted CSV in the same plan whose bundle declares it as a dependency. */
  readonly dependencyOf?: string;
}

export interface PlanVerdict {
  readonly installPlan: string;
  readonly namespace: string;
  readonly decision: ApprovalDecision;
  readonly reason: ApprovalReason;
  readonly message: string;
  readonly fix: string | undefined;
  readonly csvs: readonly PlanCSV[];
}

/** The decisions for one namespace, sorted by InstallPlan name. */
export class ApprovalReport {
  constructor(
    readonly namespace: string,
    readonly verdicts: readonly PlanVerdict[],
  ) {}

  /** Names of the InstallPlans to approve. */
  get toApprove(): string[] {
    return this.verdicts.filter((v) => v.decision === 'approve').map((v) => v.installPlan);
  }

  /** The worst decision, by `APPROVAL_DECISION_ORDER`; `complete` when there are no plans. */
  get worst(): ApprovalDecision {
    const rank = (d: ApprovalDecision) => APPROVAL_DECISION_ORDER.indexOf(d);
    return this.verdicts.reduce<ApprovalDecision>(
      (w, v) => (rank(v.decision) < rank(w) ? v.decision : w),
      'complete',
    );
  }

  toString(): string {
    if (this.verdicts.length === 0) return `${this.namespace}: no InstallPlans`;
    return this.verdicts
      .map(
        (v) =>
          `InstallPlan/${v.namespace}/${v.installPlan}: ${v.decision} (${v.reason}): ${v.message}${v.fix ? ` (fix: ${v.fix})` : ''}`,
      )
      .join('\n');
  }

  toMarkdown(): string {
    const head = `InstallPlans in \`${this.namespace}\``;
    if (this.verdicts.length === 0) return `${head}: none\n`;
    const cell = (s: string) => s.replaceAll('|', '\\|');
    const rows = this.verdicts.map((v) => {
      const csvs = v.csvs.map((c) => `\`${c.csv}\`${c.wanted ? '' : ' (not wanted)'}`).join(', ');
      return `| \`${v.installPlan}\` | ${v.decision} | ${csvs} | ${cell(v.message)} | ${cell(v.fix ?? '')} |`;
    });
    return [
      head,
      '',
      '| InstallPlan | decision | CSVs | why | fix |',
      '|---|---|---|---|---|',
      ...rows,
      '',
    ].join('\n');
  }
}
