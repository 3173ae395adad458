import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FieldsInterner } from '../../src/cluster/fields-interner.js';
import type { K8sObject } from '../../src/core/object.js';

const live = (name: string, fieldsV1: Record<string, unknown>, time = '2026-11-28T10:00:00Z'): K8sObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name,
    namespace: 'bench',
    managedFields: [
      { manager: 'groundwork', operation: 'Apply', apiVersion: 'v1', time, fieldsType: 'FieldsV1', fieldsV1 },
    ],
  },
  data: { index: name },
});
const ownsData = () => ({ 'f:data': { 'f:index': {} }, 'f:metadata': { 'f:labels': { 'f:app': {} } } });

describe('FieldsInterner', () => {
  it('shares equal field sets between objects and leaves every value as it was', () => {
    const interner = new FieldsInterner();
    const a = interner.intern(live('a', ownsData(), '2026-11-28T10:00:00Z'));
    const b = interner.intern(live('b', ownsData(), '2026-11-28T10:00:07Z'));
    expect(a.metadata.managedFields![0]!.fieldsV1).toBe(b.metadata.managedFields![0]!.fieldsV1);
    expect(a).toEqual(live('a', ownsData(), '2026-11-28T10:00:00Z'));
    expect(b.metadata.managedFields![0]!.time).toBe('2026-11-28T10:00:07Z');
    expect(interner.size).toBe(1);
  });

  it('keeps different field sets apart', () => {
    const interner = new FieldsInterner();
    const a = interner.intern(live('a', ownsData()));
    const b = interner.intern(live('b', { 'f:data': { 'f:other': {} } }));
    expect(a.metadata.managedFields![0]!.fieldsV1).not.toBe(b.metadata.managedFields![0]!.fieldsV1);
    expect(b.metadata.managedFields![0]!.fieldsV1).toEqual({ 'f:data': { 'f:other': {} } });
    expect(interner.size).toBe(2);
  });

  it('freezes a shared set, so a writer cannot change another object through it', () => {
    const interner = new FieldsInterner();
    const a = interner.intern(live('a', ownsData()));
    const b = interner.intern(live('b', ownsData()));
    const nested = a.metadata.managedFields![0]!.fieldsV1!['f:data'] as Record<string, unknown>;
    expect(() => {
      nested['f:index'] = 'changed';
    }).toThrow(TypeError);
    expect(b.metadata.managedFields![0]!.fieldsV1).toEqual(ownsData());
  });

  it('starts over past its bound and still returns equal objects', () => {
    const interner = new FieldsInterner(2);
    for (let i = 0; i < 5; i++) interner.intern(live(`o${i}`, { [`f:k${i}`]: {} }));
    expect(interner.size).toBeLessThanOrEqual(2);
    const again = interner.intern(live('x', { 'f:k0': {} }));
    expect(again.metadata.managedFields![0]!.fieldsV1).toEqual({ 'f:k0': {} });
  });

  it('passes objects without managedFields or field sets through untouched', () => {
    const interner = new FieldsInterner();
    const bare: K8sObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' } };
    expect(interner.intern(bare)).toEqual({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' } });
    const noSet: K8sObject = {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'n', managedFields: [{ manager: 'm' }] },
    };
    expect(interner.intern(noSet).metadata.managedFields).toEqual([{ manager: 'm' }]);
    expect(interner.size).toBe(0);
  });
  it('shares equal managedFields lists whole, frozen, and keeps lists that differ in any value apart', () => {
    const interner = new FieldsInterner();
    const a = interner.intern(live('a', ownsData(), '2026-11-28T10:00:00Z'));
    const b = interner.intern(live('b', ownsData(), '2026-11-28T10:00:00Z'));
    const c = interner.intern(live('c', ownsData(), '2026-11-28T10:00:07Z'));
    expect(a.metadata.managedFields).toBe(b.metadata.managedFields);
    expect(c.metadata.managedFields).not.toBe(a.metadata.managedFields);
    expect(c.metadata.managedFields![0]!.time).toBe('2026-11-28T10:00:07Z');
    expect(c.metadata.managedFields![0]!.fieldsV1).toBe(a.metadata.managedFields![0]!.fieldsV1);
    expect(() => a.metadata.managedFields!.push({ manager: 'x' })).toThrow(TypeError);
    expect(() => {
      a.metadata.managedFields![0]!.manager = 'kubectl';
    }).toThrow(TypeError);
    expect(b).toEqual(live('b', ownsData(), '2026-11-28T10:00:00Z'));
  });

  it('does not share a list with an entry of other keys or keys in another order', () => {
    const interner = new FieldsInterner();
    const a = interner.intern(live('a', ownsData()));
    const extra = live('b', ownsData());
    extra.metadata.managedFields![0]!.subresource = 'status';
    const b = interner.intern(extra);
    const reordered = live('c', ownsData());
    const [entry] = reordered.metadata.managedFields!;
    const { manager, ...rest } = entry!;
    reordered.metadata.managedFields = [{ ...rest, manager }];
    const c = interner.intern(reordered);
    expect(b.metadata.managedFields).not.toBe(a.metadata.managedFields);
    expect(b.metadata.managedFields![0]!.subresource).toBe('status');
    expect(c.metadata.managedFields).not.toBe(a.metadata.managedFields);
    expect(Object.keys(c.metadata.managedFields![0]!).at(-1)).toBe('manager');
  });

  it('shares equal labels and annotations, frozen, and leaves a long annotations map its own', () => {
    const interner = new FieldsInterner();
    const withMeta = (name: string, annotations: Record<string, string>) => {
      const o = live(name, ownsData());
      o.metadata.labels = { app: 'shop', tier: 'web' };
      o.metadata.annotations = annotations;
      return interner.intern(o);
    };
    const a = withMeta('a', { 'groundwork.io/owning-inventory': 'ns/inv' });
    const b = withMeta('b', { 'groundwork.io/owning-inventory': 'ns/inv' });
    const c = withMeta('c', { 'groundwork.io/owning-inventory': 'ns/other' });
    expect(b.metadata.labels).toBe(a.metadata.labels);
    expect(b.metadata.annotations).toBe(a.metadata.annotations);
    expect(c.metadata.annotations).not.toBe(a.metadata.annotations);
    expect(c.metadata.annotations).toEqual({ 'groundwork.io/owning-inventory': 'ns/other' });
    expect(() => {
      a.metadata.labels!.app = 'other';
    }).toThrow(TypeError);
    const long = { 'kubectl.kubernetes.io/last-applied-configuration': 'x'.repeat(2000) };
    const d = withMeta('d', { ...long });
    const e = withMeta('e', { ...long });
    expect(d.metadata.annotations).not.toBe(e.metadata.annotations);
    expect(Object.isFrozen(d.metadata.annotations)).toBe(false);
  });

  it('leaves every interned object equal to what it was, key order included (property)', () => {
    const value = fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.constant(null), fc.constant({}));
    const fieldsV1 = fc.dictionary(fc.constantFrom('f:data', 'f:spec', 'f:metadata', '.'), fc.constant({}));
    const entry = fc.record(
      {
        manager: fc.constantFrom('groundwork', 'kubectl', 'kube-controller-manager'),
        operation: fc.constantFrom('Apply', 'Update'),
        apiVersion: fc.constant('v1'),
        time: fc.constantFrom('2026-11-28T10:00:00Z', '2026-11-28T10:00:01Z'),
        fieldsType: fc.constant('FieldsV1'),
        fieldsV1,
        subresource: fc.constant('status'),
        extra: value,
      },
      { requiredKeys: ['manager'] },
    );
    const map = fc.dictionary(
      fc.constantFrom('app', 'tier', 'groundwork.io/owning-inventory'),
      fc.constantFrom('a', 'b'),
    );
    const object = fc.record(
      {
        name: fc.constantFrom('x', 'y'),
        namespace: fc.constantFrom('n1', 'n2'),
        creationTimestamp: fc.constantFrom('2026-11-28T10:00:00Z', '2026-11-28T10:00:01Z'),
        labels: map,
        annotations: map,
        managedFields: fc.array(entry, { maxLength: 3 }),
      },
      { requiredKeys: ['name'] },
    );
    fc.assert(
      fc.property(
        fc.array(object, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 8 }),
        (metas, max) => {
          const interner = new FieldsInterner(max);
          const objects = metas.map(
            (metadata) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata }) as K8sObject,
          );
          const before = objects.map((o) => JSON.stringify(o));
          const interned = objects.map((o) => interner.intern(o));
          expect(interned.map((o) => JSON.stringify(o))).toEqual(before);
          interned.forEach((o, i) => expect(o).toBe(objects[i]));
        },
      ),
      { numRuns: 300 },
    );
  });
});
