import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../src/core/object.js';
import { idOf } from '../../src/core/object-id.js';
import { plan, type Observation } from '../../src/plan/plan.js';
import { configMap, synthOf } from '../harness/engine.js';

const applied = (obj: K8sObject): K8sObject => ({
  ...obj,
  metadata: {
    ...obj.metadata,
    managedFields: [{ manager: 'groundwork', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1' }],
  },
});

describe('pruning a Namespace', () => {
  // Git keeps 3 ConfigMaps elsewhere and drops the Namespace `old`; in `old` live 2 objects nobody declared.
  const kept = ['a', 'b', 'c'].map((n) => configMap('keep', n, {}));
  const ns = applied({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'old' } });
  const extras = ['x', 'y'].map((n) => configMap('old', n, {}));
  const inventory = new Set([...kept, ns].map(idOf));
  const observation: Observation = {
    live: new Map([...kept, ns].map((o) => [idOf(o), applied(o)])),
    dryRun: new Map(),
    inventory,
    failedLists: [],
    unknownKinds: new Set(),
    namespaceContents: new Map([['old', extras.map(idOf)]]),
  };
  const p = plan(synthOf(kept, { overlay: 'dev' }).manifests, observation, { platform: 'p', overlay: 'dev' });

  it('lists the objects not in git that go with it', () => {
    const item = p.items.find((i) => i.ref.kind === 'Namespace')!;
    expect(item.action).toBe('prune');
    expect(item.goesWith).toEqual(extras.map(idOf));
    expect(p.toString()).toContain(
      'deleting it deletes 2 object(s) in it that are not in git: ConfigMap/old/x, ConfigMap/old/y',
    );
  });

  it('counts them in the prune guard: 3 of 4 inventory objects, over the 30% share', () => {
    expect(p.pruneRefusal()).toMatchObject({
      reason: 'TooManyPrunes',
      message: expect.stringContaining('would prune 3 of 4 inventory objects'),
    });
    expect(p.pruneRefusal({ maxPruneShare: 0.8 })).toBeUndefined();
  });
});
