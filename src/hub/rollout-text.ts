import { textTable } from '../report/text-table.js';
import { printable, type FleetRolloutObject } from './rollout-schema.js';
import { byCode } from './rollout-waves.js';

// `groundwork fleet rollout status` for terminals. Pure.

const MEMBER_ROWS = 50;

/** The rollouts of the hub, one row each. */
export function rolloutsText(rollouts: readonly FleetRolloutObject[]): string {
  if (rollouts.length === 0) return 'no rollouts on the hub\n';
  const header = ['NAME', 'ENVIRONMENT', 'REVISION', 'PHASE', 'WAVE', 'CREATED'];
  const body = rollouts.map((r) => [
    r.name,
    r.spec.environment,
    r.spec.revision.slice(0, 12),
    r.spec.aborted ? 'Aborted' : (r.status?.phase ?? 'Pending'),
    r.status?.currentWave === undefined ? '-' : (r.spec.waves[r.status.currentWave]?.name ?? '-'),
    r.creationTimestamp ?? '-',
  ]);
  return `${textTable([header, ...body]).join('\n')}\n`;
}

/**
 * One rollout: what it releases, its phase (and why it halted), each wave's counts, and the
 * members that need a look (held, failed, in flight) first, at most 50 rows: `-o json` has all.
 */
export function rolloutText(r: FleetRolloutObject): string {
  const s = r.status;
  const lines = [
    `rollout ${r.name}: ${r.spec.revision.slice(0, 12)} to ${r.spec.environment} (${r.spec.ref})${r.spec.changes?.length ? `, changes ${r.spec.changes.join(', ')}` : ''}`,
    `phase: ${r.spec.aborted ? 'Aborted' : (s?.phase ?? 'Pending (the hub controller has not seen it yet)')}${r.spec.paused && s?.phase !== 'Paused' ? ' (pause asked)' : ''}`,
    ...(s?.halted ? [`halted: ${s.halted.reason} at ${s.halted.at}: ${s.halted.message}`] : []),
    ...(s?.message && !s.halted ? [s.message] : []),
    `limits: maxUnavailable ${r.spec.maxUnavailable}, maxFailures ${r.spec.maxFailures}, bake ${r.spec.bakeSeconds}s, deadline ${r.spec.progressDeadlineSeconds}s`,
    '',
  ];
  const waves = r.spec.waves.map((w, i) => {
    const ws = s?.waves?.[i];
    return [
      String(i),
      w.name,
      ws?.state ?? 'Pending',
      String(ws?.members ?? '-'),
      String(ws?.succeeded ?? '-'),
      String(ws?.failed ?? '-'),
      String(ws?.held ?? '-'),
      ws?.completedAt ?? '-',
    ];
  });
  lines.push(
    ...textTable([['#', 'WAVE', 'STATE', 'MEMBERS', 'SUCCEEDED', 'FAILED', 'HELD', 'COMPLETED'], ...waves]),
  );
  const order = { Failed: 0, Held: 1, Released: 2, Pending: 3, Succeeded: 4, Gone: 5 } as const;
  const members = [...(s?.members ?? [])].sort(
    (a, b) => order[a.state] - order[b.state] || a.wave - b.wave || byCode(a.name, b.name),
  );
  if (members.length > 0) {
    const shown = members.slice(0, MEMBER_ROWS);
    lines.push(
      '',
      ...textTable([
        ['MEMBER', 'WAVE', 'STATE', 'REASON', 'MESSAGE'],
        ...shown.map((m) => [
          m.name,
          r.spec.waves[m.wave]?.name ?? String(m.wave),
          m.state,
          m.reason ?? '-',
          m.message ?? '-',
        ]),
      ]),
    );
    if (members.length > shown.length)
      lines.push(`... and ${members.length - shown.length} more (-o json lists every member)`);
  }
  return `${lines.map(printable).join('\n')}\n`;
}
