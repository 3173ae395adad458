import { describe, expect, it } from 'vitest';
import { OWNER_ANNOTATION } from '../../src/core/annotations.js';
import type { K8sObject } from '../../src/core/object.js';
import { idOf } from '../../src/core/object-id.js';
import { isOwnershipStamp, ownershipOf, withOwner } from '../../src/plan/ownership.js';
import { plan, type Observation } from '../../src/plan/plan.js';
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

describe('plan with ownership', () => {
  const owned = (name: string) => configMap('n', name, {}, { [OWNER_ANNOTATION]: OWNER });
  const observation = (live: K8sObject[]): Observation => ({
    live: new Map(live.map((o) => [idOf(o), o])),
    dryRun: new Map(),
    inventory: new Set(live.map(idOf)),
    failedLists: [],
    unknownKinds: new Set(),
  });

  it('skips what is not owned as NotOwned, and forged entries do not dilute the prune-share guard', () => {
    const mine = Array.from({ length: 10 }, (_, i) => owned(`c${i}`));
    const forged = Array.from({ length: 10 }, (_, i) => configMap('default', `victim${i}`, {}));
    const keep = synthOf(mine.slice(0, 5), { overlay: 'dev' }).manifests;
    const p = plan(withOwner(keep, OWNER), observation([...mine, ...forged]), {
      platform: 'p',
      overlay: 'dev',
      owner: OWNER,
    });
    expect(p.counts).toMatchObject({ prune: 5, skip: 10 });
    expect(p.items.filter((i) => i.reason === 'NotOwned')).toHaveLength(10);
    // 5 of the 10 objects that are ours: 50%, over the 30% guard (5 of 20 would pass).
    expect(p.pruneRefusal()?.reason).toBe('TooManyPrunes');
  });

  it('does not let a CRD go while a custom resource of its kind that is not ours stays', () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gadgets.example.com', annotations: { [OWNER_ANNOTATION]: OWNER } },
      spec: { group: 'example.com', names: { kind: 'Gadget' } },
    } as K8sObject;
    const gadget = {
      apiVersion: 'example.com/v1',
      kind: 'Gadget',
      metadata: { name: 'theirs', namespace: 'n' },
    } as K8sObject;
    const p = plan(
      withOwner(synthOf([owned('stay')], { overlay: 'dev' }).manifests, OWNER),
      {
        ...observation([crd, gadget, owned('stay')]),
        customResources: new Map([[idOf(crd), [idOf(gadget)]]]),
      },
      { platform: 'p', overlay: 'dev', owner: OWNER },
    );
    expect(p.items.find((i) => i.ref.kind === 'CustomResourceDefinition')).toMatchObject({
      action: 'skip',
      reason: 'CrdInUse',
    });
    expect(p.items.find((i) => i.ref.kind === 'Gadget')).toMatchObject({
      action: 'skip',
      reason: 'NotOwned',
    });
  });
});
