import type { K8sObject } from '../core/object.js';
import { arrayAt, conditionWith, describeCondition, noStatus, specOf, statusOf, stringAt } from './fields.js';
import { verdict, type HealthVerdict } from './types.js';

/**
 * Health of an OLM InstallPlan, from `status.phase`:
 *
 * - `Healthy` (Complete) when every step was applied;
 * - `Degraded` (Failed), with the `Installed=False` condition or `status.message` as message;
 * - `Suspended` (RequiresApproval) while a `Manual` plan waits for `spec.approved: true`, or
 *   `Progressing` (Approved) once approved but before OLM moved it on;
 * - `Progressing` (Planning / Installing);
 * - `Unknown` (NoStatus / UnknownPhase) otherwise.
 *
 * It does not judge the CSVs the plan installs: each has its own verdict.
 */
export function installPlanHealth(obj: K8sObject): HealthVerdict {
  const status = statusOf(obj);
  const phase = stringAt(status, 'phase');
  if (!status || !phase) return noStatus(obj);
  const spec = specOf(obj);
  const csvs = arrayAt(spec, 'clusterServiceVersionNames').join(', ') || 'its operators';

  switch (phase) {
    case 'Complete':
      return verdict('Healthy', 'Complete', `installed ${csvs}`);
    case 'Failed': {
      const installed = conditionWith(obj, 'Installed', 'False');
      const detail = installed ? describeCondition(installed) : (stringAt(status, 'message') ?? 'no details');
      return verdict('Degraded', 'Failed', `installing ${csvs} failed: ${detail}`);
    }
    case 'RequiresApproval':
      return spec.approved === true
        ? verdict('Progressing', 'Approved', `approved; OLM will install ${csvs}`)
        : verdict(
            'Suspended',
            'RequiresApproval',
            `waits for manual approval (spec.approved: true) to install ${csvs}`,
          );
    case 'Planning':
    case 'Installing':
      return verdict('Progressing', phase, `${phase.toLowerCase()} ${csvs}`);
    default:
      return verdict('Unknown', 'UnknownPhase', `unknown install plan phase ${phase}`);
  }
}
