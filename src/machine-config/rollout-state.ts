import { isPlainObject, type K8sObject } from '../core/object.js';
import type { MachineConfigPool } from '../health/machine-config-pool-schema.js';
import { readRenderDegraded } from './render-degraded.js';

const DEGRADED = ['RenderDegraded', 'NodeDegraded', 'Degraded'];

/** What `poolRollout` needs to judge a RenderDegraded that may be transient (`readRenderDegraded`). */
interface RenderView {
  /** The time to measure a MachineConfig's age against. Without it every RenderDegraded fails. */
  readonly now?: Date;
  /** `creationTimestamp` of the live declared MachineConfigs, by name. @default none */
  readonly created?: ReadonlyMap<string, string>;
}

/** Where one pool's rollout of the platform's MachineConfigs stands. */
type PoolRollout =
  | { readonly state: 'done' }
  | { readonly state: 'degraded'; readonly message: string }
  | { readonly state: 'paused'; readonly message: string }
  | { readonly state: 'waiting'; readonly message: string };

/**
 * Decides, from the pool's own status, whether a pool runs the platform's MachineConfigs. Not from
 * a change of rendered name: the MCO names rendered configs by a hash of their content, so a change
 * that merges to the same content gives no new name (and nothing to wait for), while a change that
 * merges differently gives a new name the render controller writes some time after the apply.
 *
 * In order:
 * - `degraded`: RenderDegraded, NodeDegraded or Degraded is True (the MCO's own message), except
 *   a RenderDegraded that only says the MCO has not seen the declared MachineConfigs yet ("no
 *   MachineConfigs found matching selector" right after they were created, `readRenderDegraded`);
 * - `waiting` for such a late render (and the Degraded the MCO derives from it), unless NodeDegraded;
 * - `waiting` while the controller has not observed the pool's spec (`status.observedGeneration`);
 * - `waiting` while `spec.configuration` does not hold the declared MachineConfigs yet: one is missing
 *   from its `source`, or the rendered MachineConfig (when it could be read) lacks a file, unit or
 *   kernel argument as declared;
 * - `paused` when a paused pool holds that configuration back;
 * - `waiting` while machines move to it (`status.configuration` differs from `spec.configuration`,
 *   `Updated` not True, `Updating` True, or fewer updated machines than machines);
 * - `done` otherwise.
 *
 * `pool` is parsed at the edge (`readMachineConfigPool`). `declared` are the platform's MachineConfigs
 * that this pool selects; `rendered` is the MachineConfig named by `spec.configuration.name`, or
 * undefined when it could not be read; `view` holds the time and the live MachineConfigs' creation
 * times that tell a late render from a failed one.
 */
export function poolRollout(
  pool: MachineConfigPool,
  declared: readonly K8sObject[],
  rendered: K8sObject | undefined,
  view: RenderView = {},
): PoolRollout {
  const name = `MachineConfigPool/${pool.metadata.name}`;
  const conditionOf = (type: string) => pool.status?.conditions?.find((c) => c.type === type);
  const render = conditionOf('RenderDegraded');
  const late =
    render?.status === 'True' && view.now
      ? readRenderDegraded({
          pool,
          condition: render,
          declared,
          created: view.created ?? new Map(),
          now: view.now,
        })
      : undefined;
  if (late && !late.transient) return { state: 'degraded', message: late.message };
  // A late render is waited out, and with it the Degraded the MCO derives from it; NodeDegraded is not.
  const degraded = (late ? ['NodeDegraded'] : DEGRADED).map(conditionOf).find((c) => c?.status === 'True');
  if (degraded)
    return {
      state: 'degraded',
      message: `${name} ${degraded.type}: ${degraded.message ?? degraded.reason ?? ''}`,
    };
  if (late) return { state: 'waiting', message: late.message };
  const spec = pool.spec ?? {};
  const status = pool.status ?? {};
  if (!pool.status || (status.observedGeneration ?? 0) < (pool.metadata.generation ?? 0))
    return { state: 'waiting', message: `${name}: waiting for the MCO to observe the pool` };
  const missing = missingFromRendered(spec.configuration, declared, rendered);
  if (missing)
    return {
      state: 'waiting',
      message: `${name}: waiting for the MCO to render ${missing}`,
    };
  const moving =
    status.configuration?.name !== spec.configuration?.name ||
    conditionOf('Updated')?.status !== 'True' ||
    conditionOf('Updating')?.status === 'True' ||
    (status.updatedMachineCount ?? 0) < (status.machineCount ?? 0);
  if (!moving) return { state: 'done' };
  if (spec.paused) return { state: 'paused', message: `${name}: paused; changes pending` };
  return {
    state: 'waiting',
    message: `${name}: updating ${status.updatedMachineCount ?? 0}/${status.machineCount ?? '?'} to ${spec.configuration?.name ?? 'the new configuration'}`,
  };
}

/**
 * The first declared MachineConfig (with what it lacks) that the pool's target configuration does
 * not hold yet, or undefined when it holds them all.
 */
function missingFromRendered(
  configuration: NonNullable<MachineConfigPool['spec']>['configuration'],
  declared: readonly K8sObject[],
  rendered: K8sObject | undefined,
): string | undefined {
  if (!configuration?.name)
    return declared[0] ? `MachineConfig/${declared[0].metadata.name} into a configuration` : undefined;
  const sources = new Set((configuration.source ?? []).map((s) => s.name));
  for (const mc of [...declared].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))) {
    const label = `MachineConfig/${mc.metadata.name}`;
    if (!sources.has(mc.metadata.name)) return `${label} into ${configuration.name}`;
    if (!rendered) continue;
    const lack = lackingContent(mc, rendered);
    if (lack) return `${label}: ${configuration.name} does not have ${lack} as declared yet`;
  }
  return undefined;
}

/**
 * What of `mc`'s files (path, contents source and compression, mode; the MCO adds empty fields such
 * as `verification: {}`, which are not compared), units (name, contents, enabled) and kernel arguments
 * the rendered config lacks, as the merge keeps them (files by path, units by name). Another
 * MachineConfig that overrides the same path after this one keeps this one missing: the message then
 * names the path, so the override can be found.
 */
export function lackingContent(mc: K8sObject, rendered: K8sObject): string | undefined {
  const want = ignitionParts(mc.spec);
  const have = ignitionParts(rendered.spec);
  for (const [path, file] of want.files) {
    const got = have.files.get(path);
    const contents = (f: Record<string, unknown>) => (isPlainObject(f.contents) ? f.contents : {});
    if (
      !got ||
      !sameField(contents(file), contents(got), 'source') ||
      !sameField(contents(file), contents(got), 'compression') ||
      !sameField(file, got, 'mode')
    )
      return `file ${path}`;
  }
  for (const [unit, declared] of want.units) {
    const got = have.units.get(unit);
    if (!got || !sameField(declared, got, 'contents') || !sameField(declared, got, 'enabled'))
      return `unit ${unit}`;
  }
  for (const arg of want.kernelArguments)
    if (!have.kernelArguments.includes(arg)) return `kernel argument ${arg}`;
  return undefined;
}

interface IgnitionParts {
  files: Map<string, Record<string, unknown>>;
  units: Map<string, Record<string, unknown>>;
  kernelArguments: string[];
}

function ignitionParts(spec: unknown): IgnitionParts {
  const s = isPlainObject(spec) ? spec : {};
  const config = isPlainObject(s.config) ? s.config : {};
  const storage = isPlainObject(config.storage) ? config.storage : {};
  const systemd = isPlainObject(config.systemd) ? config.systemd : {};
  const entries = (list: unknown, key: string) =>
    new Map(
      (Array.isArray(list) ? list : [])
        .filter(isPlainObject)
        .map((e): [string, Record<string, unknown>] => [String(e[key]), e]),
    );
  return {
    files: entries(storage.files, 'path'),
    units: entries(systemd.units, 'name'),
    kernelArguments: (Array.isArray(s.kernelArguments) ? s.kernelArguments : []).map(String),
  };
}

/** Equal when `declared` does not set the field, or both hold the same JSON. */
function sameField(declared: Record<string, unknown>, got: Record<string, unknown>, key: string): boolean {
  if (declared[key] === undefined) return true;
  return JSON.stringify(sortedJson(declared[key])) === JSON.stringify(sortedJson(got[key]));
}

function sortedJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedJson);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortedJson(value[k])]),
  );
}
