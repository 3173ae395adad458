import { describe, expect, it } from 'vitest';
import { hubFleetText } from '../../src/hub/fleet-list.js';
import { FLEET_TABLE_COLUMNS, readFleetTable } from '../../src/hub/fleet-table.js';

// `fleet status --hub` reads the hub's Table answer (fleet-table.ts): what the hub (or whatever
// answers in its place) sends is data, checked cell by cell with the report's own bounds.
const columns = Object.values(FLEET_TABLE_COLUMNS);
const table = (rows: unknown[][]) => ({
  kind: 'Table',
  columnDefinitions: columns.map((name) => ({ name })),
  rows: rows.map((cells) => ({ cells })),
});
const good = ['eu-1', 'prod', 'prod', null, 'True', 'Ok', 0, 'Reachable', '2026-11-28T09:00:00Z'];

describe('fleet status --hub: a hostile Table', () => {
  it('a row with a cell outside the report schema says report unreadable; the other rows stand', () => {
    const bad = [
      ['x-1', 'prod', 'a'.repeat(300), null, 'True', 'Ok', 0, 'Reachable', null], // overlay too long
      ['x-2', 'prod', 'prod', 'main@sha1:not-hex', 'True', 'Ok', 0, 'Reachable', null],
      ['x-3', 'prod', 'prod', null, 'Yes', 'Ok', 0, 'Reachable', null], // not a Ready status
      ['x-4', 'prod', 'prod', null, 'True', 'ok\u001b[2J', 0, 'Reachable', null], // control characters
      ['x-5', 'prod', 'prod', null, 'True', 'Ok', -1, 'Reachable', null],
      ['x-6', 'prod', 'prod', null, 'True', 'Ok', 0, 'Trusted', null], // not a verdict
      ['x-7', 'prod', 'prod', null, 'True', 'Ok', 0, 'Reachable', 'yesterday'],
      ['x-8', { env: 'prod' }, 'prod', null, 'True', 'Ok', 0, 'Reachable', null],
    ];
    const rows = readFleetTable(table([good, ...bad]))!.rows;
    expect(rows[0]).not.toHaveProperty('reportProblem');
    expect(rows.slice(1).map((r) => r.reportProblem)).toEqual([
      'unreadable: overlay',
      'unreadable: revision',
      'unreadable: ready',
      'unreadable: reason',
      'unreadable: drift',
      'unreadable: reachability',
      'unreadable: lastSeen',
      'unreadable: environment',
    ]);
    const text = hubFleetText(rows);
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('a'.repeat(300));
    expect(text.match(/report unreadable/g)).toHaveLength(8);
  });

  it('a row without a member name (or with one no member can have) is left out', () => {
    const rows = readFleetTable(
      table([
        good,
        ['../etc', ...good.slice(1)],
        [null, ...good.slice(1)],
        ['A'.repeat(80), ...good.slice(1)],
      ]),
    )!.rows;
    expect(rows.map((r) => r.member)).toEqual(['eu-1']);
  });

  it('a Table of the wrong shape is ClusterResponseInvalid, never a partial list', () => {
    for (const bad of [
      { kind: 'Table', columnDefinitions: 'Name', rows: [] },
      { kind: 'Table', columnDefinitions: columns.map((name) => ({ name })), rows: [{ cells: 'x' }] },
      {
        kind: 'Table',
        columnDefinitions: columns.map((name) => ({ name })),
        rows: Array(100_001).fill({ cells: [] }),
      },
    ])
      expect(() => readFleetTable(bad)).toThrow(expect.objectContaining({ code: 'ClusterResponseInvalid' }));
  });
});
