import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../src/core/object.js';
import { idOf } from '../../src/core/object-id.js';
import { withOwner } from '../../src/plan/ownership.js';
import { needsDryRun } from '../../src/plan/plan.js';
import { UnchangedMemo } from '../../src/plan/unchanged-memo.js';
import { configMap, synthOf } from '../harness/engine.js';

/** `obj` as the server holds it after Groundwork applied `fields` of it. */
const applied = (obj: K8sObject, fields: Record<string, unknown>): K8sObject => ({
  ...obj,
  metadata: {
    ...obj.metadata,
    resourceVersion: '7',
    managedFields: [
      {
        manager: 'groundwork',
        operation: 'Apply',
        apiVersion: 'v1',
        fieldsType: 'FieldsV1',
        fieldsV1: fields,
      },
    ],
  },
});

describe('UnchangedMemo: the no-op test answered once per live object and manifest', () => {
  const a = configMap('n', 'a', { x: '1' });
  const [manifest] = withOwner(synthOf([a], { overlay: 'dev' }).manifests, 'ns/inv');
  const live = applied(manifest!.object, { 'f:data': { 'f:x': {} } });

  it('compares once for the same live object and manifest, again for a new live object, hash or owner', () => {
    const memo = new UnchangedMemo();
    let compared = 0;
    const compare = () => (compared++, true);
    expect(memo.answer(manifest!, live, compare)).toBe(true);
    expect(memo.answer({ ...manifest! }, live, compare)).toBe(true);
    expect(compared).toBe(1);
    memo.answer(manifest!, { ...live }, compare); // an event or a relist: a new object
    expect(compared).toBe(2);
    const [other] = withOwner(synthOf([a], { overlay: 'dev' }).manifests, 'ns/other');
    memo.answer(other!, live, compare); // the same hash, another inventory's stamp
    expect(compared).toBe(3);
    memo.answer({ ...other!, hash: `sha256:${'0'.repeat(64)}` }, live, compare);
    expect(compared).toBe(4);
  });

  it('needsDryRun with a memo finds what it finds without one: drift, a git change, a deletion', () => {
    const memo = new UnchangedMemo();
    const b = configMap('n', 'b', { y: '2' });
    const manifests = withOwner(synthOf([a, b], { overlay: 'dev' }).manifests, 'ns/inv');
    const liveB = applied(manifests[1]!.object, { 'f:data': { 'f:y': {} } });
    const both = new Map([
      [idOf(a), live],
      [idOf(b), liveB],
    ]);
    const same = (m: typeof manifests, l: Map<string, K8sObject>) => {
      const memoized = needsDryRun(m, l, { memo });
      expect(memoized).toEqual(needsDryRun(m, l));
      return memoized;
    };
    expect(same(manifests, both)).toEqual([]);
    expect(same(manifests, both)).toEqual([]); // answered from the memo
    // Someone edits b: the cache holds a new object, which is compared.
    const drifted = new Map(both).set(idOf(b), { ...liveB, data: { y: 'edited' } });
    expect(same(manifests, drifted)).toEqual([idOf(b)]);
    // Git changes a: a new hash, compared again against the same live object.
    const changed = withOwner(
      synthOf([configMap('n', 'a', { x: '2' }), b], { overlay: 'dev' }).manifests,
      'ns/inv',
    );
    expect(same(changed, both)).toEqual([idOf(a)]);
    // a deleted from the cluster: nothing to dry-run (a create).
    expect(same(manifests, new Map([[idOf(b), liveB]]))).toEqual([]);
  });
});
