import { ANNOTATIONS } from '../core/annotations.js';
import { isPlainObject, type K8sObject } from '../core/object.js';
import { matchesLabelSelector } from '../core/label-selector.js';

/**
 * The label naming a MachineConfig's pool role. Defined here, not in pool.ts, so the engine's
 * pool selection loads no cdk8s (pool.ts's constructs): a CLI `plan` would load it for this one string.
 */
export const ROLE_LABEL = 'machineconfiguration.openshift.io/role';

/** A MachineConfigPool as the preview reports it. */
export interface SelectingPool {
  name: string;
  /** `spec.maxUnavailable`: a count or a percentage. @default 1 */
  maxUnavailable: number | string;
  /** `spec.paused`: a paused pool takes the change only once unpaused. */
  paused: boolean;
  /** False for a built-in pool (`master`, `worker`) the platform does not declare. */
  declared: boolean;
  /** The pool's `groundwork.io/maintenance-windows` annotation, when set. */
  maintenanceWindows?: string;
}

const BUILT_IN = ['master', 'worker'] as const;

/**
 * The MachineConfigPools whose `spec.machineConfigSelector` selects `machineConfig` (by its
 * labels): the pools that render it into their config, so whose nodes reboot when it changes.
 * `pools` are the declared pools; `master` and `worker` exist on every cluster, so when not
 * declared they are added as OpenShift creates them (selecting role `master` and `worker`,
 * maxUnavailable 1). A pool without a selector selects nothing. Sorted by name. Pure: does not
 * look at nodes, so it cannot tell whether a pool has any.
 *
 * @example
 * poolsSelecting({ metadata: { name: '50-chrony', labels: { [ROLE_LABEL]: 'worker' } } }, [])
 * // [{ name: 'worker', maxUnavailable: 1, paused: false, declared: false }]
 */
export function poolsSelecting(
  machineConfig: Pick<K8sObject, 'metadata'>,
  pools: readonly K8sObject[],
): SelectingPool[] {
  const labels = machineConfig.metadata.labels ?? {};
  const all = [
    ...pools.map((p) => ({ object: p, declared: true })),
    ...builtIns(pools).map((p) => ({ object: p, declared: false })),
  ];
  return all
    .filter(({ object }) => matchesLabelSelector(labels, spec(object).machineConfigSelector))
    .map(({ object, declared }) => describePool(object, declared))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function builtIns(declared: readonly K8sObject[]): K8sObject[] {
  return BUILT_IN.filter((name) => !declared.some((p) => p.metadata.name === name)).map((name) => ({
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfigPool',
    metadata: { name },
    spec: { machineConfigSelector: { matchLabels: { [ROLE_LABEL]: name } } },
  }));
}

/** A pool's rollout settings as the preview reports them (`declared`: the platform emits it). */
export function describePool(pool: K8sObject, declared = true): SelectingPool {
  const s = spec(pool);
  const max = s.maxUnavailable;
  const windows = pool.metadata.annotations?.[ANNOTATIONS.maintenanceWindows];
  return {
    name: pool.metadata.name,
    maxUnavailable: typeof max === 'number' || typeof max === 'string' ? max : 1,
    paused: s.paused === true,
    declared,
    ...(windows ? { maintenanceWindows: windows } : {}),
  };
}

function spec(obj: K8sObject): Record<string, unknown> {
  return isPlainObject(obj.spec) ? obj.spec : {};
}
