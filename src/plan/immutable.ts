/**
 * The apiserver's words for a change to an immutable field (a Deployment's selector, a Job's
 * template, a Service's clusterIP, ...), as they appear in a 422 `Invalid` status.
 */
const IMMUTABLE = /immutable|may not be changed|updates to .* are forbidden/i;

/** True for a 422 whose message says a field is immutable. */
export function isImmutableStatus(status: number | undefined, message: string): boolean {
  return status === 422 && IMMUTABLE.test(message);
}

/** True for a dry-run problem that is an immutable-field refusal. */
export function isImmutableProblem(problem: { code: string; message: string }): boolean {
  return problem.code === 'Invalid' && IMMUTABLE.test(problem.message);
}

/** The hint that leads every immutable-field message. */
export const RECREATE_HINT =
  'annotate groundwork.io/on-immutable: recreate to delete and re-create it, or rename the object';

/**
 * The server's immutable-field message without the Go struct dumps it carries (a selector prints
 * as `v1.LabelSelector{MatchLabels:map[string]string{...}}`, kilobytes for a pod template), cut to
 * `max` characters: what a person needs is the field.
 */
export function trimServerMessage(message: string, max = 240): string {
  const trimmed = message.replace(/Invalid value: .*?: (field is immutable)/g, 'Invalid value: …: $1');
  return trimmed.length > max ? `${trimmed.slice(0, max - 1)}…` : trimmed;
}
