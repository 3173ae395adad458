import type { KubeClient } from '../../cluster/client.js';
import type { K8sObject } from '../../core/object.js';
import { PATHS, list, mergePatch, objectPath } from './api.js';
import { systemClock, timestamp, type Clock } from './clock.js';
import { sameJson } from './json.js';
import { PollingLoop, type ErrorHandler, type Simulator } from './loop.js';
import {
  mergeCatalogs,
  syntheticCatalog,
  toSimulatorCatalog,
  type CatalogInput,
  type SimulatorCatalog,
  type SyntheticPackage,
} from './olm-catalog.js';
import { catalogSourceStatus } from './olm-catalog-source.js';
import { syncCsvPhases } from './olm-csv.js';
import { createInstallPlan, syncInstallPlan } from './olm-install-plan.js';
import { componentLabel } from './olm-manifests.js';
import { resolveNamespace } from './olm-resolve-namespace.js';
import type { VisibleCatalog } from './olm-resolve.js';
import {
  statusChanged,
  subscriptionStatus,
  withCatalogHealth,
  withCsvState,
  withInstallPlanRef,
  withInstallPlanState,
  type CatalogHealth,
  type SubscriptionStatus,
} from './olm-subscription-status.js';
import { writeStatus } from './status.js';
import { reference, specOf } from './olm-refs.js';

/** A synthetic package served by one CatalogSource (`<namespace>/<name>`). */
export interface SourcedSyntheticPackage extends SyntheticPackage {
  readonly source: string;
}

interface OlmSimulatorOptions {
  /** Catalogs by CatalogSource, keyed `<namespace>/<name>`. @default none */
  readonly catalogs?: Readonly<Record<string, CatalogInput>>;
  /** Packages without FBC files, added to their source's catalog. @default none */
  readonly synthetic?: readonly SourcedSyntheticPackage[];
  /** Only these namespaces are reconciled (tests pass their own). @default every namespace */
  readonly namespaces?: readonly string[];
  /** Where cluster-wide CatalogSources live (OLM's `-global-namespace`). @default 'openshift-marketplace' */
  readonly globalCatalogNamespace?: string;
  /** @default the system clock */
  readonly clock?: Clock;
  /** Called with the error of a failed pass in the `start` loop. */
  readonly onError?: ErrorHandler;
}

/**
 * Plays OLM v0 (catalog operator and OLM operator) against a real apiserver: CatalogSource status,
 * Subscription resolution per namespace, InstallPlans (batched, Manual when any Subscription of the
 * namespace is), CRDs, and the CSV phase walk up to `Succeeded`, replacing older CSVs on upgrades.
 * Status shapes, reasons and messages are OLM's (see `docs/simulators.md`).
 *
 * Each `tick` is one pass: CatalogSources, then each namespace's Subscriptions, then InstallPlans,
 * then CSVs, one transition per object. It writes only what changed.
 *
 * @example
 * const olm = new OlmSimulator(client, { catalogs: { 'openshift-marketplace/redhat-operators': served } });
 * olm.start(500); // or: await olm.tick() in a test
 */
export class OlmSimulator implements Simulator {
  private readonly fbc = new Map<string, SimulatorCatalog>();
  private readonly synthetic = new Map<string, SimulatorCatalog>();
  private readonly clock: Clock;
  private readonly globalNamespace: string;
  private readonly loop: PollingLoop;

  constructor(
    private readonly client: KubeClient,
    private readonly options: OlmSimulatorOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.globalNamespace = options.globalCatalogNamespace ?? 'openshift-marketplace';
    for (const [source, input] of Object.entries(options.catalogs ?? {}))
      this.fbc.set(source, toSimulatorCatalog(input));
    const bySource = new Map<string, SyntheticPackage[]>();
    for (const p of options.synthetic ?? []) bySource.set(p.source, [...(bySource.get(p.source) ?? []), p]);
    for (const [source, pkgs] of bySource) this.synthetic.set(source, syntheticCatalog(pkgs));
    this.loop = new PollingLoop(() => this.tick(), options.onError);
  }

  /**
   * Replaces (or with `undefined` removes) the FBC catalog a CatalogSource serves, e.g. to make
   * newer versions appear; synthetic packages of that source stay.
   */
  setCatalog(source: string, catalog: CatalogInput | undefined): void {
    if (catalog) this.fbc.set(source, toSimulatorCatalog(catalog));
    else this.fbc.delete(source);
  }

  /** The catalog a CatalogSource (`<namespace>/<name>`) serves now, if the simulator knows it. */
  served(source: string): SimulatorCatalog | undefined {
    const fbc = this.fbc.get(source);
    const synthetic = this.synthetic.get(source);
    if (fbc && synthetic) return mergeCatalogs(fbc, synthetic);
    return fbc ?? synthetic;
  }

  /**
   * The CatalogSources a namespace's Subscriptions may draw dependencies from: its own namespace's
   * and the global catalog namespace's (OLM's resolver reads both), sorted by `<namespace>/<name>`.
   */
  private visibleCatalogs(namespace: string): VisibleCatalog[] {
    const keys = [...new Set([...this.fbc.keys(), ...this.synthetic.keys()])].sort();
    return keys.flatMap((key) => {
      const [sourceNamespace = '', source = ''] = key.split('/');
      const served = this.served(key);
      return served && (sourceNamespace === namespace || sourceNamespace === this.globalNamespace)
        ? [{ source, sourceNamespace, served }]
        : [];
    });
  }

  start(intervalMs = 500): void {
    this.loop.start(intervalMs);
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  async tick(): Promise<void> {
    const now = timestamp(this.clock);
    const sources = await this.syncCatalogSources(now);
    const subs = await this.listScoped(PATHS.subscriptions);
    const byNamespace = new Map<string, K8sObject[]>();
    for (const s of subs) {
      const ns = s.metadata.namespace ?? '';
      byNamespace.set(ns, [...(byNamespace.get(ns) ?? []), s]);
    }
    for (const [ns, nsSubs] of [...byNamespace].sort(([a], [b]) => a.localeCompare(b))) {
      await this.syncNamespace(ns, nsSubs, sources, now);
    }
    for (const plan of await this.listScoped(PATHS.installPlans))
      await syncInstallPlan(this.client, plan, now);
    await this.syncCsvs(now);
  }

  private async listScoped(
    path: (ns?: string) => string,
    extra: readonly string[] = [],
  ): Promise<K8sObject[]> {
    const scope = this.options.namespaces;
    if (!scope) return list(this.client, path());
    const namespaces = [...new Set([...scope, ...extra])];
    return (await Promise.all(namespaces.map((ns) => list(this.client, path(ns))))).flat();
  }

  /** CatalogSource status: READY for the sources the simulator serves, TRANSIENT_FAILURE for others. */
  private async syncCatalogSources(now: string): Promise<K8sObject[]> {
    const sources = await this.listScoped(PATHS.catalogSources, [this.globalNamespace]);
    return Promise.all(
      sources.map(async (cs) => {
        const key = `${cs.metadata.namespace}/${cs.metadata.name}`;
        const next = catalogSourceStatus(cs, this.served(key) !== undefined, now);
        if (sameJson(next, cs.status)) return cs;
        return writeStatus(
          this.client,
          objectPath(PATHS.catalogSources(cs.metadata.namespace), cs.metadata.name),
          next,
        );
      }),
    );
  }

  /** `catalogHealth` entries for a namespace: its CatalogSources and the global ones, by namespace and name. */
  private catalogHealth(namespace: string, sources: readonly K8sObject[], now: string): CatalogHealth[] {
    return sources
      .filter((cs) => cs.metadata.namespace === namespace || cs.metadata.namespace === this.globalNamespace)
      .sort((a, b) =>
        `${a.metadata.namespace}${a.metadata.name}`.localeCompare(
          `${b.metadata.namespace}${b.metadata.name}`,
        ),
      )
      .map((cs) => ({
        catalogSourceRef: reference(cs),
        healthy: this.served(`${cs.metadata.namespace}/${cs.metadata.name}`) !== undefined,
        lastUpdated: now,
      }));
  }

  /**
   * OLM's namespace resolution (`syncResolvingNamespace`) with the Subscription reconcilers before
   * it: catalog health and InstallPlan conditions; then the CSV state (and, when that changed, wait
   * for the next pass as OLM does); then, unless every Subscription already waits on a plan,
   * resolve all Subscriptions together and create one InstallPlan for those that moved.
   */
  private async syncNamespace(
    namespace: string,
    subs: K8sObject[],
    sources: readonly K8sObject[],
    now: string,
  ): Promise<void> {
    subs.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
    const [csvs, plans] = await Promise.all([
      list(this.client, PATHS.csvs(namespace)),
      list(this.client, PATHS.installPlans(namespace)),
    ]);
    const csvByName = new Map(csvs.map((c) => [c.metadata.name, c]));
    const health = this.catalogHealth(namespace, sources, now);
    const next = new Map<string, SubscriptionStatus>();

    for (const sub of subs) {
      const spec = specOf(sub);
      let status = withCatalogHealth(subscriptionStatus(sub), spec, health, now);
      const ref = status.installPlanRef;
      const plan = ref ? plans.find((p) => p.metadata.name === ref.name) : undefined;
      const planStatus = plan?.status as { phase?: string; conditions?: [] } | undefined;
      status = withInstallPlanState(
        status,
        plan ? { phase: planStatus?.phase ?? '', conditions: planStatus?.conditions ?? [] } : undefined,
        now,
      );
      next.set(sub.metadata.name, status);
    }

    let csvStateChanged = false;
    for (const sub of subs) {
      const before = next.get(sub.metadata.name) as SubscriptionStatus;
      const after = withCsvState(before, !!before.currentCSV && csvByName.has(before.currentCSV));
      if (after !== before) csvStateChanged = true;
      next.set(sub.metadata.name, after);
    }

    const waiting = (s: SubscriptionStatus) => !!s.installPlanRef && s.state === 'UpgradePending';
    if (!csvStateChanged && subs.some((s) => !waiting(next.get(s.metadata.name) as SubscriptionStatus))) {
      await this.resolve(namespace, subs, next, csvByName, plans);
    }

    for (const sub of subs) {
      await this.ensureComponentLabel(sub);
      const before = subscriptionStatus(sub);
      const after = next.get(sub.metadata.name) as SubscriptionStatus;
      if (!statusChanged(before, after) && before.lastUpdated) continue;
      await writeStatus(this.client, objectPath(PATHS.subscriptions(namespace), sub.metadata.name), {
        ...after,
        lastUpdated: now,
      });
    }
  }

  /**
   * Resolves the namespace (`resolveNamespace`, pure) and acts on the decision: records every
   * Subscription's status in `next`, and when Subscriptions moved, finds the namespace's
   * InstallPlan of the requested generation or creates it, and points the moved ones at it.
   */
  private async resolve(
    namespace: string,
    subs: readonly K8sObject[],
    next: Map<string, SubscriptionStatus>,
    csvs: ReadonlyMap<string, K8sObject>,
    plans: readonly K8sObject[],
  ): Promise<void> {
    const generationOf = (p: K8sObject) => (p.spec as { generation?: number }).generation ?? 0;
    const decision = resolveNamespace({
      subscriptions: subs.map((sub) => ({
        spec: { name: sub.metadata.name, ...specOf(sub) },
        status: next.get(sub.metadata.name)!,
        manual: (sub.spec as { installPlanApproval?: string }).installPlanApproval === 'Manual',
      })),
      csvs,
      served: (source) => this.served(source),
      visible: this.visibleCatalogs(namespace),
      planGenerations: plans.map(generationOf),
    });
    for (const [name, status] of decision.statuses) next.set(name, status);
    const want = decision.plan;
    if (!want) return;
    const plan =
      plans.find((p) => generationOf(p) === want.generation) ??
      (await createInstallPlan(this.client, {
        namespace,
        generation: want.generation,
        manual: want.manual,
        ops: [...want.operators],
        owners: subs,
      }));
    for (const { subscription, csv } of want.moved)
      next.set(
        subscription,
        withInstallPlanRef(next.get(subscription)!, reference(plan), want.generation, csv),
      );
  }

  /** OLM labels each Subscription with its operator's component label (manager `olm` in real dumps). */
  private async ensureComponentLabel(sub: K8sObject): Promise<void> {
    const label = componentLabel(specOf(sub).package, sub.metadata.namespace ?? '');
    if (sub.metadata.labels?.[label] !== undefined) return;
    await mergePatch(
      this.client,
      objectPath(PATHS.subscriptions(sub.metadata.namespace), sub.metadata.name),
      {
        metadata: { labels: { [label]: '' } },
      },
    );
  }

  /** One CSV phase transition per CSV; `Deleting` CSVs are deleted. */
  private async syncCsvs(now: string): Promise<void> {
    const csvs = await this.listScoped(PATHS.csvs);
    if (csvs.length > 0) await syncCsvPhases(this.client, csvs, now);
  }
}
