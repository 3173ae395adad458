import { describe, expect, it } from 'vitest';
import { OWNER_ANNOTATION } from '../../src/core/annotations.js';
import type { K8sObject } from '../../src/core/object.js';
import { isOwnershipStamp, ownershipOf, withOwner } from '../../src/plan/ownership.js';
import { configMap, synthOf } from '../harness/engine.js';

const OWNER = 'groundwork-system/gw-inventory-p-dev';
const entry = (manager: string, operation: 'Apply' | 'Update', subresource?: string) => ({
  manager,
  operation,
  apiVersion: 'v1',
  fieldsType: 'FieldsV1',
  fieldsV1: {},
  ...(subresource ? { subresource } : {}),
});
const obj = (
  namespace: string,
  annotations: Record<string, string> | undefined,
  managedFields: ReturnType<typeof entry>[] = [],
): K8sObject => ({
  ...configMap(namespace, 'x', {}),
  metadata: { name: 'x', namespace, ...(annotations ? { annotations } : {}), managedFields },
});

describe('ownershipOf', () => {
  it.each([
    ['annotated with this inventory', obj('app', { [OWNER_ANNOTATION]: OWNER }), 'annotation'],
    [
      'annotated with another inventory, even if Groundwork applied it',
      obj('app', { [OWNER_ANNOTATION]: 'groundwork-system/gw-inventory-q-dev' }, [
        entry('groundwork', 'Apply'),
      ]),
      undefined,
    ],
    [
      'no annotation, applied by Groundwork (before the annotation)',
      obj('app', undefined, [entry('groundwork', 'Apply')]),
      'field-manager',
    ],
    [
      'no annotation, only updated by Groundwork',
      obj('app', undefined, [entry('groundwork', 'Update')]),
      undefined,
    ],
    [
      'no annotation, a status write by Groundwork',
      obj('app', undefined, [entry('groundwork', 'Apply', 'status')]),
      undefined,
    ],
    ['no annotation, applied by someone else', obj('app', undefined, [entry('kubectl', 'Apply')]), undefined],
    ['nothing at all', obj('default', undefined), undefined],
    [
      'in the inventory namespace only the annotation counts',
      obj('groundwork-system', undefined, [entry('groundwork', 'Apply')]),
      undefined,
    ],
    [
      'the inventory namespace itself',
      {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: 'groundwork-system', managedFields: [entry('groundwork', 'Apply')] },
      } as K8sObject,
      undefined,
    ],
  ])('%s', (_name, live, by) => {
    const o = ownershipOf(live, { owner: OWNER, fieldManager: 'groundwork' });
    expect(o.owned ? o.by : undefined).toBe(by);
    if (!o.owned) expect(o.message).toMatch(/^not pruned: /);
  });

  it('quotes and shortens a hostile annotation value in its message', () => {
    const o = ownershipOf(obj('app', { [OWNER_ANNOTATION]: `\u001b[31m${'x'.repeat(500)}` }), {
      owner: OWNER,
      fieldManager: 'groundwork',
    });
    expect(o.owned).toBe(false);
    const message = o.owned ? '' : o.message;
    expect(message).not.toContain('\u001b');
    expect(message).toContain('\\u001b[31m');
    expect(message.length).toBeLessThan(300);
  });

  it('without an owner, no annotation matches', () => {
    expect(ownershipOf(obj('app', { [OWNER_ANNOTATION]: OWNER }), { fieldManager: 'groundwork' }).owned).toBe(
      false,
    );
  });
});

describe('withOwner and isOwnershipStamp', () => {
  it('stamps every manifest, replacing a value a construct set, without touching the input', () => {
    const { manifests } = synthOf(
      [configMap('a', 'one', {}), configMap('a', 'two', {}, { [OWNER_ANNOTATION]: 'forged/x', keep: 'me' })],
      { overlay: 'dev' },
    );
    const stamped = withOwner(manifests, OWNER);
    expect(stamped.map((m) => m.object.metadata.annotations)).toEqual([
      { [OWNER_ANNOTATION]: OWNER },
      { [OWNER_ANNOTATION]: OWNER, keep: 'me' },
    ]);
    expect(stamped.map((m) => m.hash)).toEqual(manifests.map((m) => m.hash));
    expect(manifests[0]!.object.metadata.annotations).toBeUndefined();
  });

  it.each([
    [
      { path: '/metadata/annotations/groundwork.io~1owning-inventory', op: 'add' as const, after: OWNER },
      true,
    ],
    [
      {
        path: '/metadata/annotations/groundwork.io~1owning-inventory',
        op: 'replace' as const,
        before: 'x',
        after: OWNER,
      },
      true,
    ],
    [{ path: '/metadata/annotations', op: 'add' as const, after: { [OWNER_ANNOTATION]: OWNER } }, true],
    [
      { path: '/metadata/annotations', op: 'add' as const, after: { [OWNER_ANNOTATION]: OWNER, other: 'y' } },
      false,
    ],
    [{ path: '/metadata/annotations/other', op: 'add' as const, after: 'y' }, false],
    [{ path: '/data/x', op: 'replace' as const, before: '1', after: '2' }, false],
  ])('%j is a stamp: %s', (diff, stamp) => {
    expect(isOwnershipStamp(diff)).toBe(stamp);
  });
});
