import type { DriftStatus, SyncStatusJson } from './sync-status-schema.js';

/**
 * Revision, inventory, health, drift (with its items indented), pending waits, the cluster update
 * path and the operator pins (their steps and InstallPlans indented), one per line.
 */
export function factLines(s: SyncStatusJson, code: (text: string) => string): string[] {
  const lines = [
    `revision: applied ${code(s.lastAppliedRevision ?? '-')}, attempted ${code(s.lastAttemptedRevision ?? '-')}`,
  ];
  if (s.inventory) lines.push(`inventory: ${inventoryText(s.inventory)}`);
  if (s.health) lines.push(`health: ${s.health.status} (${s.health.reason})`);
  lines.push(`drift: ${driftText(s.drift)}`);
  for (const i of s.drift?.items ?? [])
    lines.push(`  ${i.type} ${code(i.object)}${i.fields.length ? `: ${i.fields.map(code).join(', ')}` : ''}`);
  if (s.unmanaged) lines.push(unmanagedText(s.unmanaged, code));
  for (const p of s.pending ?? []) lines.push(`pending (${p.stage}): ${p.message.replace(/\n/g, ' ')}`);
  if (s.clusterUpdate) lines.push(...clusterUpdateLines(s.clusterUpdate, code));
  for (const p of s.operatorPins ?? [])
    lines.push(
      `pin ${code(p.subscription)}: ${code(p.pin)}, installed ${code(p.installed ?? '-')}`,
      ...p.installPlans.map(
        (ip) => `  ${code(ip.name)}: ${ip.decision} (${ip.reason}): ${oneLine(ip.message)}`,
      ),
    );
  if (s.suspended) lines.push(suspendedText(s.suspended));
  if (s.lastReconcileTime) lines.push(`last reconcile: ${s.lastReconcileTime}`);
  return lines;
}

function inventoryText(inv: NonNullable<SyncStatusJson['inventory']>): string {
  const stages = Object.entries(inv.byStage ?? {}).map(([stage, n]) => `${stage} ${n}`);
  return `${inv.objects} objects${stages.length ? ` (${stages.join(', ')})` : ''}`;
}

export function driftText(d: DriftStatus | undefined): string {
  if (!d || d.drifted === 0) return 'none';
  return `${d.drifted} drifted (${d.missing} missing, ${d.modified} modified, ${d.extra} extra)`;
}

/** `unmanaged: 3 (informational): ns ConfigMap 2, ns Secret 1`; `counted as drift` when failOn. */
export function unmanagedText(
  u: NonNullable<SyncStatusJson['unmanaged']>,
  code: (t: string) => string,
): string {
  const how = u.failOn ? 'counted as drift' : 'informational';
  const counts = u.counts.map((c) => `${code(c.namespace)} ${code(c.kind)} ${c.count}`);
  return `unmanaged: ${u.count} (${how})${counts.length ? `: ${counts.join(', ')}` : ''}`;
}

export function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** `suspended by alice since …: reason`, as status lines and the Ready message say it. */
export function suspendedText(s: NonNullable<SyncStatusJson['suspended']>): string {
  return `suspended${s.by ? ` by ${s.by}` : ''}${s.at ? ` since ${s.at}` : ''}${s.reason ? `: ${s.reason}` : ''}`;
}

/** `update: 4.8.2 -> 4.9.53, next 4.8.54: wait (UpdateInProgress): ...` and a line per step. */
function clusterUpdateLines(
  u: NonNullable<SyncStatusJson['clusterUpdate']>,
  code: (t: string) => string,
): string[] {
  const why = `${u.action}${u.reason ? ` (${u.reason})` : ''}: ${oneLine(u.message)}`;
  return [
    `update: ${code(u.current)} -> ${code(u.target)}, next ${code(u.next ?? '-')}: ${why}`,
    ...u.steps.map(
      (st) => `  ${st.state} ${code(st.from)} -> ${code(st.to)}${st.reason ? `: ${oneLine(st.reason)}` : ''}`,
    ),
    ...u.risks.map(
      (r) => `  risk ${code(r.name)} (${code(r.version)}): ${r.accepted ? 'accepted' : 'not accepted'}`,
    ),
  ];
}

function oneLine(s: string): string {
  return s.replace(/\n/g, ' ');
}
