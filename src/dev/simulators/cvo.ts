import type { KubeClient } from '../../cluster/client.js';
import { sameDigest, type UpdateService } from './cincinnati.js';
import type { K8sObject } from '../../core/object.js';
import { PATHS, getOptional, list, objectPath } from './api.js';
import { systemClock, timestamp, type Clock } from './clock.js';
import { versionHash } from './cvo-install.js';
import { runPreconditions, summarize, upgradeableFromOperators } from './cvo-preconditions.js';
import { releaseForUpdate, resolveDesiredUpdate } from './cvo-request.js';
import { retrieveUpdates, type RiskEvaluator, type StatusCondition } from './cvo-updates.js';
import { sameJson } from './json.js';
import { PollingLoop, type ErrorHandler, type Simulator } from './loop.js';
import { writeStatus } from './status.js';
import { markDegraded, moveOperators } from './cvo-operators.js';
import { removeCondition, setCondition, type ClusterVersionStatus } from './cvo-status.js';

export type { ClusterVersionStatus, HistoryEntry } from './cvo-status.js';

export interface CvoSimulatorOptions {
  /** The ClusterVersion to reconcile. @default 'version' */
  readonly name?: string;
  /** The update service (Cincinnati responses, see `UpdateService.from`); releases carry their channels. */
  readonly updateService: UpdateService;
  /** Passes from accepting an update to completing it. @default 3 */
  readonly updateTicks?: number;
  /** Whether a conditional update's risk applies to this cluster. @default none applies */
  readonly riskApplies?: RiskEvaluator;
  /**
   * A transient failure mid-update, as real clusters show one: after `afterPasses` passes of an
   * update, `operator` (default: the first owned ClusterOperator not yet at the new version) goes
   * `Degraded=True` and the ClusterVersion `Failing=True` (`ClusterOperatorDegraded`, "Cluster
   * operator X is degraded") for `passes` passes, during which the update does not advance; then
   * both clear and the update completes. Once per update. @default none
   */
  readonly transientFailing?: {
    readonly afterPasses: number;
    readonly passes: number;
    readonly operator?: string;
  };
  /** Manifests in the payload, for the "N of M done" progress message. @default 859 */
  readonly manifests?: number;
  /** @default the system clock */
  readonly clock?: Clock;
  /** Called with the error of a failed pass in the `start` loop. */
  readonly onError?: ErrorHandler;
}

/**
 * Plays the cluster-version operator for one ClusterVersion: available and conditional updates for
 * `spec.channel` from the configured graph, `Upgradeable` from the ClusterOperators it owns, and
 * `spec.desiredUpdate` handled as the CVO does: validation (`Invalid` for a version that is not an
 * available update), signature check (unknown images are refused unless `force`), preconditions
 * (`ReleaseAccepted=False`, reason `PreconditionChecks`, e.g. a minor update while an operator says
 * `Upgradeable=False`), then a `Partial` history entry, `Progressing=True` "Working towards X" and,
 * after `updateTicks` passes, `Completed` with the ClusterOperators' versions moved to X.
 *
 * It applies no manifests and runs no operators: ClusterOperators report the new version at the end.
 *
 * @example
 * const cvo = new CvoSimulator(client, { updateService: UpdateService.from(g48, g49) });
 * await cvo.tick();
 */
export class CvoSimulator implements Simulator {
  private service: UpdateService;
  private readonly clock: Clock;
  private readonly loop: PollingLoop;
  /** Passes since the current update was accepted, by ClusterVersion uid and target image. */
  private progress: { key: string; passes: number; failed: number } | undefined;

  constructor(
    private readonly client: KubeClient,
    private readonly options: CvoSimulatorOptions,
  ) {
    this.service = options.updateService;
    this.clock = options.clock ?? systemClock;
    this.loop = new PollingLoop(() => this.tick(), options.onError);
  }

  get name(): string {
    return this.options.name ?? 'version';
  }

  /** Replaces the update service's graph (it published new edges). */
  setUpdateService(service: UpdateService): void {
    this.service = service;
  }

  start(intervalMs = 500): void {
    this.loop.start(intervalMs);
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  async tick(): Promise<void> {
    const now = timestamp(this.clock);
    const path = objectPath(PATHS.clusterVersions, this.name);
    const cv = await getOptional(this.client, path);
    if (!cv?.status) return; // the installer (installClusterVersion) writes the first status
    const operators = (await list(this.client, PATHS.clusterOperators)).filter((co) =>
      co.metadata.ownerReferences?.some((o) => o.kind === 'ClusterVersion' && o.uid === cv.metadata.uid),
    );
    const current = cv.status as ClusterVersionStatus;
    const status = structuredClone(current);
    const spec = (cv.spec ?? {}) as {
      channel?: string;
      desiredUpdate?: { version?: string; image?: string; force?: boolean } | null;
    };

    this.refreshUpdates(status, spec.channel, now);
    const blocked = upgradeableFromOperators(
      operators.map((co) => ({
        name: co.metadata.name,
        conditions: (co.status as { conditions?: StatusCondition[] } | undefined)?.conditions ?? [],
      })),
    );
    if (blocked) setCondition(status, { type: 'Upgradeable', ...blocked }, now);
    else removeCondition(status, 'Upgradeable');

    const request = resolveDesiredUpdate(spec.desiredUpdate ?? undefined, status);
    if (request.kind === 'invalid') {
      setCondition(
        status,
        { type: 'Invalid', status: 'True', reason: 'InvalidClusterVersion', message: request.message },
        now,
      );
    } else {
      removeCondition(status, 'Invalid');
    }
    if (request.kind === 'release' && !sameDigest(request.image, status.desired.image)) {
      this.accept(status, spec.channel, request, now);
    } else {
      this.reloadCurrent(status, now);
    }

    const failing = this.failingOperator(status, operators);
    const updated = this.advance(cv, status, request.kind === 'invalid', now, failing);
    status.observedGeneration = cv.metadata.generation ?? status.observedGeneration;
    if (!sameJson(status, current)) await writeStatus(this.client, path, status);
    if (this.options.transientFailing) await markDegraded(this.client, operators, failing, now);
    const [latest] = status.history;
    const from = status.history.find((h, i) => i > 0 && h.state === 'Completed')?.version;
    if (updated) await moveOperators(this.client, operators, updated.from, updated.to, operators.length);
    else if (latest?.state === 'Partial' && from && this.progress) {
      // The CVO updates ClusterOperators in runlevel order: their versions move one by one.
      const ticks = this.options.updateTicks ?? 3;
      const moved = Math.floor((operators.length * this.progress.passes) / Math.max(1, ticks));
      await moveOperators(this.client, operators, from, latest.version, moved);
    }
  }

  /** The ClusterOperator the configured transient failure degrades in this pass, if any. */
  private failingOperator(status: ClusterVersionStatus, operators: readonly K8sObject[]): string | undefined {
    const cfg = this.options.transientFailing;
    const [latest] = status.history;
    if (!cfg || latest?.state !== 'Partial' || !this.progress) return undefined;
    if (this.progress.passes < cfg.afterPasses || this.progress.failed >= cfg.passes) return undefined;
    const sorted = [...operators].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
    // Without owned ClusterOperators the CVO still names one; kube-apiserver is the usual suspect.
    return cfg.operator ?? sorted[0]?.metadata.name ?? 'kube-apiserver';
  }

  /** `availableUpdates`, `conditionalUpdates` and `RetrievedUpdates` for the release being reconciled. */
  private refreshUpdates(status: ClusterVersionStatus, channel: string | undefined, now: string): void {
    const found = retrieveUpdates(this.service, channel, status.desired.version, {
      riskApplies: this.options.riskApplies ?? (() => false),
      previous: status.conditionalUpdates ?? [],
      now,
    });
    status.availableUpdates = found.availableUpdates;
    if (found.conditionalUpdates.length > 0) status.conditionalUpdates = found.conditionalUpdates;
    else delete status.conditionalUpdates;
    if (found.current?.channels) status.desired = { ...status.desired, channels: found.current.channels };
    setCondition(status, { type: 'RetrievedUpdates', ...found.retrieved }, now);
  }

  /**
   * Loads the requested release: refused when its signature cannot be verified (an image the graph
   * does not know, unless `force`) or a blocking precondition fails; otherwise it becomes
   * `status.desired` with a new `Partial` history entry.
   */
  private accept(
    status: ClusterVersionStatus,
    channel: string | undefined,
    request: { image: string; version: string | undefined; force: boolean },
    now: string,
  ): void {
    const release = releaseForUpdate(this.service, request);
    if (!release.verified && !request.force) {
      setCondition(
        status,
        {
          type: 'ReleaseAccepted',
          status: 'False',
          reason: 'RetrievePayload',
          message: `Retrieving payload failed version="${request.version ?? ''}" image="${request.image}" failure=The update cannot be verified: unable to verify ${request.image.slice(request.image.lastIndexOf('@') + 1)} against keyrings: verifier-public-key-redhat`,
        },
        now,
      );
      return;
    }
    const failures = runPreconditions(
      {
        channel,
        desired: status.desired,
        history: status.history,
        conditions: status.conditions,
        availableUpdates: status.availableUpdates,
        conditionalUpdates: status.conditionalUpdates ?? [],
      },
      release.version,
    );
    const summary = summarize(failures, request.force);
    if (summary?.block) {
      setCondition(
        status,
        {
          type: 'ReleaseAccepted',
          status: 'False',
          reason: 'PreconditionChecks',
          message: `Preconditions failed for payload loaded version="${release.version}" image="${release.image}": ${summary.message}`,
        },
        now,
      );
      return;
    }
    setCondition(
      status,
      {
        type: 'ReleaseAccepted',
        status: 'True',
        reason: 'PayloadLoaded',
        message: `Payload loaded version="${release.version}" image="${release.image}" architecture="amd64"`,
      },
      now,
    );
    const [latest] = status.history;
    if (latest?.state === 'Partial' && latest.completionTime === null) latest.completionTime = now;
    status.history.unshift({
      ...(summary ? { acceptedRisks: summary.message } : {}),
      completionTime: null,
      image: release.image,
      startedTime: now,
      state: 'Partial',
      verified: release.verified && !request.force,
      version: release.version,
    });
    status.desired = {
      channels: release.channels,
      image: release.image,
      ...(release.url ? { url: release.url } : {}),
      version: release.version,
    };
    this.progress = undefined;
  }

  /** Back at the release it runs: `ReleaseAccepted` says so again (the CVO's "Resetting payload status"). */
  private reloadCurrent(status: ClusterVersionStatus, now: string): void {
    const accepted = status.conditions.find((c) => c.type === 'ReleaseAccepted');
    if (accepted?.status === 'True') return;
    setCondition(
      status,
      {
        type: 'ReleaseAccepted',
        status: 'True',
        reason: 'PayloadLoaded',
        message: `Payload loaded version="${status.desired.version}" image="${status.desired.image}"`,
      },
      now,
    );
  }

  /**
   * Moves a `Partial` update on by one pass, completing it after `updateTicks` passes; sets
   * `Progressing`, `Available` and `Failing` as the CVO does. Returns the versions when it completed.
   */
  private advance(
    cv: K8sObject,
    status: ClusterVersionStatus,
    invalid: boolean,
    now: string,
    failing: string | undefined,
  ): { from: string; to: string } | undefined {
    const [latest] = status.history;
    const version = status.desired.version;
    if (failing && this.progress) {
      // cluster-version-operator `pkg/cvo/status.go`: a degraded operator during an update makes
      // Failing=True (ClusterOperatorDegraded) and Progressing says what it is waiting on.
      this.progress.failed++;
      setCondition(
        status,
        {
          type: 'Failing',
          status: 'True',
          reason: 'ClusterOperatorDegraded',
          message: `Cluster operator ${failing} is degraded`,
        },
        now,
      );
      setCondition(
        status,
        {
          type: 'Progressing',
          status: 'True',
          reason: 'ClusterOperatorDegraded',
          message: `Unable to apply ${version}: the cluster operator ${failing} is degraded`,
        },
        now,
      );
      return undefined;
    }
    setCondition(status, { type: 'Failing', status: 'False' }, now);
    if (latest?.state !== 'Partial') {
      this.progress = undefined;
      setCondition(
        status,
        {
          type: 'Progressing',
          status: 'False',
          message: invalid
            ? `Stopped at ${version}: the cluster version is invalid`
            : `Cluster version is ${version}`,
        },
        now,
      );
      return undefined;
    }
    const key = `${cv.metadata.uid}/${latest.image}`;
    if (this.progress?.key !== key) this.progress = { key, passes: 0, failed: 0 };
    else this.progress.passes++;
    const ticks = this.options.updateTicks ?? 3;
    if (this.progress.passes < ticks) {
      const total = this.options.manifests ?? 859;
      const done = Math.floor((total * this.progress.passes) / ticks);
      const message = invalid
        ? `Reconciling ${version}: the cluster version is invalid`
        : done > 0
          ? `Working towards ${version}: ${done} of ${total} done (${Math.trunc((done / total) * 100)}% complete)`
          : `Working towards ${version}`;
      setCondition(status, { type: 'Progressing', status: 'True', message }, now);
      return undefined;
    }
    latest.state = 'Completed';
    latest.completionTime = now;
    status.versionHash = versionHash(latest.image);
    setCondition(status, { type: 'Available', status: 'True', message: `Done applying ${version}` }, now);
    setCondition(
      status,
      { type: 'Progressing', status: 'False', message: `Cluster version is ${version}` },
      now,
    );
    this.progress = undefined;
    const from = status.history.find((h, i) => i > 0 && h.state === 'Completed')?.version;
    return from ? { from, to: version } : undefined;
  }
}
