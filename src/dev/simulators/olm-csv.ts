import type { KubeClient } from '../../cluster/client.js';
import { findCondition, type K8sObject } from '../../core/object.js';
import { PATHS, deleteOptional, list, objectPath } from './api.js';
import { sameJson } from './json.js';
import { writeStatus } from './status.js';

/** One entry of a CSV's `status.conditions`: the phase history OLM keeps (`SetPhase`). */
interface CsvCondition {
  phase: string;
  reason: string;
  message: string;
  lastTransitionTime: string;
  lastUpdateTime: string;
}

interface RequirementStatus {
  group: string;
  version: string;
  kind: string;
  name: string;
  status: string;
  message: string;
  uuid?: string;
}

interface CsvStatus {
  phase?: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  lastUpdateTime?: string;
  conditions?: CsvCondition[];
  requirementStatus?: RequirementStatus[];
  [field: string]: unknown;
}

/** What the next phase of a CSV depends on besides the CSV itself. */
interface CsvContext {
  /** Another CSV of the namespace whose `spec.replaces` names this one. */
  readonly replacement: K8sObject | undefined;
  /** CustomResourceDefinitions by name. */
  readonly crds: ReadonlyMap<string, K8sObject>;
  readonly now: string;
}

/** OLM keeps at most this many phase conditions (`TrimConditionsIfLimitExceeded`). */
const CONDITIONS_LIMIT = 20;

/**
 * One step of OLM's CSV state machine (operator-lifecycle-manager `pkg/controller/operators/olm/operator.go`,
 * `transitionCSVState`), one phase per pass so tests see each:
 *
 * - none → `Pending` (RequirementsUnknown, "requirements not yet checked");
 * - `Pending` → `InstallReady` (AllRequirementsMet) when every owned CRD exists with `Established`
 *   and `NamesAccepted`, else stays `Pending` (RequirementsNotMet) with `requirementStatus`;
 * - `InstallReady` → `Installing` (InstallSucceeded, "waiting for install components to report healthy");
 * - `Installing` → `Succeeded` (InstallSucceeded, "install strategy completed with no errors");
 * - any phase but `Replacing`/`Deleting`, when a newer CSV replaces it → `Replacing` (BeingReplaced);
 * - `Replacing` → `Deleting` (Replaced) once the replacement `Succeeded`; `Deleting` → `'delete'`.
 *
 * Returns the next status (write it when it differs from the current one) or `'delete'`. Does not run
 * deployments, webhooks, API services or operator groups: install always succeeds.
 */
export function nextCsvStatus(csv: K8sObject, ctx: CsvContext): CsvStatus | 'delete' {
  const current = (csv.status as CsvStatus | undefined) ?? {};
  const phase = current.phase ?? '';
  const set = (p: string, reason: string, message: string, extra: Partial<CsvStatus> = {}) =>
    setPhase({ ...structuredClone(current), ...extra }, p, reason, message, ctx.now);

  if (phase === 'Deleting') return 'delete';
  if (phase === 'Replacing') {
    return ctx.replacement && (ctx.replacement.status as CsvStatus | undefined)?.phase === 'Succeeded'
      ? set(
          'Deleting',
          'Replaced',
          'has been replaced by a newer ClusterServiceVersion that has successfully installed.',
        )
      : current;
  }
  if (ctx.replacement && phase !== '') {
    return set('Replacing', 'BeingReplaced', `being replaced by csv: ${ctx.replacement.metadata.name}`);
  }
  switch (phase) {
    case '':
      return set('Pending', 'RequirementsUnknown', 'requirements not yet checked');
    case 'Pending': {
      const requirements = requirementStatus(csv, ctx.crds);
      const met = requirements.every((r) => r.status === 'Present');
      return met
        ? set('InstallReady', 'AllRequirementsMet', 'all requirements found, attempting install', {
            requirementStatus: requirements,
          })
        : set('Pending', 'RequirementsNotMet', "one or more requirements couldn't be found", {
            requirementStatus: requirements,
          });
    }
    case 'InstallReady':
      return set('Installing', 'InstallSucceeded', 'waiting for install components to report healthy');
    case 'Installing':
      return set('Succeeded', 'InstallSucceeded', 'install strategy completed with no errors');
    default:
      return current;
  }
}

/**
 * `ClusterServiceVersion.SetPhase`: updates phase, reason, message and times, and appends a
 * condition when phase or reason changed. Leaves the times alone when phase, reason and message
 * are what they were.
 */
function setPhase(status: CsvStatus, phase: string, reason: string, message: string, now: string): CsvStatus {
  const unchanged = status.phase === phase && status.reason === reason && status.message === message;
  if (unchanged) return status;
  status.lastUpdateTime = now;
  if (status.phase !== phase) {
    status.phase = phase;
    status.lastTransitionTime = now;
  }
  status.message = message;
  status.reason = reason;
  const conditions = status.conditions ?? [];
  const last = conditions[conditions.length - 1];
  if (!last || last.phase !== phase || last.reason !== reason) {
    conditions.push({
      phase,
      reason,
      message,
      lastTransitionTime: status.lastTransitionTime ?? now,
      lastUpdateTime: now,
    });
  }
  status.conditions = conditions.slice(-CONDITIONS_LIMIT);
  return status;
}

/** OLM's `requirementStatus` entries for the owned CRDs (the ones it checks before installing). */
function requirementStatus(csv: K8sObject, crds: ReadonlyMap<string, K8sObject>): RequirementStatus[] {
  const owned =
    (csv.spec as { customresourcedefinitions?: { owned?: { name: string }[] } } | undefined)
      ?.customresourcedefinitions?.owned ?? [];
  return owned.map(({ name }) => {
    const base = { group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition', name };
    const crd = crds.get(name);
    if (!crd) return { ...base, status: 'NotPresent', message: 'CRD is not present' };
    const ok =
      findCondition(crd, 'Established')?.status === 'True' &&
      findCondition(crd, 'NamesAccepted')?.status === 'True';
    return ok
      ? {
          ...base,
          status: 'Present',
          message: 'CRD is present and Established condition is true',
          uuid: crd.metadata.uid ?? '',
        }
      : {
          ...base,
          status: 'NotAvailable',
          message: 'CRD is present but the Established condition is False (not available)',
        };
  });
}

/** One phase transition per CSV (`nextCsvStatus`), written when it changed; a `Deleting` CSV is deleted. */
export async function syncCsvPhases(
  client: KubeClient,
  csvs: readonly K8sObject[],
  now: string,
): Promise<void> {
  const crds = new Map((await list(client, PATHS.crds)).map((c) => [c.metadata.name, c]));
  for (const csv of csvs) {
    if (csv.metadata.deletionTimestamp) continue;
    const replacement = csvs.find(
      (c) =>
        c.metadata.namespace === csv.metadata.namespace &&
        (c.spec as { replaces?: string }).replaces === csv.metadata.name,
    );
    const next = nextCsvStatus(csv, { replacement, crds, now });
    const path = objectPath(PATHS.csvs(csv.metadata.namespace), csv.metadata.name);
    if (next === 'delete') await deleteOptional(client, path);
    else if (!sameJson(next, csv.status ?? {})) await writeStatus(client, path, next);
  }
}
