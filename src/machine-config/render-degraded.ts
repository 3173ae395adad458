import { matchesLabelSelector } from '../core/label-selector.js';
import { isPlainObject, type K8sObject } from '../core/object.js';
import type { MachineConfigPool } from '../health/machine-config-pool-schema.js';

/**
 * The render controller's error when its informer holds no MachineConfig matching the pool's
 * selector (machine-config-operator `pkg/controller/render/render_controller.go`,
 * `syncMachineConfigPool`), inside "Failed to render configuration for pool P: …".
 */
const NO_MACHINE_CONFIGS = 'no MachineConfigs found matching selector';

/**
 * How long the render controller may take to see a new MachineConfig before its "no MachineConfigs
 * found" counts as a failure. The MCO requeues a failed sync (rate-limited, from 5 ms) and enqueues
 * the pool again when a MachineConfig it selects is added (after its 5 s render delay), so a
 * condition set before the MachineConfig reached its informer clears within seconds.
 */
export const RENDER_GRACE_MS = 60_000;

/** A True RenderDegraded condition as the pool reports it. */
interface RenderCondition {
  readonly message?: string | undefined;
  readonly reason?: string | undefined;
  readonly lastTransitionTime?: string | undefined;
}

/** What a True RenderDegraded means for the rollout: wait for the MCO, or stop with `message`. */
export type RenderDegradedReading =
  | { readonly transient: true; readonly message: string }
  | { readonly transient: false; readonly message: string };

/** True when the pool reports RenderDegraded because the MCO found no MachineConfig for it. */
export function awaitsMachineConfigs(pool: MachineConfigPool): boolean {
  const c = pool.status?.conditions?.find((x) => x.type === 'RenderDegraded');
  return c?.status === 'True' && (c.message ?? '').includes(NO_MACHINE_CONFIGS);
}

/**
 * Judges a True RenderDegraded condition of `pool`. It is transient only when all hold:
 * - its message is the render controller's "no MachineConfigs found matching selector";
 * - a declared MachineConfig matches the live pool's `spec.machineConfigSelector` (so the MCO will
 *   find it: it just has not seen it yet, as after a pool and its MachineConfigs are created together);
 * - that MachineConfig has existed for at most `graceMs`, counted from the earliest `creationTimestamp`
 *   among the matching ones in `created` (live objects, by name), else from the condition's
 *   `lastTransitionTime`.
 * Anything else is a failure: a real render error (an invalid MachineConfig), no declared
 * MachineConfig matching the selector, a condition that outlived the grace, or no time to judge by.
 *
 * Pure: `now` is given. It does not look at NodeDegraded or Degraded.
 *
 * @example
 * readRenderDegraded({ pool, condition, declared: [mc], created: new Map([['50-motd', '2026-11-28T10:00:00Z']]), now: new Date('2026-11-28T10:00:03Z') })
 * // { transient: true, message: 'MachineConfigPool/infra: waiting for the MCO to see MachineConfig/50-motd (created 3s ago; …)' }
 */
export function readRenderDegraded(input: {
  pool: MachineConfigPool;
  condition: RenderCondition;
  declared: readonly K8sObject[];
  created: ReadonlyMap<string, string>;
  now: Date;
  /** @default RENDER_GRACE_MS */
  graceMs?: number;
}): RenderDegradedReading {
  const name = `MachineConfigPool/${input.pool.metadata.name}`;
  const text = input.condition.message || input.condition.reason || '';
  const failed = (why = ''): RenderDegradedReading => ({
    transient: false,
    message: `${name} RenderDegraded: ${text}${why}`,
  });
  if (!text.includes(NO_MACHINE_CONFIGS)) return failed();
  const selector = isPlainObject(input.pool.spec) ? input.pool.spec.machineConfigSelector : undefined;
  const matching = input.declared
    .filter((mc) => matchesLabelSelector(mc.metadata.labels ?? {}, selector))
    .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
  if (matching.length === 0)
    return failed(
      input.declared.length > 0
        ? ` (no declared MachineConfig matches the live pool's machineConfigSelector: label them for the pool or fix the selector)`
        : '',
    );
  const times = matching
    .map((mc) => Date.parse(input.created.get(mc.metadata.name) ?? ''))
    .filter((t) => !Number.isNaN(t));
  const since = times.length > 0 ? Math.min(...times) : Date.parse(input.condition.lastTransitionTime ?? '');
  const mcs = matching.map((mc) => `MachineConfig/${mc.metadata.name}`).join(', ');
  if (Number.isNaN(since)) return failed(` (${mcs} matches the selector; no time to tell a late render by)`);
  const ageS = Math.max(0, Math.round((input.now.getTime() - since) / 1000));
  if (input.now.getTime() - since > (input.graceMs ?? RENDER_GRACE_MS))
    return failed(
      ` (${mcs} matches the selector and has existed for ${ageS}s: the machine-config controller does not see it; look at its logs in openshift-machine-config-operator)`,
    );
  return {
    transient: true,
    message: `${name}: waiting for the MCO to see ${mcs} (created ${ageS}s ago; RenderDegraded until then: ${text})`,
  };
}
