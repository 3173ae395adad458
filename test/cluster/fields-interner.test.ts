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
});
