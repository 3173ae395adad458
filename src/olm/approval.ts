import {
  ApprovalReport,
  type ApprovalDecision,
  type ApprovalReason,
  type PlanCSV,
  type PlanVerdict,
} from './approval-report.js';
import type { DependencyLookup } from './dependencies.js';
import type { InstallPlanLike, SubscriptionLike } from './olm-objects.js';

/** Everything the decision reads for one namespace (OLM resolves, and batches, per namespace). */
interface ApprovalInput {
  readonly namespace: string;
  readonly installPlans: readonly InstallPlanLike[];
  readonly subscriptions: readonly SubscriptionLike[];
  /**
   * Wanted CSVs by Subscription name (from `wantedCSVs`). A Subscription with an
   * entry is managed (pinned) by Groundwork; one without is not.
   */
  readonly wanted: ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * Which wanted CSV declares a plan CSV as its dependency (read from the catalog files). OLM puts
   * a bundle's `olm.package.required`/`olm.gvk.required` operators in the same InstallPlan; such a
   * CSV is approved with the wanted one. @default nothing is a dependency
   */
  readonly dependencies?: DependencyLookup;
}

/**
 * Decides, for every InstallPlan of a namespace, whether Groundwork approves it.
 *
 * Rule: approve only when every CSV in the plan is wanted by its own operator
 * (is on the path from that Subscription's installed CSV to its pin). A plan
 * with any CSV nobody wants is never approved: if it carries nothing wanted it
 * waits (a pinned operator's next hop is offered and ignored on purpose);
 * if it batches wanted CSVs with unwanted ones it is `blocked`, because OLM
 * resolves a namespace as a whole and one plan can carry several operators.
 *
 * A CSV belongs to the Subscription whose wanted set holds it, else to the one
 * whose `status.currentCSV` names it, else to none (a dependency OLM pulled in,
 * or an operator Groundwork does not manage). A CSV no pin covers that a wanted
 * CSV of the same plan declares as a dependency (directly or through another
 * dependency, see `dependencies`) travels with it: the plan is approved
 * (`WantedWithDependencies`). Unrelated batched CSVs still block. Pure.
 *
 * @example
 * const report = decideApprovals({ namespace: 'ops', installPlans, subscriptions, wanted: new Map([['foo', new Set(['foo.v0.2.0'])]]) });
 * for (const name of report.toApprove) await approve(name);
 */
export function decideApprovals(input: ApprovalInput): ApprovalReport {
  const inNs = <T extends { metadata: { namespace?: string | undefined } }>(o: T) =>
    (o.metadata.namespace ?? input.namespace) === input.namespace;
  const subscriptions = input.subscriptions.filter(inNs);
  const verdicts = input.installPlans
    .filter(inNs)
    .map((plan) =>
      decideApproval(plan, {
        namespace: input.namespace,
        subscriptions,
        wanted: input.wanted,
        ...(input.dependencies ? { dependencies: input.dependencies } : {}),
      }),
    )
    .sort((a, b) => (a.installPlan < b.installPlan ? -1 : a.installPlan > b.installPlan ? 1 : 0));
  return new ApprovalReport(input.namespace, verdicts);
}

/** The decision for one InstallPlan; see `decideApprovals`. */
function decideApproval(plan: InstallPlanLike, ctx: Omit<ApprovalInput, 'installPlans'>): PlanVerdict {
  const csvs = withDependencies(
    plan.spec.clusterServiceVersionNames.map((csv) => attribute(csv, ctx)),
    ctx,
  );
  const base = { installPlan: plan.metadata.name, namespace: plan.metadata.namespace ?? ctx.namespace, csvs };
  const verdict = (
    decision: ApprovalDecision,
    reason: ApprovalReason,
    message: string,
    fix?: string,
  ): PlanVerdict => ({
    ...base,
    decision,
    reason,
    message,
    fix,
  });
  const managed = (c: PlanCSV) => c.owner !== undefined && ctx.wanted.has(c.owner);
  const list = (cs: readonly PlanCSV[]) =>
    cs.map((c) => (c.owner ? `${c.csv} (${c.owner})` : c.csv)).join(', ');
  const wanted = csvs.filter((c) => c.wanted);
  const dependencies = csvs.filter((c) => !c.wanted && c.dependencyOf !== undefined && !managed(c));
  const unwanted = csvs.filter((c) => !c.wanted && !dependencies.includes(c));
  const phase = plan.status?.phase;

  if (phase === 'Complete') return verdict('complete', 'Complete', `installed ${list(csvs)}`);
  if (phase === 'Failed') {
    return verdict(
      'failed',
      'Failed',
      `OLM failed to install ${list(csvs)}`,
      'read the InstallPlan conditions; delete it so OLM plans again',
    );
  }
  if (plan.spec.approved) {
    return unwanted.some(managed)
      ? verdict(
          'already-approved',
          'ApprovedBeyondPin',
          `approved, though it carries ${list(unwanted.filter(managed))} past the pin`,
          'set installPlanApproval: Manual so OLM waits for Groundwork',
        )
      : verdict('already-approved', 'Approved', `approved; OLM installs ${list(csvs)}`);
  }
  if (csvs.length === 0 || (unwanted.length === 0 && phase !== 'RequiresApproval')) {
    return verdict(
      'wait',
      'NotReady',
      `phase is ${phase ?? 'not set yet'}; approval waits for RequiresApproval`,
    );
  }
  if (unwanted.length === 0 && dependencies.length > 0) {
    return verdict(
      'approve',
      'WantedWithDependencies',
      `every CSV is on its operator's path to the pin: ${list(wanted)}; with their declared dependencies ${dependencies
        .map((c) => `${c.csv} (required by ${c.dependencyOf})`)
        .join(', ')}`,
    );
  }
  if (unwanted.length === 0)
    return verdict('approve', 'AllWanted', `every CSV is on its operator's path to the pin: ${list(csvs)}`);
  if (wanted.length === 0) {
    if (unwanted.every(managed))
      return verdict('wait', 'BeyondPin', `${list(unwanted)} is past the pin; left unapproved on purpose`);
    const strays = unwanted.filter((c) => !managed(c));
    const pinners = phase === 'RequiresApproval' ? manualPins(plan, strays, ctx) : [];
    if (pinners.length > 0) {
      const them = pinners.length > 1 ? `operators ${pinners.join(', ')}` : `operator ${pinners[0]}`;
      return verdict(
        'blocked',
        'ManualForPin',
        `OLM made this InstallPlan Manual because the pinned ${them} ${pinners.length > 1 ? 'share' : 'shares'} the namespace; ${list(strays)} asks for Automatic approval and nobody approves it`,
        `give the pinned ${them} ${pinners.length > 1 ? 'a namespace' : 'its own namespace'} (with its own OperatorGroup), or pin ${[...new Set(strays.map((c) => c.owner))].join(', ')} too`,
      );
    }
    return verdict(
      'wait',
      'Unmanaged',
      `no Groundwork pin covers ${list(strays)}; left to whoever manages it`,
    );
  }
  const owners = [...new Set(wanted.map((c) => c.owner))].join(', ');
  const pinned = unwanted.filter(managed);
  if (pinned.length > 0) {
    const who = [...new Set(pinned.map((c) => c.owner))].join(', ');
    return verdict(
      'blocked',
      'BatchedBeyondPin',
      `OLM batched ${list(wanted)} with ${list(pinned)}, which is past its pin; approving would install both`,
      `give the pinned operator ${who} its own namespace (with its own OperatorGroup) so OLM resolves it apart from ${owners}`,
    );
  }
  const strays = unwanted.filter((c) => !managed(c));
  return verdict(
    'blocked',
    'BatchedUnmanaged',
    `OLM batched ${list(wanted)} with ${list(strays)}, which no Groundwork pin covers; approving would install both`,
    `declare and pin the operator that brings ${strays.map((c) => c.csv).join(', ')} (a dependency or an unmanaged Subscription), or give ${owners} its own namespace`,
  );
}

/**
 * The pinned (Manual) Subscriptions of the namespace when `plan` is Manual only because of them: it
 * carries nothing but CSVs of Subscriptions that ask for Automatic approval. OLM makes every
 * InstallPlan of a namespace Manual as soon as one Subscription there is Manual, so such a plan waits
 * for an approval nobody gives. Empty otherwise.
 */
function manualPins(
  plan: InstallPlanLike,
  strays: readonly PlanCSV[],
  ctx: Pick<ApprovalInput, 'subscriptions' | 'wanted'>,
): string[] {
  const isManual = (s: SubscriptionLike) => s.spec.installPlanApproval === 'Manual';
  if (plan.spec.approval !== 'Manual') return [];
  const automatic = strays.every((c) => {
    const owner = ctx.subscriptions.find((s) => s.metadata.name === c.owner);
    return owner !== undefined && !isManual(owner);
  });
  if (!automatic) return [];
  return ctx.subscriptions
    .filter((s) => isManual(s) && ctx.wanted.has(s.metadata.name))
    .map((s) => s.metadata.name)
    .sort();
}

/** Marks the CSVs that wanted CSVs (or their dependencies, transitively) declare as dependencies. */
function withDependencies(
  csvs: readonly PlanCSV[],
  ctx: Pick<ApprovalInput, 'wanted' | 'dependencies'>,
): PlanCSV[] {
  const lookup = ctx.dependencies;
  const out = [...csvs];
  if (!lookup) return out;
  for (let changed = true; changed;) {
    changed = false;
    const declarers = out.filter((c) => c.wanted || c.dependencyOf !== undefined).map((c) => c.csv);
    out.forEach((c, i) => {
      if (c.wanted || c.dependencyOf !== undefined || (c.owner !== undefined && ctx.wanted.has(c.owner)))
        return;
      const by = lookup(c.csv, declarers);
      if (by !== undefined) {
        out[i] = { ...c, dependencyOf: by };
        changed = true;
      }
    });
  }
  return out;
}

function attribute(csv: string, ctx: Pick<ApprovalInput, 'subscriptions' | 'wanted'>): PlanCSV {
  for (const sub of ctx.subscriptions) {
    if (ctx.wanted.get(sub.metadata.name)?.has(csv)) return { csv, owner: sub.metadata.name, wanted: true };
  }
  const current = ctx.subscriptions.find((s) => s.status?.currentCSV === csv);
  return { csv, owner: current?.metadata.name, wanted: false };
}
