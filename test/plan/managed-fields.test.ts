import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { appliedPaths, formatManagedPath, hasManagedPath, ownersOf } from '../../src/plan/managed-fields.js';
import type { K8sObject } from '../../src/core/object.js';

const deployment = parse(`
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  managedFields:
  - manager: groundwork
    operation: Apply
    fieldsV1:
      f:spec:
        f:replicas: {}
        f:template:
          f:spec:
            f:containers:
              k:{"name":"app"}:
                .: {}
                f:image: {}
                f:name: {}
  - manager: hpa-controller
    operation: Update
    fieldsV1:
      f:spec:
        f:replicas: {}
  - manager: kubectl-set
    operation: Update
    fieldsV1:
      f:spec:
        f:template:
          f:spec:
            f:containers:
              k:{"name":"sidecar"}:
                f:image: {}
spec:
  replicas: 3
  template:
    spec:
      containers:
      - name: sidecar
        image: envoy
      - name: app
        image: nginx
`) as K8sObject;

describe('managed fields', () => {
  it('names the owners of a field, matching list items by key', () => {
    expect(ownersOf(deployment, ['spec', 'template', 'spec', 'containers', 1, 'image'])).toEqual([
      'groundwork',
    ]);
    expect(ownersOf(deployment, ['spec', 'template', 'spec', 'containers', 0, 'image'])).toEqual([
      'kubectl-set',
    ]);
    expect(ownersOf(deployment, ['spec', 'replicas'])).toEqual(['groundwork', 'hpa-controller']);
    expect(ownersOf(deployment, ['spec', 'paused'])).toEqual([]);
  });

  it('lists the leaf paths a manager applied, with list items by key', () => {
    const paths = appliedPaths(deployment, 'groundwork');
    expect(paths.map(formatManagedPath)).toEqual([
      '.spec.replicas',
      '.spec.template.spec.containers[name=app].image',
      '.spec.template.spec.containers[name=app].name',
    ]);
    expect(appliedPaths(deployment, 'hpa-controller')).toEqual([]); // Update, not Apply
  });

  it('a list key that is not a JSON object identifies no item (k:5 matched every item)', () => {
    const odd = structuredClone(deployment);
    odd.metadata.managedFields!.push({
      manager: 'odd',
      operation: 'Apply',
      fieldsV1: {
        'f:spec': {
          'f:template': {
            'f:spec': { 'f:containers': { 'k:5': { 'f:image': {} }, 'k:null': { 'f:name': {} } } },
          },
        },
      },
    });
    expect(ownersOf(odd, ['spec', 'template', 'spec', 'containers', 0, 'image'])).toEqual(['kubectl-set']);
    expect(ownersOf(odd, ['spec', 'template', 'spec', 'containers', 1, 'name'])).toEqual(['groundwork']);
    expect(appliedPaths(odd, 'odd')).toEqual([]);
  });

  it('finds managed paths in another object by key, not by position', () => {
    const desired = { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:2' }] } } } };
    const [, image] = appliedPaths(deployment, 'groundwork');
    expect(hasManagedPath(desired, image!)).toBe(true);
    expect(
      hasManagedPath({ spec: { template: { spec: { containers: [{ name: 'other' }] } } } }, image!),
    ).toBe(false);
  });
});
