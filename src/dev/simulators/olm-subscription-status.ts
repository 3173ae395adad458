import type { K8sObject } from '../../core/object.js';
import { sameJson } from './json.js';

/**
 * Pure transitions of a Subscription's `status`, ported from OLM's catalog operator
 * (operator-lifecycle-manager `pkg/controller/operators/catalog/subscription/state.go` and
 * `operator.go`). Each takes the status and returns the next one; the caller writes it when it
 * differs, stamping `lastUpdated`.
 */

interface SubscriptionCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

export interface ObjectReference {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string;
  resourceVersion: string;
  uid: string;
}

/** `status.catalogHealth[]`: one CatalogSource OLM can resolve from, and whether it serves. */
export interface CatalogHealth {
  catalogSourceRef: ObjectReference;
  healthy: boolean;
  lastUpdated: string;
}

export interface SubscriptionStatus {
  catalogHealth?: CatalogHealth[];
  conditions?: SubscriptionCondition[];
  currentCSV?: string;
  installedCSV?: string;
  installPlanGeneration?: number;
  installPlanRef?: ObjectReference;
  installplan?: { apiVersion: string; kind: string; name: string; uuid: string };
  lastUpdated?: string;
  state?: string;
  [field: string]: unknown;
}

export function conditionOf(status: SubscriptionStatus, type: string): SubscriptionCondition | undefined {
  return status.conditions?.find((c) => c.type === type);
}

/** `SetCondition`: replaces the condition of that type in place, or appends it. */
export function setCondition(status: SubscriptionStatus, cond: SubscriptionCondition): void {
  const conditions = status.conditions ?? [];
  const i = conditions.findIndex((c) => c.type === cond.type);
  if (i >= 0) conditions[i] = cond;
  else conditions.push(cond);
  status.conditions = conditions;
}

/** `RemoveConditions`. */
export function removeConditions(status: SubscriptionStatus, ...types: string[]): void {
  if (!status.conditions) return;
  status.conditions = status.conditions.filter((c) => !types.includes(c.type));
  if (status.conditions.length === 0) delete status.conditions;
}

/** `SubscriptionCondition.Equals`: type, status, reason and message (not the time). */
export function sameCondition(
  a: SubscriptionCondition | undefined,
  b: SubscriptionCondition | undefined,
): boolean {
  return (
    !!a &&
    !!b &&
    a.type === b.type &&
    a.status === b.status &&
    (a.reason ?? '') === (b.reason ?? '') &&
    (a.message ?? '') === (b.message ?? '')
  );
}

/**
 * The `CatalogSourcesUnhealthy` condition and `catalogHealth` list (`catalogHealthState.UpdateHealth`):
 * True with `UnhealthyCatalogSourceFound` when the targeted CatalogSource is missing or any source is
 * unhealthy; False with `AllCatalogSourcesHealthy` otherwise, except that a change in the number of
 * sources says `CatalogSourcesAdded`/`CatalogSourcesDeleted` (so a first status says
 * `CatalogSourcesAdded`, and the next pass settles on `AllCatalogSourcesHealthy`, as real dumps show).
 */
export function withCatalogHealth(
  current: SubscriptionStatus,
  target: { source: string; sourceNamespace: string },
  health: readonly CatalogHealth[],
  now: string,
): SubscriptionStatus {
  const out = structuredClone(current);
  const previous = conditionOf(current, 'CatalogSourcesUnhealthy');
  const cond: SubscriptionCondition = {
    ...(previous ?? { type: 'CatalogSourcesUnhealthy', status: 'Unknown' }),
  };
  let healthy = true;
  let missingTargeted = true;
  for (const h of health) {
    healthy = healthy && h.healthy;
    const ref = h.catalogSourceRef;
    if (ref.namespace === target.sourceNamespace && ref.name === target.source) {
      missingTargeted = false;
      if (!h.healthy) cond.message = `targeted catalogsource ${ref.namespace}/${ref.name} unhealthy`;
    }
  }
  if (missingTargeted)
    cond.message = `targeted catalogsource ${target.sourceNamespace}/${target.source} missing`;
  if (missingTargeted || !healthy) {
    cond.status = 'True';
    cond.reason = 'UnhealthyCatalogSourceFound';
  } else {
    cond.status = 'False';
    cond.reason = 'AllCatalogSourcesHealthy';
    cond.message = 'all available catalogsources are healthy';
  }
  const old = current.catalogHealth ?? [];
  let update = true;
  if (health.length > old.length) cond.reason = 'CatalogSourcesAdded';
  else if (health.length < old.length) cond.reason = 'CatalogSourcesDeleted';
  else if (health.length === 0) {
    // OLM rewrites this condition on every pass here; the simulator writes it only when it changes.
    cond.reason = 'NoCatalogSourcesFound';
    cond.message = 'dependency resolution requires at least one catalogsource';
    update = false;
  } else {
    const byUid = new Map(health.map((h) => [h.catalogSourceRef.uid, h]));
    if (old.some((o) => byUid.get(o.catalogSourceRef.uid)?.healthy !== o.healthy))
      cond.reason = 'CatalogSourcesUpdated';
    update = false;
  }
  if (!update && sameCondition(cond, previous)) return current;
  cond.lastTransitionTime = now;
  setCondition(out, cond);
  out.catalogHealth = structuredClone([...health]);
  return out;
}

/** The parts of an InstallPlan's status a Subscription projects. */
interface InstallPlanView {
  phase: string;
  conditions: { type: string; status: string; reason?: string; message?: string }[];
}

/**
 * `InstallPlanPending`, `InstallPlanFailed` and `InstallPlanMissing` from the referenced InstallPlan
 * (`CheckInstallPlanStatus`, `InstallPlanNotFound`). Pending carries the plan's phase as reason
 * (`RequiresApproval`, `Installing`); a vanished plan of a pending upgrade clears the reference,
 * of an installed one raises `InstallPlanMissing` (plans are garbage collected). A condition that
 * did not change keeps its `lastTransitionTime`.
 */
export function withInstallPlanState(
  current: SubscriptionStatus,
  plan: InstallPlanView | undefined,
  now: string,
): SubscriptionStatus {
  if (!current.installPlanRef) return current;
  const out = structuredClone(current);
  if (!plan) {
    removeConditions(out, 'InstallPlanPending', 'InstallPlanFailed');
    if (current.state === 'UpgradePending') {
      delete out.installPlanRef;
      delete out.installplan;
      delete out.currentCSV;
      delete out.state;
    } else {
      keepTime(
        out,
        current,
        { type: 'InstallPlanMissing', status: 'True', reason: 'ReferencedInstallPlanNotFound' },
        now,
      );
    }
    return out;
  }
  removeConditions(out, 'InstallPlanMissing', 'InstallPlanPending', 'InstallPlanFailed');
  const installed = plan.conditions.find((c) => c.type === 'Installed');
  const message =
    installed && installed.status !== 'Unknown' && installed.message ? installed.message : undefined;
  const withMessage = (c: SubscriptionCondition): SubscriptionCondition => (message ? { ...c, message } : c);
  switch (plan.phase) {
    case '':
    case 'Planning':
    case 'Installing':
    case 'RequiresApproval':
      keepTime(
        out,
        current,
        withMessage({
          type: 'InstallPlanPending',
          status: 'True',
          reason: plan.phase || 'InstallPlanNotYetReconciled',
        }),
        now,
      );
      break;
    case 'Failed':
      keepTime(
        out,
        current,
        withMessage({
          type: 'InstallPlanFailed',
          status: 'True',
          reason: installed?.status === 'False' && installed.reason ? installed.reason : 'InstallPlanFailed',
        }),
        now,
      );
      break;
    default:
      break;
  }
  return out;
}

function keepTime(
  out: SubscriptionStatus,
  before: SubscriptionStatus,
  cond: SubscriptionCondition,
  now: string,
): void {
  const previous = conditionOf(before, cond.type);
  setCondition(out, {
    ...cond,
    lastTransitionTime: sameCondition(previous, cond) ? (previous?.lastTransitionTime ?? now) : now,
  });
}

/**
 * `ensureSubscriptionCSVState`: with a `currentCSV` whose CSV exists the state is `AtLatestKnown`
 * and `installedCSV` follows; without the CSV it is `UpgradePending`. Changes nothing when the state
 * is already right (OLM then also leaves `installedCSV` as it is).
 */
export function withCsvState(current: SubscriptionStatus, csvExists: boolean): SubscriptionStatus {
  if (!current.currentCSV) return current;
  const state = csvExists ? 'AtLatestKnown' : 'UpgradePending';
  if (current.state === state) return current;
  return { ...structuredClone(current), state, ...(csvExists ? { installedCSV: current.currentCSV } : {}) };
}

/** `setIPReference`: points the Subscription at its new InstallPlan, in state `UpgradePending`. */
export function withInstallPlanRef(
  current: SubscriptionStatus,
  ref: ObjectReference,
  generation: number,
  currentCSV: string,
): SubscriptionStatus {
  return {
    ...structuredClone(current),
    currentCSV,
    installPlanRef: ref,
    installplan: { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uuid: ref.uid },
    state: 'UpgradePending',
    installPlanGeneration: generation,
  };
}

/** True when two statuses differ in anything but `lastUpdated`. */
export function statusChanged(before: SubscriptionStatus, after: SubscriptionStatus): boolean {
  const { lastUpdated: _a, ...a } = before;
  const { lastUpdated: _b, ...b } = after;
  return !sameJson(a, b);
}

/** The status of a Subscription object (empty when OLM has not written one). */
export function subscriptionStatus(sub: K8sObject): SubscriptionStatus {
  return structuredClone((sub.status as SubscriptionStatus | undefined) ?? {});
}
