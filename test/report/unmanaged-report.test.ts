import { describe, expect, it } from 'vitest';
import { idOfRef, type ObjectRef } from '../../src/core/object-id.js';
import type { DriftItem } from '../../src/plan/drift.js';
import type { UnmanagedReport } from '../../src/plan/unmanaged.js';
import { DriftReport } from '../../src/report/drift-report.js';
import { nextStatus, SyncStatus } from '../../src/report/sync-status.js';
import { UNMANAGED_ROWS } from '../../src/report/unmanaged-report.js';

const ref = (namespace: string, kind: string, name: string): ObjectRef => ({
  group: '',
  kind,
  namespace,
  name,
});
const objects = (n: number, namespace = 'shop', kind = 'ConfigMap') =>
  Array.from({ length: n }, (_, i) => {
    const r = ref(namespace, kind, `cm-${String(i).padStart(3, '0')}`);
    return { id: idOfRef(r), ref: r };
  });

function report(over: Partial<UnmanagedReport> = {}): UnmanagedReport {
  const listed = [...objects(2), ...objects(1, 'web', 'Secret')];
  return {
    failOn: false,
    objects: listed,
    total: listed.length,
    counts: [
      { namespace: 'shop', kind: 'ConfigMap', count: 2 },
      { namespace: 'web', kind: 'Secret', count: 1 },
    ],
    unread: [],
    ...over,
  };
}
const missing: DriftItem = {
  id: 'shop_gone__ConfigMap',
  ref: ref('shop', 'ConfigMap', 'gone'),
  type: 'missing',
  fields: [],
};

describe('the unmanaged section of the drift report', () => {
  it('is absent unless asked for: the table, JSON and Markdown say nothing of it', () => {
    const r = new DriftReport('p', 'dev', []);
    expect(r.toTable()).toBe('No drift: p/dev matches git.');
    expect(r.toJSON()).not.toHaveProperty('unmanaged');
    expect(r.toJSON().summary).not.toHaveProperty('unmanaged');
  });

  it('lists them as information under "No drift", with counts per namespace and kind', () => {
    const lines = new DriftReport('p', 'dev', []).withUnmanaged(report()).toTable().split('\n');
    expect(lines[0]).toBe('No drift: p/dev matches git.');
    expect(lines[2]).toBe(
      'Unmanaged: 3 object(s) in managed namespaces that Groundwork did not apply; informational, never drift (groundwork.yaml unmanaged.failOn would make them so).',
    );
    expect(lines.slice(3, 6)).toEqual([
      'NAMESPACE  KIND       COUNT',
      'shop       ConfigMap  2',
      'web        Secret     1',
    ]);
    expect(lines).toContain('web        Secret     cm-000');
  });

  it('keeps them out of the drift counts and verdict', () => {
    const r = new DriftReport('p', 'dev', [missing]).withUnmanaged(report());
    expect(r.drifted).toBe(true);
    expect(r.summary).toEqual({ drifted: 1, missing: 1, modified: 0, extra: 0, unmanaged: 3 });
    expect(new DriftReport('p', 'dev', []).withUnmanaged(report()).drifted).toBe(false);
  });

  it('names at most UNMANAGED_ROWS in the table and Markdown, and says how many more', () => {
    const many = objects(UNMANAGED_ROWS + 7);
    const r = new DriftReport('p', 'dev', []).withUnmanaged(
      report({
        objects: many,
        total: many.length,
        counts: [{ namespace: 'shop', kind: 'ConfigMap', count: many.length }],
      }),
    );
    const table = r.toTable().split('\n');
    expect(table.filter((l) => l.startsWith('shop '))).toHaveLength(UNMANAGED_ROWS);
    expect(table).toContain('… and 7 more (--output json lists up to 2000 by name)');
    expect(
      r
        .toMarkdown()
        .split('\n')
        .filter((l) => l.startsWith('| `shop`')),
    ).toHaveLength(UNMANAGED_ROWS);
    expect(r.toJSON().unmanaged!.objects).toHaveLength(UNMANAGED_ROWS + 7);
  });

  it('says when they count as drift, and names the lists it could not read', () => {
    const r = new DriftReport('p', 'dev', []).withUnmanaged(
      report({
        failOn: true,
        unread: [{ kind: 'Secret', namespace: 'shop', reason: 'not listed: forbidden\nby RBAC' }],
      }),
    );
    const text = r.toTable();
    expect(text).toContain('counted as drift (extra), as groundwork.yaml asks (unmanaged.failOn)');
    expect(text).toContain('not read: Secret in shop: not listed: forbidden by RBAC');
    expect(r.toJSON().unmanaged).toMatchObject({ failOn: true, count: 3, unread: [{ kind: 'Secret' }] });
  });

  it('never cuts names without a width (a pipe, a CI log), and fits a narrow terminal', () => {
    const long = 'a-rather-long-configmap-name-that-goes-on-and-on-for-seventy-characters';
    const item: DriftItem = {
      id: 'x',
      ref: ref('ns', 'ConfigMap', long),
      type: 'modified',
      fields: [{ path: '/data/some-long-key-name-in-the-data', expected: 'a', actual: 'b' }],
    };
    const whole = new DriftReport('p', 'dev', [item]).toTable();
    expect(whole).toContain(`ConfigMap/ns/${long}`);
    expect(whole).toContain('/data/some-long-key-name-in-the-data');
    expect(whole).not.toContain('…');
    const narrow = new DriftReport('p', 'dev', [item]).toTable({ width: 80 }).split('\n');
    expect(narrow.slice(1, 3).every((l) => l.length <= 80)).toBe(true);
  });
});

describe('status.unmanaged', () => {
  const event = (u: UnmanagedReport | undefined) => ({
    type: 'reconciled' as const,
    at: new Date(Date.UTC(2025, 0, 1)),
    generation: 1,
    revision: 'main@sha1:1111111111111111111111111111111111111111',
    applied: true,
    inventory: { objects: 1 },
    health: { status: 'Healthy', reason: 'AllHealthy' } as const,
    drift: new DriftReport('p', 'dev', []).withUnmanaged(u),
  });

  it('holds the count and the counts per namespace and kind, and leaves the sync Ready', () => {
    const s = nextStatus(undefined, event(report()));
    expect(s.value.unmanaged).toEqual({ count: 3, failOn: false, counts: report().counts });
    expect(s.condition('Ready')?.status).toBe('True');
    expect(s.toString()).toContain('unmanaged: 3 (informational): shop ConfigMap 2, web Secret 1');
    // What the agent writes reads back.
    expect(SyncStatus.parse(JSON.parse(JSON.stringify(s.value))).value.unmanaged).toEqual(s.value.unmanaged);
  });

  it('keeps at most 20 counts, and is cleared when the report is no longer asked for', () => {
    const counts = Array.from({ length: 30 }, (_, i) => ({
      namespace: `ns-${i}`,
      kind: 'ConfigMap',
      count: 1,
    }));
    const s = nextStatus(undefined, event(report({ counts, total: 30 })));
    expect(s.value.unmanaged?.counts).toHaveLength(20);
    expect(s.value.unmanaged?.count).toBe(30);
    expect(nextStatus(s, event(undefined)).value.unmanaged).toBeUndefined();
  });
});
