import { describe, expect, it } from 'vitest';
import { agentRbac, managedRefs, type ManagedRef } from '../../src/install/rbac.js';
import { RuleSet } from '../../src/install/rbac-rules.js';
import type { ResourceInfo } from '../../src/cluster/discovery.js';

const AGENT = { namespace: 'gw', inventory: { namespace: 'groundwork-system', name: 'gw-inventory-p-prod' } };
const MANAGE = ['get', 'list', 'watch', 'create', 'patch', 'update', 'delete'];
const EVENTS = { apiGroups: ['events.k8s.io'], resources: ['events'], verbs: ['create', 'patch'] };
const ref = (kind: string, resource: string, namespace: string, name: string, group = ''): ManagedRef => ({
  group,
  kind,
  resource,
  namespace,
  name,
});
const AGENT_OWN = [
  // The agent's redaction key (src/agent/redaction-key-secret.ts): created when missing, read by name.
  { apiGroups: [''], resources: ['secrets'], verbs: ['create'] },
  { apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['groundwork-redaction-key'] },
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'create', 'update'] },
  {
    apiGroups: ['groundwork.io'],
    resources: ['platformsyncs', 'platformsyncs/status'],
    verbs: ['get', 'list', 'watch', 'create', 'patch', 'update'],
  },
];
const INVENTORY = {
  apiGroups: [''],
  resources: ['configmaps'],
  verbs: ['get', 'create', 'patch', 'update'],
  resourceNames: ['gw-inventory-p-prod'],
};

describe('agentRbac', () => {
  it('one Secret in one namespace: a Role there and no cluster-wide write at all', () => {
    const rbac = agentRbac({ ...AGENT, objects: [ref('Secret', 'secrets', 'team-a', 'creds')] });
    expect(rbac.cluster).toEqual([]);
    expect(rbac.namespaced).toEqual([
      { namespace: 'groundwork-system', rules: [INVENTORY] },
      { namespace: 'gw', rules: AGENT_OWN },
      { namespace: 'team-a', rules: [{ apiGroups: [''], resources: ['secrets'], verbs: MANAGE }, EVENTS] },
    ]);
  });

  it.each([
    {
      name: 'a Namespace: read cluster-wide, write only that name; its Events in default',
      objects: [ref('Namespace', 'namespaces', '', 'team-a')],
      cluster: [
        { apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'list', 'watch'] },
        {
          apiGroups: [''],
          resources: ['namespaces'],
          verbs: ['create', 'patch', 'update', 'delete'],
          resourceNames: ['team-a'],
        },
      ],
      namespaces: { default: [EVENTS] },
    },
    {
      name: 'a Subscription: InstallPlan approval and CSV reads in its namespace only',
      objects: [ref('Subscription', 'subscriptions', 'ops', 'op', 'operators.coreos.com')],
      cluster: [],
      namespaces: {
        ops: [
          EVENTS,
          {
            apiGroups: ['operators.coreos.com'],
            resources: ['clusterserviceversions'],
            verbs: ['get', 'list', 'watch'],
          },
          {
            apiGroups: ['operators.coreos.com'],
            resources: ['installplans'],
            verbs: ['get', 'list', 'watch', 'patch'],
          },
          { apiGroups: ['operators.coreos.com'], resources: ['subscriptions'], verbs: MANAGE },
        ],
      },
    },
    {
      name: 'a CRD: its custom resources are read cluster-wide (the prune guard)',
      objects: [
        ref(
          'CustomResourceDefinition',
          'customresourcedefinitions',
          '',
          'widgets.example.com',
          'apiextensions.k8s.io',
        ),
      ],
      cluster: [
        {
          apiGroups: ['apiextensions.k8s.io'],
          resources: ['customresourcedefinitions'],
          verbs: ['get', 'list', 'watch'],
        },
        {
          apiGroups: ['apiextensions.k8s.io'],
          resources: ['customresourcedefinitions'],
          verbs: ['create', 'patch', 'update', 'delete'],
          resourceNames: ['widgets.example.com'],
        },
        { apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get', 'list', 'watch'] },
      ],
      namespaces: { default: [EVENTS] },
    },
    {
      name: 'a ClusterVersion: ClusterOperators read, pools paused, the version written by name',
      objects: [ref('ClusterVersion', 'clusterversions', '', 'version', 'config.openshift.io')],
      cluster: [
        {
          apiGroups: ['config.openshift.io'],
          resources: ['clusteroperators', 'clusterversions'],
          verbs: ['get', 'list', 'watch'],
        },
        {
          apiGroups: ['config.openshift.io'],
          resources: ['clusterversions'],
          verbs: ['create', 'patch', 'update', 'delete'],
          resourceNames: ['version'],
        },
        {
          apiGroups: ['machineconfiguration.openshift.io'],
          resources: ['machineconfigpools'],
          verbs: ['get', 'list', 'watch', 'patch'],
        },
      ],
      namespaces: { default: [EVENTS] },
    },
  ])('$name', ({ objects, cluster, namespaces }) => {
    const rbac = agentRbac({ ...AGENT, objects });
    expect(rbac.cluster).toEqual(cluster);
    const others = rbac.namespaced.filter((n) => n.namespace !== 'gw' && n.namespace !== 'groundwork-system');
    expect(Object.fromEntries(others.map((n) => [n.namespace, n.rules]))).toEqual(namespaces);
  });

  it("merges the agent's own rules into its namespace's Role, and its inventory's when they share one; never the platform's kinds there", () => {
    const rbac = agentRbac({
      namespace: 'groundwork-system',
      inventory: { namespace: 'groundwork-system', name: 'inv' },
      objects: [ref('ConfigMap', 'configmaps', 'groundwork-system', 'settings')],
    });
    expect(rbac.namespaced.map((n) => n.namespace)).toEqual(['groundwork-system']);
    // A platform object in the agent's namespace gets no grant (issue 31, item 9).
    expect(rbac.namespaced[0]!.rules).not.toContainEqual({
      apiGroups: [''],
      resources: ['configmaps'],
      verbs: MANAGE,
    });
    expect(rbac.namespaced[0]!.rules).toEqual(
      expect.arrayContaining([
        {
          apiGroups: [''],
          resources: ['configmaps'],
          verbs: ['get', 'create', 'patch', 'update'],
          resourceNames: ['inv'],
        },
        ...AGENT_OWN,
      ]),
    );
  });

  it('is the same whatever the order of the objects', () => {
    const objects = [
      ref('Secret', 'secrets', 'b', 's'),
      ref('ConfigMap', 'configmaps', 'a', 'c'),
      ref('Namespace', 'namespaces', '', 'b'),
      ref('Namespace', 'namespaces', '', 'a'),
    ];
    expect(agentRbac({ ...AGENT, objects: [...objects].reverse() })).toEqual(
      agentRbac({ ...AGENT, objects }),
    );
  });
});

describe('managedRefs', () => {
  const served: Record<string, ResourceInfo> = {
    '/Secret': { group: '', version: 'v1', kind: 'Secret', resource: 'secrets', namespaced: true, verbs: [] },
    '/Namespace': {
      group: '',
      version: 'v1',
      kind: 'Namespace',
      resource: 'namespaces',
      namespaced: false,
      verbs: [],
    },
  };
  it("takes desired objects and the inventory's ids (to prune), guesses what is not served, skips bad ids", () => {
    const refs = managedRefs(
      [
        { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'a' } },
        { apiVersion: 'argoproj.io/v1beta1', kind: 'ArgoCD', metadata: { name: 'gitops', namespace: 'ops' } },
      ],
      ['old_s__Secret', '_gone__Namespace', 'not-an-id'],
      (group, kind) => served[`${group}/${kind}`],
    );
    expect(refs).toEqual([
      { group: '', kind: 'Secret', resource: 'secrets', namespace: 'a', name: 's' },
      { group: 'argoproj.io', kind: 'ArgoCD', resource: 'argocds', namespace: 'ops', name: 'gitops' },
      { group: '', kind: 'Secret', resource: 'secrets', namespace: 'old', name: 's' },
      { group: '', kind: 'Namespace', resource: 'namespaces', namespace: '', name: 'gone' },
    ]);
  });
});

describe('RuleSet', () => {
  it('merges verbs of one resource, groups resources that share verbs, keeps named grants apart', () => {
    const rules = new RuleSet()
      .grant('', 'secrets', ['get'])
      .grant('', 'secrets', ['delete', 'list'])
      .grant('', 'configmaps', ['list', 'get', 'delete'])
      .grant('', 'configmaps', ['patch'], ['b', 'a', 'a'])
      .rules();
    expect(rules).toEqual([
      { apiGroups: [''], resources: ['configmaps'], verbs: ['patch'], resourceNames: ['a', 'b'] },
      { apiGroups: [''], resources: ['configmaps', 'secrets'], verbs: ['get', 'list', 'delete'] },
    ]);
  });
});

describe('agentRbac: notification Secrets', () => {
  const base = {
    namespace: 'groundwork-system',
    inventory: { namespace: 'groundwork-system', name: 'inv' },
    objects: [],
  };
  const secretRules = (input: Parameters<typeof agentRbac>[0]) =>
    agentRbac(input)
      .namespaced.flatMap((n) => n.rules)
      .filter((r) => r.resources.includes('secrets') && r.verbs.includes('get'));

  it('grants get on the named notification Secrets only, and nothing more without names', () => {
    const without = secretRules(base);
    expect(without.every((r) => r.resourceNames !== undefined)).toBe(true);
    expect(secretRules({ ...base, notificationSecrets: [] })).toEqual(without);
    const named = secretRules({ ...base, notificationSecrets: ['staging-alerts', 'forge-token'] });
    expect(named.every((r) => r.resourceNames !== undefined)).toBe(true);
    expect(named.flatMap((r) => r.resourceNames ?? [])).toEqual(
      expect.arrayContaining(['staging-alerts', 'forge-token']),
    );
  });
});
