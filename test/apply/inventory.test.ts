import { describe, expect, it } from 'vitest';
import {
  inventoryData,
  inventoryOwner,
  parseInventoryData,
  sameInventory,
} from '../../src/apply/inventory.js';
import { isValidId } from '../../src/core/object-id.js';

describe('isValidId', () => {
  it.each([
    ['_openshift-gitops__Namespace', true],
    ['openshift-gitops_gitops_operators.coreos.com_Subscription', true],
    ['_system:controller:foo_rbac.authorization.k8s.io_ClusterRole', true],
    ['ns_Bad_Name!!__ConfigMap', false], // a name with `_`: six fields
    ['ns_name__', false],
    ['ns__ _ConfigMap', false],
    ['Upper_x__ConfigMap', false],
    ['ns_a/b__ConfigMap', false],
    ['ns_a%2f__ConfigMap', false],
    ['ns_..__ConfigMap', false],
    ['ns_x\r__ConfigMap', false],
    ['ns_x_Bad Group_ConfigMap', false],
    ['ns_x__Config Map', false],
  ])('%j: %s', (id, valid) => {
    expect(isValidId(id)).toBe(valid);
  });
});

describe('inventory data', () => {
  const base = { format: 'groundwork.io/inventory/v1', platform: 'p', overlay: 'dev', revision: 'r' };

  it('drops entries that are not valid ids instead of failing the read, and lists them', () => {
    const inv = parseInventoryData({
      ...base,
      objects: ['a_ok__ConfigMap', 'a_Bad_Name!!__ConfigMap', '_victimns__Namespace', 'garbage'].join('\n'),
    });
    expect([...inv.objects].sort()).toEqual(['_victimns__Namespace', 'a_ok__ConfigMap']);
    expect(inv.dropped).toEqual(['a_Bad_Name!!__ConfigMap', 'garbage']);
  });

  it('reads CRLF line ends as line ends', () => {
    expect([
      ...parseInventoryData({ ...base, objects: 'a_x__ConfigMap\r\na_y__ConfigMap\r\n' }).objects,
    ]).toEqual(['a_x__ConfigMap', 'a_y__ConfigMap']);
  });

  it('a read with dropped entries is never "the same": the next write removes them', () => {
    const read = parseInventoryData({ ...base, objects: 'a_ok__ConfigMap\na_Bad_Name!!__ConfigMap' });
    const next = { platform: 'p', overlay: 'dev', revision: 'r', objects: new Set(['a_ok__ConfigMap']) };
    expect(sameInventory(read, next)).toBe(false);
    expect(sameInventory(parseInventoryData(inventoryData(next)), next)).toBe(true);
  });

  it('names its owner by namespace and ConfigMap name', () => {
    expect(inventoryOwner('groundwork-system', 'shop', 'clusters/eu-1')).toBe(
      'groundwork-system/gw-inventory-shop-clusters-eu-1',
    );
  });
});
