import { z } from 'zod';
import type { KubeClient } from '../cluster/client.js';
import { ClusterResponseInvalidError } from '../cluster/response-body.js';
import { formatIssues } from '../core/zod-issues.js';
import { HUB_PATHS, MEMBER_NAME } from './hub-names.js';
import type { HubFleetRow } from './fleet-row.js';
import { memberReportSchema } from './member-schema.js';
import { count, dnsLabel, revision, time } from './schema-parts.js';

// `fleet status --hub` at a thousand members: the full LIST is about 3.5 KB per member (the
// report, and managedFields the apiserver always sends and cannot leave out), so the apiserver
// encodes, and the CLI reads and parses, megabytes to print eight short columns. Asked as a Table
// (`Accept: application/json;as=Table`, `includeObject=None`), the apiserver answers with the
// FleetMember CRD's printer columns only (`hubCrds`): about 300 B per member, no managedFields.

/** The printer columns of the FleetMember CRD that a row is read from (`hubCrds` declares them). */
export const FLEET_TABLE_COLUMNS = {
  name: 'Name',
  environment: 'Environment',
  overlay: 'Overlay',
  revision: 'Revision',
  ready: 'Ready',
  reason: 'Reason',
  drift: 'Drift',
  reachability: 'Reachability',
  lastSeen: 'LastSeen',
} as const;

/**
 * Members per page (about 1.5 MB at most): a fleet of up to 5,000 members (a rollout's bound) is
 * one request; on a loaded hub every further page is another round trip and another read.
 */
export const FLEET_TABLE_PAGE = 5000;
/** Pages read at most (a million members): a hub that keeps answering `continue` is cut off. */
const MAX_PAGES = 2000;

const report = memberReportSchema.shape;
const none = z.null().transform(() => undefined);
/** Each cell as the report's own schema bounds it; a missing value is `null` in a Table. */
const cellSchemas = {
  name: z.string().regex(MEMBER_NAME),
  environment: dnsLabel.or(none),
  overlay: report.overlay.unwrap().or(none),
  revision: revision.or(none),
  ready: report.ready.shape.status.or(none),
  reason: report.ready.shape.reason.or(none),
  drift: count().or(none),
  reachability: z.enum(['Reachable', 'Unreachable', 'Unknown']).or(none),
  lastSeen: time.or(none),
} as const;

const tableSchema = z.looseObject({
  metadata: z.looseObject({ continue: z.string().max(4096).optional() }).optional(),
  columnDefinitions: z.array(z.looseObject({ name: z.string().max(256) })).max(64),
  rows: z.array(z.looseObject({ cells: z.array(z.unknown()).max(64) })).max(100_000),
});

/**
 * The rows of one Table page of FleetMembers, or `undefined` when the Table lacks one of
 * `FLEET_TABLE_COLUMNS` (a hub installed by an older version) or is no Table (a server or proxy that
 * ignored the Accept header): the caller falls back to the full LIST. Each cell is checked with the report's schema; a row with a cell that does not parse says
 * `report unreadable` (`reportProblem`), the others are kept; a row without a valid name is
 * dropped. A Table of the wrong shape is `ClusterResponseInvalid`. Pure.
 */
export function readFleetTable(table: unknown): { rows: HubFleetRow[]; continue?: string } | undefined {
  if ((table as { kind?: unknown } | null)?.kind !== 'Table') return undefined;
  const parsed = tableSchema.safeParse(table);
  if (!parsed.success)
    throw new ClusterResponseInvalidError('GET fleetmembers (Table)', formatIssues(parsed.error.issues));
  const t = parsed.data;
  const names = t.columnDefinitions.map((c) => c.name);
  const at = Object.fromEntries(
    Object.entries(FLEET_TABLE_COLUMNS).map(([k, column]) => [k, names.indexOf(column)]),
  ) as Record<keyof typeof FLEET_TABLE_COLUMNS, number>;
  if (Object.values(at).some((i) => i < 0)) return undefined;
  const rows: HubFleetRow[] = [];
  for (const { cells } of t.rows) {
    const name = cellSchemas.name.safeParse(cells[at.name]);
    if (!name.success) continue;
    const values: Record<string, unknown> = {};
    const problems: string[] = [];
    for (const key of Object.keys(cellSchemas) as (keyof typeof cellSchemas)[]) {
      const parsed = cellSchemas[key].safeParse(cells[at[key]] ?? null);
      if (parsed.success) values[key] = parsed.data;
      else problems.push(key);
    }
    const v = values as Partial<Record<keyof typeof cellSchemas, string | number>>;
    rows.push({
      member: name.data,
      ...(typeof v.environment === 'string' ? { environment: v.environment } : {}),
      ...(typeof v.overlay === 'string' ? { overlay: v.overlay } : {}),
      ...(typeof v.revision === 'string' ? { revision: v.revision } : {}),
      ready: typeof v.ready === 'string' ? v.ready : 'Unknown',
      ...(typeof v.reason === 'string' ? { reason: v.reason } : {}),
      ...(typeof v.drift === 'number' ? { drift: v.drift } : {}),
      reachability: typeof v.reachability === 'string' ? v.reachability : 'Unknown',
      ...(typeof v.lastSeen === 'string' ? { lastSeen: v.lastSeen } : {}),
      ...(problems.length ? { reportProblem: `unreadable: ${problems.join(', ')}` } : {}),
    });
  }
  return { rows, ...(t.metadata?.continue ? { continue: t.metadata.continue } : {}) };
}

/**
 * Every FleetMember's row, read as Table pages of `FLEET_TABLE_PAGE` (`labelSelector` narrows
 * them), unsorted; `undefined` when the hub's CRD lacks the columns (the caller lists in full).
 * Errors of the request (404: no CRD) are the caller's.
 */
export async function listFleetTable(
  client: KubeClient,
  labelSelector?: string,
): Promise<HubFleetRow[] | undefined> {
  const rows: HubFleetRow[] = [];
  let next: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const table = await client.request('GET', HUB_PATHS.fleetMembers, {
      query: {
        includeObject: 'None',
        limit: FLEET_TABLE_PAGE,
        ...(labelSelector ? { labelSelector } : {}),
        ...(next ? { continue: next } : {}),
      },
      headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io, application/json' },
      schema: z.unknown(),
    });
    const read = readFleetTable(table);
    if (!read) return undefined;
    rows.push(...read.rows);
    if (!read.continue) return rows;
    next = read.continue;
  }
  return rows;
}
