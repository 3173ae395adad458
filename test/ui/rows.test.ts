import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../src/core/object.js';
import { driftRows } from '../../src/ui/drift-rows.js';
import { filterRows, objectRows } from '../../src/ui/object-rows.js';

const secret: K8sObject = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: {
    name: 'db',
    namespace: 'shop',
    managedFields: [
      { manager: 'kubectl-edit', operation: 'Update', fieldsV1: { 'f:data': { 'f:password': {} } } },
    ],
  },
  data: { password: 'aHVudGVyMg==' },
};
const ns: K8sObject = {
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'shop' },
  status: { phase: 'Active' },
};
const ids = ['_shop__Namespace', 'shop_db__Secret', 'shop_web_apps_Deployment', 'not-an-id'];
const live = (id: string) =>
  id === 'shop_db__Secret'
    ? secret
    : id === '_shop__Namespace'
      ? ns
      : id.includes('Deployment')
        ? ('absent' as const)
        : ('unknown' as const);

describe('objectRows', () => {
  it('gives each inventory entry its stage and verdict, in apply order', () => {
    const rows = objectRows(ids, live);
    expect(rows.map((r) => [r.ref.kind, r.stage, r.health.status])).toEqual([
      ['Namespace', 'namespaces', 'Healthy'],
      ['Secret', 'resources', 'Healthy'],
      ['Deployment', 'resources', 'Missing'],
    ]);
  });

  it('filters by kind, namespace, health and text', () => {
    const rows = objectRows(ids, live);
    expect(filterRows(rows, { health: 'Missing' }).map((r) => r.ref.name)).toEqual(['web']);
    expect(filterRows(rows, { text: 'DB' }).map((r) => r.ref.name)).toEqual(['db']);
    expect(filterRows(rows, { kind: 'Namespace', namespace: '' })).toHaveLength(1);
  });
});

describe('driftRows', () => {
  it("shows a Secret's drifted value as a keyed hash, never the value, and who wrote it", () => {
    const rows = driftRows(
      {
        drifted: 1,
        missing: 0,
        modified: 1,
        extra: 0,
        items: [{ object: 'Secret/shop/db', type: 'modified', fields: ['/data/password'] }],
      },
      ids,
      (id) => (id === 'shop_db__Secret' ? secret : undefined),
    );
    expect(rows[0]!.id).toBe('shop_db__Secret');
    expect(rows[0]!.fields[0]!.live).toMatch(/^"<redacted hmac:[0-9a-f]+>"$/);
    expect(JSON.stringify(rows)).not.toContain('aHVudGVyMg');
    expect(rows[0]!.fields[0]!.managers).toEqual(['kubectl-edit']);
  });

  it('survives a path that is not a JSON pointer', () => {
    const rows = driftRows(
      {
        drifted: 1,
        missing: 0,
        modified: 1,
        extra: 0,
        items: [{ object: 'Secret/shop/db', type: 'modified', fields: ['spec'] }],
      },
      ids,
      () => secret,
    );
    expect(rows[0]!.fields[0]).toEqual({ path: 'spec', live: undefined, managers: [] });
  });
});
