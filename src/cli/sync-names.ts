import { GroundworkError } from '../core/errors.js';
import { nameProblem } from '../core/object-name.js';

/**
 * Refuses a `--namespace` or `--sync` that is not a Kubernetes object name (a DNS-1123 label and
 * subdomain, by `nameProblem`) before any request: they are names, never paths. The error gives
 * the length, never the value. Shared by `groundwork sync` and `groundwork ui`.
 */
export function checkSyncNames(flags: { namespace?: string | undefined; sync?: string | undefined }): void {
  for (const [flag, value, rule] of [
    ['--namespace', flags.namespace, 'dns-label'],
    ['--sync', flags.sync, 'dns-subdomain'],
  ] as const)
    if (value !== undefined && nameProblem(value, rule) !== undefined)
      throw new GroundworkError({
        code: 'InvalidFlag',
        subject: flag,
        message: `not a Kubernetes object name (${value.length} characters)`,
        fix: 'pass the name as kubectl get psync -A shows it',
      });
}
