import type { IConstruct } from 'constructs';
import type { Platform } from '../render/synth/platform.js';
import { Validation } from '../render/synth/validation.js';
import type { ConfigEntry } from './ignition.js';
import { MAX_MACHINE_CONFIG_BYTES } from './rules.js';

/** What the platform-wide checks need from a MachineConfig construct. */
export interface RegisteredConfig extends IConstruct {
  readonly name: string;
  readonly role: string;
  /** Files and units it writes; empty when its props were invalid. */
  readonly entries: readonly ConfigEntry[];
  /** JSON size of the emitted object; 0 when nothing was emitted. */
  readonly sizeBytes: number;
  /** Withdraws the emitted object after a platform-wide check failed. */
  retract(): void;
}

/** What the platform-wide checks need from a MachineConfigPool construct. */
interface RegisteredPool extends IConstruct {
  readonly name: string;
  readonly inheritsWorker: boolean;
}

interface Registry {
  configs: RegisteredConfig[];
  pools: RegisteredPool[];
}

const registries = new WeakMap<Platform, Registry>();

function registryOf(platform: Platform): Registry {
  let r = registries.get(platform);
  if (!r) {
    const created: Registry = { configs: [], pools: [] };
    registries.set(platform, created);
    platform.addFinalizer('machine-config/checks', () => check(created));
    r = created;
  }
  return r;
}

export function registerConfig(platform: Platform, config: RegisteredConfig): void {
  registryOf(platform).configs.push(config);
}

export function registerPool(platform: Platform, pool: RegisteredPool): void {
  registryOf(platform).pools.push(pool);
}

/**
 * Checks that need every MachineConfig and pool of the platform: unique MachineConfig names, no
 * file or unit declared twice for one role, a pool for every role, and the size of each pool's
 * rendered config. A MachineConfig that fails one is withdrawn (emits nothing). Pools declared twice
 * are left to synth's check for objects emitted twice.
 */
function check({ configs, pools }: Registry): void {
  const emitted = configs.filter((c) => c.sizeBytes > 0);
  const failed = new Set<RegisteredConfig>();
  firstOf(
    emitted,
    (c) => c.name,
    (c, first) => {
      Validation.error(
        c,
        'name',
        `MachineConfig ${c.name} is already declared by ${first.node.path}`,
        'set a different name or construct id',
      );
      failed.add(c);
    },
  );

  for (const role of new Set(emitted.map((c) => c.role))) {
    const seen = new Map<string, { config: RegisteredConfig; entry: ConfigEntry }>();
    for (const config of emitted.filter((c) => c.role === role)) {
      for (const entry of config.entries) {
        const id = `${entry.kind}:${entry.key}`;
        const first = seen.get(id);
        if (!first) {
          seen.set(id, { config, entry });
          continue;
        }
        const where =
          first.config === config ? first.entry.field : `${first.config.node.path} (${first.entry.field})`;
        Validation.error(
          config,
          entry.field,
          `${entry.kind} ${entry.key} is already declared for role ${role} by ${where}; the MCO would silently keep only one`,
          'declare it once per role',
        );
        failed.add(config);
      }
    }
  }

  const declared = new Map(pools.map((p) => [p.name, p]));
  for (const c of emitted.filter(
    (c) => c.role !== 'master' && c.role !== 'worker' && !declared.has(c.role),
  )) {
    Validation.warn(
      c,
      'pool',
      `no MachineConfigPool in this platform selects role ${c.role}; unless the cluster has one, this MachineConfig applies nowhere`,
      `declare new MachineConfigPool(platform, '${c.role}', { name: '${c.role}' }) and pass it as pool`,
    );
  }

  for (const role of new Set(['master', 'worker', ...declared.keys()])) {
    const inherits = role !== 'master' && role !== 'worker' && (declared.get(role)?.inheritsWorker ?? false);
    const members = emitted.filter((c) => c.role === role || (inherits && c.role === 'worker'));
    checkPoolSize(role, members);
  }
  for (const c of failed) c.retract();
}

/** The rendered config merges every member (each already at most 1.5 MiB); ours alone give a lower bound of its size. */
function checkPoolSize(role: string, members: readonly RegisteredConfig[]): void {
  if (members.length === 0) return;
  const total = members.reduce((n, c) => n + c.sizeBytes, 0);
  const largest = [...members].sort((a, b) => b.sizeBytes - a.sizeBytes)[0]!;
  const names = members.map((c) => c.name).join(', ');
  if (total > MAX_MACHINE_CONFIG_BYTES) {
    Validation.error(
      largest,
      '',
      `pool ${role}'s rendered MachineConfig would be at least ${total} bytes (${names}), over the MCO's limit of ${MAX_MACHINE_CONFIG_BYTES} (1.5 MiB)`,
      'move large files out of MachineConfigs (e.g. into a container image or a DaemonSet)',
    );
  } else if (total > MAX_MACHINE_CONFIG_BYTES * 0.8) {
    Validation.warn(
      largest,
      '',
      `pool ${role}'s rendered MachineConfig would be at least ${total} bytes (${names}), over 80% of the MCO's 1.5 MiB limit before its own configs are added`,
      'move large files out of MachineConfigs',
    );
  }
}

/** Calls `onDuplicate(item, first)` for every item whose key an earlier item already had. */
function firstOf<T>(
  items: readonly T[],
  key: (t: T) => string,
  onDuplicate: (item: T, first: T) => void,
): void {
  const seen = new Map<string, T>();
  for (const item of items) {
    const first = seen.get(key(item));
    if (first) onDuplicate(item, first);
    else seen.set(key(item), item);
  }
}
