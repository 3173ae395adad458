import { createHash } from 'node:crypto';
import type { ProposalKind } from './proposal.js';

const PREFIX: Record<ProposalKind, string> = { operator: 'operator', 'cluster-version': '', chart: 'chart' };

/**
 * The update group of a pin: a DNS label (a-z, 0-9, '-', at most 63) that names the branch
 * `groundwork/propose/<group>`. Stable across versions (a newer version updates the same pull
 * request): `openshift`, `operator-<package>`, `chart-<name>`. A subject that does not fit is
 * lowercased, other characters become '-', and a long one is cut and given a hash suffix so two
 * subjects never share a group.
 *
 * @example
 * updateGroup('operator', 'kepler-operator') // 'operator-kepler-operator'
 */
export function updateGroup(kind: ProposalKind, subject: string): string {
  if (kind === 'cluster-version') return 'openshift';
  const raw = `${PREFIX[kind]}-${subject}`;
  const label = raw
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '');
  if (label === raw && label.length <= 63) return label;
  const hash = createHash('sha256').update(raw).digest('hex').slice(0, 8);
  return `${label.slice(0, 54).replace(/-$/, '')}-${hash}`;
}
