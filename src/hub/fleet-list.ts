import { z } from 'zod';
import { isNotFound } from '../cluster/api-error.js';
import type { KubeClient } from '../cluster/client.js';
import { GroundworkError } from '../core/errors.js';
import { shortRevision } from '../core/revision.js';
import { textTable } from '../report/text-table.js';
import { ANNOTATIONS, HUB_PATHS, LABELS } from './hub-names.js';
import { byEnvironmentThenName, type HubFleetRow } from './fleet-row.js';
import { listFleetTable } from './fleet-table.js';
import { readFleetMember, type FleetMemberObject } from './member-schema.js';

export type { HubFleetRow } from './fleet-row.js';

/** The rows of the members, sorted by environment then name. Pure. */
export function hubFleetRows(members: readonly FleetMemberObject[]): HubFleetRow[] {
  return members
    .map((m) => {
      const r = m.report;
      const environment = m.spec.environment ?? m.labels[LABELS.environment];
      const lastSeen = m.annotations[ANNOTATIONS.lastSeen];
      return {
        member: m.name,
        ...(environment ? { environment } : {}),
        ...(r?.overlay ? { overlay: r.overlay } : {}),
        ...(r?.revision?.applied ? { revision: r.revision.applied } : {}),
        ready: r?.ready.status ?? 'Unknown',
        ...(r ? { reason: r.ready.reason } : {}),
        ...(r?.drift ? { drift: r.drift.count } : {}),
        reachability: m.labels[LABELS.reachability] ?? 'Unknown',
        ...(lastSeen ? { lastSeen } : {}),
        ...(m.reportProblem ? { reportProblem: m.reportProblem } : {}),
      };
    })
    .sort(byEnvironmentThenName);
}

/** The rows as a text table (no cell cut: names stay whole for grep). Pure. */
export function hubFleetText(rows: readonly HubFleetRow[]): string {
  if (rows.length === 0) return 'no members registered with the hub\n';
  const header = ['MEMBER', 'ENVIRONMENT', 'OVERLAY', 'REVISION', 'READY', 'DRIFT', 'REACHABLE', 'LAST SEEN'];
  const body = rows.map((r) => [
    r.member,
    r.environment ?? '-',
    r.overlay ?? '-',
    r.revision ? shortRevision(r.revision) : '-',
    r.reportProblem
      ? 'report unreadable'
      : r.ready === 'True'
        ? 'True'
        : `${r.ready}${r.reason ? ` (${r.reason})` : ''}`,
    r.drift === undefined ? '-' : String(r.drift),
    r.reachability,
    r.lastSeen ?? '-',
  ]);
  return `${textTable([header, ...body]).join('\n')}\n`;
}

/**
 * The rows of `fleet status --hub`, sorted: read as Table pages of the CRD's printer columns
 * (`listFleetTable`: no reports, no managedFields), or, from a hub whose CRD lacks them, from the
 * full LIST (`listFleetMembers`). A hub without the CRD is `HubNotInstalled`.
 */
export async function listFleetRows(
  client: KubeClient,
  labelSelector?: string,
  subject = 'fleet status --hub',
): Promise<HubFleetRow[]> {
  const table = await hubNotInstalled(subject, () => listFleetTable(client, labelSelector));
  if (!table) return hubFleetRows(await listFleetMembers(client, labelSelector, subject));
  return table.sort(byEnvironmentThenName);
}

/**
 * Every FleetMember of the hub, in one LIST (cluster-wide; `labelSelector` narrows it). Each
 * member's report is parsed on its own (`readFleetMember`): one odd report spoils its row, not the
 * list. A hub without the CRD is `HubNotInstalled`.
 */
export async function listFleetMembers(
  client: KubeClient,
  labelSelector?: string,
  subject = 'fleet status --hub',
): Promise<FleetMemberObject[]> {
  return hubNotInstalled(subject, async () => {
    const list = await client.request('GET', HUB_PATHS.fleetMembers, {
      ...(labelSelector ? { query: { labelSelector } } : {}),
      schema: z.object({ items: z.array(z.unknown()).max(100_000) }),
    });
    return list.items.map(readFleetMember);
  });
}

/** `read`, with a 404 (the cluster serves no FleetMembers) as `HubNotInstalled`. */
async function hubNotInstalled<T>(subject: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (!isNotFound(err)) throw err;
    throw new GroundworkError({
      code: 'HubNotInstalled',
      subject,
      message: 'the cluster serves no FleetMembers (hub.groundwork.io)',
      fix: 'point --hub at the hub cluster, where groundwork hub bootstrap installed the hub',
    });
  }
}
