import { describe, expect, it } from 'vitest';
import { k8sNameSchema, k8sObjectIdentitySchema } from '../../src/core/object-identity.js';
import {
  apiVersionProblem,
  derivedName,
  inventoryName,
  isValidName,
  kindProblem,
  leaseName,
  nameProblem,
  nameRule,
  platformSyncName,
} from '../../src/core/object-name.js';

describe('object names by the apiserver rules', () => {
  it.each([
    ['', 'Namespace', 'dns-label'],
    ['', 'Service', 'dns-label'],
    ['project.openshift.io', 'Project', 'dns-label'],
    ['rbac.authorization.k8s.io', 'ClusterRole', 'path-segment'],
    ['', 'ConfigMap', 'dns-subdomain'],
    ['example.com', 'Widget', 'dns-subdomain'],
  ] as const)('%s/%s is checked as a %s', (group, kind, rule) => {
    expect(nameRule(group, kind)).toBe(rule);
  });

  it.each([
    ['a', 'dns-label', true],
    ['a-b.c', 'dns-label', false],
    ['a'.repeat(63), 'dns-label', true],
    ['a'.repeat(64), 'dns-label', false],
    ['a-b.c', 'dns-subdomain', true],
    ['a'.repeat(253), 'dns-subdomain', true],
    ['a'.repeat(254), 'dns-subdomain', false],
    ['-a', 'dns-subdomain', false],
    ['A', 'dns-subdomain', false],
    ['system:admin', 'path-segment', true],
    ['.', 'path-segment', false],
    ['..', 'path-segment', false],
    ['a/b', 'path-segment', false],
    ['a%2e', 'path-segment', false],
    ['', 'path-segment', false],
  ] as const)('%j as a %s is valid: %s', (name, rule, valid) => {
    expect(isValidName(name, rule)).toBe(valid);
  });

  it('quotes the name, cut at 80 characters', () => {
    expect(nameProblem('X'.repeat(100), 'dns-label')).toContain(`"${'X'.repeat(80)}…"`);
  });

  it('checks API versions and kinds by their shapes', () => {
    for (const ok of ['v1', 'apps/v1', 'operators.coreos.com/v1alpha1'])
      expect(apiVersionProblem(ok)).toBeUndefined();
    for (const bad of ['', '/v1', 'apps/', 'a/b/c', 'Apps/v1', '../v1', 'v1 ', 'apps/v1\n'])
      expect(apiVersionProblem(bad), bad).toBeDefined();
    for (const ok of ['ConfigMap', 'Widget2']) expect(kindProblem(ok)).toBeUndefined();
    for (const bad of ['', '2x', 'Config Map', 'a-b', 'ConfigMap |', 'X'.repeat(64)])
      expect(kindProblem(bad), bad).toBeDefined();
  });
});

describe('derivedName: the one way Groundwork names its own objects', () => {
  it('keeps the names existing clusters have', () => {
    expect(platformSyncName('shop', 'prod')).toBe('shop-prod');
    expect(platformSyncName('Shop', 'clusters/eu-1')).toBe('shop-clusters-eu-1');
    expect(inventoryName('shop', 'clusters/eu-1')).toBe('gw-inventory-shop-clusters-eu-1');
    expect(leaseName('shop-prod')).toBe('groundwork-shop-prod');
    expect(platformSyncName('a--b', '-c-')).toBe('a-b-c');
  });

  it('caps at 63 characters with a hash of the whole name, so long names stay distinct', () => {
    const a = platformSyncName('p', `${'x'.repeat(80)}-a`);
    const b = platformSyncName('p', `${'x'.repeat(80)}-b`);
    expect(a).toHaveLength(63);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^p-x+-[0-9a-f]{8}$/);
  });

  it('never returns an empty name', () => {
    expect(derivedName(['//', '..'])).toMatch(/^gw-[0-9a-f]{8}$/);
    expect(derivedName(['//'])).not.toBe(derivedName(['..']));
  });
});

describe('k8sObjectIdentitySchema', () => {
  const obj = (over: Record<string, unknown>, meta: Record<string, unknown> = {}) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    ...over,
    metadata: { name: 'a', namespace: 'ns', ...meta },
    data: { x: '1' },
  });

  it('accepts a valid object and keeps its other fields', () => {
    const parsed = k8sObjectIdentitySchema.parse(obj({}));
    expect(parsed.data).toEqual({ x: '1' });
  });

  it.each([
    [{}, { name: '..' }, 'metadata.name'],
    [{}, { name: '../../x' }, 'metadata.name'],
    [{}, { namespace: '..' }, 'metadata.namespace'],
    [{ kind: 'Namespace' }, { name: 'a.b' }, 'metadata.name'],
    [{ kind: 'ConfigMap |\n\n<!--' }, {}, 'kind'],
    [{ apiVersion: '../v1' }, {}, 'apiVersion'],
  ])('refuses %j %j at %s', (over, meta, path) => {
    const parsed = k8sObjectIdentitySchema.safeParse(obj(over, meta));
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => i.path.join('.'))).toContain(path);
  });

  it('k8sNameSchema checks one name', () => {
    expect(k8sNameSchema('dns-label').safeParse('a.b').success).toBe(false);
    expect(k8sNameSchema('dns-subdomain').safeParse('a.b').success).toBe(true);
  });
});
