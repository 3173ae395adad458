import { verdict, worst, type HealthVerdict, type ObjectVerdict } from './types.js';

/** How many members a roll-up message names before it says "and N more". */
const NAMED = 5;

/**
 * Rolls verdicts up into one: the worst state (`HEALTH_ORDER`), the reason of the worst members when
 * they share it (else the state's name), and a message naming up to five of the worst members with
 * their messages. An empty list is `Healthy` (NothingToAssess).
 *
 * It does not weigh members: one Degraded object makes the whole Degraded.
 *
 * @example rollUp([{ subject: 'Deployment/a/b', ...deploymentHealth(obj) }]).status
 */
export function rollUp(verdicts: readonly (HealthVerdict | ObjectVerdict)[]): HealthVerdict {
  if (verdicts.length === 0) return verdict('Healthy', 'NothingToAssess', 'nothing to assess');
  const status = worst(verdicts.map((v) => v.status));
  const worstOnes = verdicts.filter((v) => v.status === status);
  if (status === 'Healthy') return verdict('Healthy', 'AllHealthy', `all ${verdicts.length} healthy`);

  const reasons = new Set(worstOnes.map((v) => v.reason));
  const reason = reasons.size === 1 ? (worstOnes[0]?.reason ?? status) : status;
  const named = worstOnes
    .slice(0, NAMED)
    .map((v) => ('subject' in v ? `${v.subject}: ${v.message}` : v.message));
  const more = worstOnes.length > NAMED ? `; and ${worstOnes.length - NAMED} more` : '';
  return verdict(
    status,
    reason,
    `${worstOnes.length} of ${verdicts.length} ${status}: ${named.join('; ')}${more}`,
  );
}
