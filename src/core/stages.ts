import { splitApiVersion, type K8sObject } from './object.js';

/**
 * Apply stages in order. Ordering is data: this table is the single place that says which kinds
 * go in which stage and what the engine waits for before the next stage starts.
 */
export type StageName =
  | 'crds'
  | 'namespaces'
  | 'resources'
  | 'catalog-sources'
  | 'operator-groups'
  | 'subscriptions'
  | 'operands'
  | 'machine-configs'
  | 'cluster-version';

/** What the engine waits for after applying a stage (see src/apply/wait.ts). */
type StageWait =
  | 'none'
  /** every CRD of the stage is Established */
  | 'crds-established'
  /** every object of the stage is Healthy (health verdicts from src/health) */
  | 'healthy'
  /** every Subscription's CSV reached phase Succeeded (installed or pinned) */
  | 'csvs-succeeded'
  /** every targeted MachineConfigPool is Updated (or held by a window/pause) */
  | 'pools-updated';

export interface StageSpec {
  name: StageName;
  /** `group/Kind` entries (core group: `/Kind`) placed in this stage. */
  kinds: readonly string[];
  wait: StageWait;
  description: string;
}

export const STAGES: readonly StageSpec[] = [
  {
    name: 'crds',
    kinds: ['apiextensions.k8s.io/CustomResourceDefinition'],
    wait: 'crds-established',
    description: 'CustomResourceDefinitions',
  },
  {
    name: 'namespaces',
    kinds: [
      '/Namespace',
      '/ServiceAccount',
      'rbac.authorization.k8s.io/ClusterRole',
      'rbac.authorization.k8s.io/ClusterRoleBinding',
      'rbac.authorization.k8s.io/Role',
      'rbac.authorization.k8s.io/RoleBinding',
      '/ResourceQuota',
      '/LimitRange',
    ],
    wait: 'none',
    description: 'Namespaces, RBAC and ServiceAccounts',
  },
  {
    name: 'resources',
    kinds: [],
    wait: 'none',
    description: 'plain objects (everything not placed elsewhere)',
  },
  {
    name: 'catalog-sources',
    kinds: ['operators.coreos.com/CatalogSource'],
    wait: 'none',
    description: 'CatalogSources',
  },
  {
    name: 'operator-groups',
    kinds: ['operators.coreos.com/OperatorGroup'],
    wait: 'none',
    description: 'OperatorGroups',
  },
  {
    name: 'subscriptions',
    kinds: ['operators.coreos.com/Subscription'],
    wait: 'csvs-succeeded',
    description: 'Subscriptions, then their CSVs',
  },
  {
    name: 'operands',
    kinds: [],
    wait: 'healthy',
    description: 'operands: custom resources of operator-provided CRDs',
  },
  {
    name: 'machine-configs',
    kinds: [
      'machineconfiguration.openshift.io/MachineConfigPool',
      'machineconfiguration.openshift.io/MachineConfig',
    ],
    wait: 'pools-updated',
    description: 'MachineConfigPools and MachineConfigs',
  },
  {
    name: 'cluster-version',
    kinds: ['config.openshift.io/ClusterVersion'],
    wait: 'none',
    description: 'ClusterVersion',
  },
];

/** Annotation that places an object in a stage explicitly (e.g. a plain object that must wait for operands). */
const STAGE_ANNOTATION = 'groundwork.io/stage';
/** Annotation naming the operator (`<namespace>/<subscription>`) whose CSV an operand waits for. */
const OPERATOR_ANNOTATION = 'groundwork.io/operator';

const byKind = new Map<string, StageName>(STAGES.flatMap((s) => s.kinds.map((k) => [k, s.name] as const)));

/**
 * The stage of an object: an explicit `groundwork.io/stage` annotation, else `operands` for objects
 * declared on an operator (`groundwork.io/operator`), else by kind from `STAGES`, else `resources`.
 */
export function stageOf(obj: Pick<K8sObject, 'apiVersion' | 'kind' | 'metadata'>): StageName {
  const explicit = obj.metadata.annotations?.[STAGE_ANNOTATION];
  if (explicit && isStageName(explicit)) return explicit;
  if (obj.metadata.annotations?.[OPERATOR_ANNOTATION]) return 'operands';
  return byKind.get(`${splitApiVersion(obj.apiVersion).group}/${obj.kind}`) ?? 'resources';
}

export function isStageName(value: string): value is StageName {
  return STAGES.some((s) => s.name === value);
}

/** Position of a stage in `STAGES` (0-based). */
export function stageIndex(name: StageName): number {
  return STAGES.findIndex((s) => s.name === name);
}
