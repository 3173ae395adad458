import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../../src/cluster/client.js';
import { hubFleetText } from '../../src/hub/fleet-list.js';
import {
  FLEET_TABLE_COLUMNS,
  FLEET_TABLE_PAGE,
  listFleetTable,
  readFleetTable,
} from '../../src/hub/fleet-table.js';
import { hubCrds } from '../../src/hub/hub-crds.js';

const sha = 'b'.repeat(40);
const columns = Object.values(FLEET_TABLE_COLUMNS);
/** A Table page as the apiserver answers it: columns as the CRD declares them (Health, Age among them). */
const table = (
  rows: unknown[][],
  more: Record<string, unknown> = {},
  names: readonly string[] = columns,
) => ({
  kind: 'Table',
  apiVersion: 'meta.k8s.io/v1',
  metadata: { resourceVersion: '7' },
  columnDefinitions: names.map((name) => ({ name, type: 'string' })),
  rows: rows.map((cells) => ({ cells, object: null })),
  ...more,
});

describe('fleet status --hub as a Table', () => {
  it('the FleetMember CRD declares every column the rows are read from', () => {
    const fleetMembers = hubCrds().find((c) => c.metadata.name.startsWith('fleetmembers.'))!;
    const declared = (
      fleetMembers as unknown as { spec: { versions: { additionalPrinterColumns: { name: string }[] }[] } }
    ).spec.versions[0]!.additionalPrinterColumns.map((c) => c.name);
    // Name is the Table's own first column.
    expect(columns.filter((c) => c !== 'Name' && !declared.includes(c))).toEqual([]);
  });

  it('reads each row by column name, a missing value as absent', () => {
    const order = [
      'Name',
      'Environment',
      'Reachability',
      'Ready',
      'Health',
      'Revision',
      'Released',
      'Overlay',
      'Reason',
      'Drift',
      'LastSeen',
      'Age',
    ];
    const read = readFleetTable(
      table(
        [
          [
            'eu-1',
            'prod',
            'Reachable',
            'False',
            'Degraded',
            `main@sha1:${sha}`,
            null,
            'prod',
            'HealthCheckFailed',
            2,
            '2026-11-28T09:00:00Z',
            '3d',
          ],
          ['eu-2', 'prod', null, null, null, null, null, null, null, null, null, '1m'],
        ],
        {},
        order,
      ),
    );
    expect(read?.rows).toEqual([
      {
        member: 'eu-1',
        environment: 'prod',
        overlay: 'prod',
        revision: `main@sha1:${sha}`,
        ready: 'False',
        reason: 'HealthCheckFailed',
        drift: 2,
        reachability: 'Reachable',
        lastSeen: '2026-11-28T09:00:00Z',
      },
      { member: 'eu-2', environment: 'prod', ready: 'Unknown', reachability: 'Unknown' },
    ]);
    expect(read?.continue).toBeUndefined();
    expect(hubFleetText(read!.rows)).toContain('False (HealthCheckFailed)');
  });

  it('is undefined for a hub whose CRD lacks a column, or an answer that is no Table (full LIST instead)', () => {
    expect(
      readFleetTable(
        table(
          [],
          {},
          columns.filter((c) => c !== 'LastSeen'),
        ),
      ),
    ).toBeUndefined();
    expect(readFleetTable({ kind: 'FleetMemberList', items: [] })).toBeUndefined();
    expect(readFleetTable(undefined)).toBeUndefined();
  });

  it('follows continue tokens page by page, with the selector on every page', async () => {
    const asked: Record<string, unknown>[] = [];
    const pages = [
      table([['a-1', 'dev', 'Reachable', 'True', null, null, null, null, null]], {
        metadata: { continue: 'tok' },
      }),
      table([['b-1', 'dev', 'Reachable', 'True', null, null, null, null, null]]),
    ];
    const client = {
      request: (
        _m: string,
        _p: string,
        opts: { query: Record<string, unknown>; headers: Record<string, string> },
      ) => {
        asked.push({ ...opts.query, accept: opts.headers.Accept });
        return Promise.resolve(pages[asked.length - 1]);
      },
    } as unknown as KubeClient;
    const rows = await listFleetTable(client, 'region=eu');
    expect(rows?.map((r) => r.member)).toEqual(['a-1', 'b-1']);
    expect(asked).toMatchObject([
      {
        labelSelector: 'region=eu',
        includeObject: 'None',
        limit: FLEET_TABLE_PAGE,
        accept: expect.stringContaining('as=Table'),
      },
      { labelSelector: 'region=eu', continue: 'tok' },
    ]);
    expect(asked[0]).not.toHaveProperty('continue');
  });
});
