import type { KubeClient } from '../../cluster/client.js';
import { GroundworkError } from '../../core/errors.js';
import type { K8sObject } from '../../core/object.js';
import { PATHS, getOptional, list, mergePatch, objectPath } from './api.js';
import { systemClock, timestamp, type Clock } from './clock.js';
import { sameJson } from './json.js';
import { selectsEverything, type LabelSelector } from '../../core/label-selector.js';
import { PollingLoop, type ErrorHandler, type Simulator } from './loop.js';
import { drainPass } from './mco-drain.js';
import { nodePatch, nodeReady, poolMembers, simNodeOf } from './mco-node-objects.js';
import { maxUnavailable, stepNodes, type SimNode } from './mco-nodes.js';
import { poolStatus, type PoolStatus } from './mco-pool-status.js';
import { renderPool, renderedMachineConfig } from './mco-render.js';
import { writeStatus } from './status.js';

interface McoSimulatorOptions {
  /** Only these pools are reconciled (tests pass their own). @default every MachineConfigPool */
  readonly pools?: readonly string[];
  /** Simulated nodes per pool without Node objects. @default master 3, worker 3, any other pool 2 */
  readonly nodes?: Readonly<Record<string, number>>;
  /** Passes a node takes to apply a configuration (drain, write, reboot). @default 1 */
  readonly nodeUpdateTicks?: number;
  /** Create the rendered MachineConfig objects, as the MCO does. @default true */
  readonly renderMachineConfigs?: boolean;
  /** `generated-by-controller-version` of rendered configs. @default the 4.14.1 MCO's, from the dumps */
  readonly controllerVersion?: string;
  /**
   * The release the MCO belongs to (`release-image-version` annotation, part of the rendered name).
   * @default `status.desired.version` of ClusterVersion `version` when there is one
   */
  readonly releaseVersion?: string;
  /** @default the system clock */
  readonly clock?: Clock;
  /** Called with the error of a failed pass in the `start` loop. */
  readonly onError?: ErrorHandler;
}

/** The pool asked for by `degradeNode`/`recoverNode` is not simulated (yet). */
class UnknownPoolError extends GroundworkError {
  constructor(pool: string) {
    super({
      code: 'UnknownPool',
      subject: `MachineConfigPool/${pool}`,
      message: 'the MCO simulator has no nodes for this pool yet',
      fix: 'run a tick after creating the pool',
    });
  }
}

const DEFAULT_CONTROLLER_VERSION = '5ac7b4ae0bca76358e4d40f546306775a8e0ea2c';

/**
 * Plays the machine-config operator's render and node controllers against a real apiserver:
 * renders each pool's MachineConfigs (`rendered-<pool>-<hash>` into `spec.configuration`, plus the
 * rendered MachineConfig object), reports RenderDegraded for configs the MCO would refuse, and rolls
 * simulated nodes to the new configuration at most `maxUnavailable` at a time, not while
 * `spec.paused`. Pool status has the shape and messages of real dumps.
 *
 * A pool whose `spec.nodeSelector` selects Node objects (the local cluster's KWOK nodes) rolls those:
 * the simulator owns their machine-config annotations (`MCO_NODE_ANNOTATIONS`) and
 * `spec.unschedulable`, cordons a node it updates, drains it through the Eviction API (DaemonSet pods
 * stay; a PodDisruptionBudget holds the update until it allows the eviction), "reboots" it and
 * uncordons it; the node's status (KWOK's) is only read, for the ready count. A pool that selects no
 * Node has nodes in the simulator's memory only. Either way a new simulator starts a node it has not
 * seen at the pool's `status.configuration` (or the first rendered config, as after an install).
 *
 * @example
 * const mco = new McoSimulator(client, { pools: ['worker'] });
 * await mco.tick();
 */
export class McoSimulator implements Simulator {
  private readonly clock: Clock;
  private readonly loop: PollingLoop;
  /** Nodes by pool uid. */
  private readonly machines = new Map<string, { pool: string; nodes: SimNode[] }>();

  constructor(
    private readonly client: KubeClient,
    private readonly options: McoSimulatorOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.loop = new PollingLoop(() => this.tick(), options.onError);
  }

  start(intervalMs = 500): void {
    this.loop.start(intervalMs);
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /**
   * Makes one node of a pool report a failed update (`Degraded`, with `message` as the daemon's
   * reason), so the pool turns NodeDegraded on the next pass. @default the first node, by name
   */
  degradeNode(pool: string, message: string, opts: { node?: string } = {}): void {
    const node = this.nodeOf(pool, opts.node);
    node.state = 'Degraded';
    node.reason = message;
  }

  /** Clears a `degradeNode`: the node resumes (or finishes) its update. */
  recoverNode(pool: string, opts: { node?: string } = {}): void {
    const node = this.nodeOf(pool, opts.node);
    node.state = node.current === node.desired ? 'Done' : 'Working';
    node.workLeft = this.options.nodeUpdateTicks ?? 1;
    delete node.reason;
  }

  /** A copy of a pool's simulated nodes (empty before the pool's first pass). */
  nodes(pool: string): SimNode[] {
    return structuredClone([...this.machines.values()].find((m) => m.pool === pool)?.nodes ?? []);
  }

  async tick(): Promise<void> {
    const now = timestamp(this.clock);
    const [pools, configs, release, nodes] = await Promise.all([
      list(this.client, PATHS.machineConfigPools),
      list(this.client, PATHS.machineConfigs),
      this.releaseVersion(),
      list(this.client, PATHS.nodes),
    ]);
    const members = poolMembers(pools, nodes);
    const wanted = this.options.pools;
    for (const pool of pools.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))) {
      if (wanted && !wanted.includes(pool.metadata.name)) continue;
      await this.syncPool(pool, configs, release, now, members.get(pool.metadata.name) ?? []);
    }
  }

  private async syncPool(
    pool: K8sObject,
    configs: readonly K8sObject[],
    release: string | undefined,
    now: string,
    members: readonly K8sObject[],
  ): Promise<void> {
    const spec = (pool.spec ?? {}) as {
      machineConfigSelector?: LabelSelector;
      paused?: boolean;
      maxUnavailable?: unknown;
      configuration?: { name?: string; source?: unknown[] };
    };
    if (selectsEverything(spec.machineConfigSelector)) return; // the MCO refuses a pool selecting every config
    const path = objectPath(PATHS.machineConfigPools, pool.metadata.name);
    const rendered = renderPool(pool, configs, release);
    let current = pool;
    const failures = new Map<string, string>();
    if (rendered.ok) {
      if (rendered.nodeFailure) failures.set(rendered.name, rendered.nodeFailure);
      if (this.options.renderMachineConfigs ?? true) await this.ensureRendered(pool, rendered, release);
      const configuration = { name: rendered.name, source: rendered.source };
      if (!sameJson(spec.configuration, configuration))
        current = await mergePatch(this.client, path, { spec: { configuration } });
    }
    const target = (current.spec as { configuration?: { name?: string } }).configuration?.name || undefined;
    const previous = pool.status as PoolStatus | undefined;
    const nodes = this.nodesFor(pool, previous?.configuration?.name ?? target, members);
    const draining = new Set<string>();
    for (const n of members.length ? nodes : []) {
      if (n.state === 'Working' && (await drainPass(this.client, n.name)) > 0) draining.add(n.name);
    }
    if (target) {
      stepNodes(nodes, {
        target,
        paused: spec.paused === true,
        maxUnavailable: maxUnavailable(spec.maxUnavailable, nodes.length),
        workTicks: this.options.nodeUpdateTicks ?? 1,
        failures,
        draining,
      });
    }
    for (const node of members) {
      const sim = nodes.find((n) => n.name === node.metadata.name);
      const patch = sim && nodePatch(node, sim, { draining: draining.has(sim.name) });
      if (patch) await mergePatch(this.client, objectPath(PATHS.nodes, node.metadata.name), patch);
    }
    const status = poolStatus({
      previous,
      generation: current.metadata.generation ?? 1,
      target,
      nodes,
      paused: spec.paused === true,
      renderError: rendered.ok ? undefined : rendered.message,
      now,
    });
    if (!sameJson(status, previous)) await writeStatus(this.client, path, status);
  }

  private async ensureRendered(
    pool: K8sObject,
    rendered: { name: string; spec: Record<string, unknown> },
    release: string | undefined,
  ): Promise<void> {
    const path = objectPath(PATHS.machineConfigs, rendered.name);
    if (await getOptional(this.client, path)) return;
    const mc = renderedMachineConfig(pool, rendered, {
      controllerVersion: this.options.controllerVersion ?? DEFAULT_CONTROLLER_VERSION,
      releaseVersion: release,
    });
    await this.client.request('POST', PATHS.machineConfigs, { body: mc, noRetry: true });
  }

  /**
   * The pool's nodes, created on first sight running `initial` (nothing to roll after an install):
   * one per Node object in `members` (kept across passes, readiness refreshed), else in memory only.
   */
  private nodesFor(pool: K8sObject, initial: string | undefined, members: readonly K8sObject[]): SimNode[] {
    const uid = pool.metadata.uid ?? pool.metadata.name;
    let entry = this.machines.get(uid);
    if (members.length > 0) {
      const known = new Map((entry?.nodes ?? []).map((n) => [n.name, n]));
      const ticks = this.options.nodeUpdateTicks ?? 1;
      const nodes = initial
        ? members.map((m) => {
            const sim = known.get(m.metadata.name) ?? simNodeOf(m, initial, ticks);
            sim.ready = nodeReady(m);
            return sim;
          })
        : [];
      this.machines.set(uid, { pool: pool.metadata.name, nodes });
      return nodes;
    }
    if (!entry || (entry.nodes.length === 0 && initial)) {
      const name = pool.metadata.name;
      const count = this.options.nodes?.[name] ?? (name === 'master' || name === 'worker' ? 3 : 2);
      const nodes = initial
        ? Array.from({ length: count }, (_, i): SimNode => ({
            name: `${name}-${i}`,
            current: initial,
            desired: initial,
            state: 'Done',
            workLeft: 0,
          }))
        : [];
      entry = { pool: name, nodes };
      this.machines.set(uid, entry);
    }
    return entry.nodes;
  }

  private nodeOf(pool: string, node: string | undefined): SimNode {
    const nodes = [...this.machines.values()].find((m) => m.pool === pool)?.nodes ?? [];
    const found = node
      ? nodes.find((n) => n.name === node)
      : [...nodes].sort((a, b) => a.name.localeCompare(b.name))[0];
    if (!found) throw new UnknownPoolError(pool);
    return found;
  }

  private async releaseVersion(): Promise<string | undefined> {
    if (this.options.releaseVersion) return this.options.releaseVersion;
    const cv = await getOptional(this.client, objectPath(PATHS.clusterVersions, 'version')).catch(
      () => undefined,
    );
    return (cv?.status as { desired?: { version?: string } } | undefined)?.desired?.version;
  }
}
