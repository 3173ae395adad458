import { describe, expect, it } from 'vitest';
import {
  arrayAt,
  conditionOf,
  conditionWith,
  numberAt,
  objectAt,
  staleGeneration,
  statusOf,
  stringAt,
} from '../../src/health/fields.js';
import { obj } from './helpers.js';

describe('status readers', () => {
  const fields = { n: 3, nan: Number.NaN, s: 'x', empty: '', o: { a: 1 }, list: [1], nil: null };

  it('return values only of the expected type', () => {
    expect([numberAt(fields, 'n'), numberAt(fields, 'nan'), numberAt(fields, 's')]).toEqual([
      3,
      undefined,
      undefined,
    ]);
    expect([stringAt(fields, 's'), stringAt(fields, 'empty'), stringAt(fields, 'n')]).toEqual([
      'x',
      undefined,
      undefined,
    ]);
    expect([objectAt(fields, 'o'), objectAt(fields, 'list'), objectAt(fields, 'nil')]).toEqual([
      { a: 1 },
      undefined,
      undefined,
    ]);
    expect([arrayAt(fields, 'list'), arrayAt(fields, 'o'), arrayAt(undefined, 'x')]).toEqual([[1], [], []]);
  });

  it('treat an empty or mistyped status as no status', () => {
    const o = (status: string) => obj(`apiVersion: v1\nkind: X\nmetadata: {name: x}\n${status}`);
    expect(statusOf(o('status: {}'))).toBeUndefined();
    expect(statusOf(o('status: [1]'))).toBeUndefined();
    expect(statusOf(o('status: {a: 1}'))).toEqual({ a: 1 });
  });

  it('find conditions by type and status, skipping junk entries', () => {
    const o = obj(`apiVersion: v1
kind: X
metadata: {name: x}
status: {conditions: [null, 7, {type: Ready, status: "False"}]}`);
    expect(conditionOf(o, 'Ready')).toEqual({ type: 'Ready', status: 'False' });
    expect(conditionWith(o, 'Ready', 'True')).toBeUndefined();
    expect(conditionWith(o, 'Ready', 'False')).toEqual({ type: 'Ready', status: 'False' });
  });

  it('judge observedGeneration only when both generations are known', () => {
    const o = (meta: string, status: string) =>
      obj(`apiVersion: v1\nkind: X\nmetadata: {name: x${meta}}\nstatus: ${status}`);
    expect(staleGeneration(o(', generation: 3', '{observedGeneration: 2}'))?.message).toBe(
      'waiting for the controller to observe generation 3 (observed 2)',
    );
    expect(staleGeneration(o(', generation: 3', '{observedGeneration: 3}'))).toBeUndefined();
    expect(staleGeneration(o('', '{observedGeneration: 2}'))).toBeUndefined();
    expect(staleGeneration(o(', generation: 3', '{a: 1}'))).toBeUndefined();
  });
});
