import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { isSubset, looksUnchanged, removedFields } from '../../src/plan/compare.js';
import { sameQuantity } from '../../src/plan/quantity.js';
import type { K8sObject } from '../../src/core/object.js';

describe('isSubset', () => {
  it.each([
    ['equal scalars', { a: 1 }, { a: 1 }, true],
    ['extra live fields (server defaults)', { a: 1 }, { a: 1, b: 2 }, true],
    ['different value', { a: 1 }, { a: 2 }, false],
    ['missing in live', { a: 1, c: 3 }, { a: 1 }, false],
    [
      'nested defaults in list items',
      { c: [{ name: 'x' }] },
      { c: [{ name: 'x', imagePullPolicy: 'Always' }] },
      true,
    ],
    ['list length differs', { c: [1, 2] }, { c: [1, 2, 3] }, false],
    ['list order differs', { c: ['a', 'b'] }, { c: ['b', 'a'] }, false],
    ['string vs number', { a: '1' }, { a: 1 }, false],
    ['quantity canonicalized in requests', { requests: { cpu: '1000m' } }, { requests: { cpu: '1' } }, true],
    ['binary quantities in limits', { limits: { memory: '1024Mi' } }, { limits: { memory: '1Gi' } }, true],
    ['quantities differ', { limits: { memory: '1Gi' } }, { limits: { memory: '1G' } }, false],
    [
      'quantity-looking strings elsewhere stay strings',
      { data: { x: '1000m' } },
      { data: { x: '1' } },
      false,
    ],
  ])('%s', (_name, desired, live, expected) => {
    expect(isSubset(desired, live)).toBe(expected);
  });
});

describe('sameQuantity', () => {
  it.each([
    ['500m', '0.5', true],
    ['1e3', '1k', true],
    ['2Ki', '2048', true],
    ['100n', '0.0000001', true],
    ['1', '1001m', false],
    ['abc', 'abc', false],
  ])('%s = %s is %s', (a, b, expected) => expect(sameQuantity(a, b)).toBe(expected));
});

const live = parse(`
apiVersion: v1
kind: ConfigMap
metadata:
  name: c
  namespace: n
  managedFields:
  - manager: groundwork
    operation: Apply
    apiVersion: v1
    fieldsType: FieldsV1
    fieldsV1:
      f:data:
        f:a: {}
        f:b: {}
  - manager: kubectl-edit
    operation: Update
    apiVersion: v1
    fieldsType: FieldsV1
    fieldsV1:
      f:data:
        f:c: {}
data: {a: "1", b: "2", c: "3"}
`) as K8sObject;

describe('removedFields / looksUnchanged', () => {
  it('finds fields Groundwork applied that desired no longer sets', () => {
    const desired = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', namespace: 'n' },
      data: { a: '1' },
    } as K8sObject;
    expect(removedFields(desired, live, 'groundwork')).toEqual([['data', 'b']]);
    expect(looksUnchanged(desired, live, { manager: 'groundwork', ignore: [] })).toBe(false);
  });

  it('ignores fields other managers own', () => {
    const desired = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', namespace: 'n' },
      data: { a: '1', b: '2' },
    } as K8sObject;
    expect(looksUnchanged(desired, live, { manager: 'groundwork', ignore: [] })).toBe(true);
  });

  it('honours ignore pointers', () => {
    const desired = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', namespace: 'n' },
      data: { a: 'changed', b: '2' },
    } as K8sObject;
    expect(looksUnchanged(desired, live, { manager: 'groundwork', ignore: [] })).toBe(false);
    expect(looksUnchanged(desired, live, { manager: 'groundwork', ignore: ['/data/a'] })).toBe(true);
  });
});
