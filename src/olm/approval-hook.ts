import semver from 'semver';
import type { StageContext, StageHook } from '../apply/stage-hook.js';
import type { WaitCheck } from '../apply/wait.js';
import { describeRef } from '../core/object-id.js';
import type { K8sObject } from '../core/object.js';
import { decideApprovals } from './approval.js';
import { dependencyLookup, type DependencyLookup } from './dependencies.js';
import { DependencyUnresolvableError, unresolvableDependency } from './dependency-blocked.js';
import type { NamedCatalog } from './present-operator.js';
import type { ApprovalReport } from './approval-report.js';
import type { Catalog } from './catalog/model.js';
import {
  isManualApproval,
  toClusterServiceVersion,
  toInstallPlan,
  toSubscription,
  type SubscriptionLike,
} from './olm-objects.js';
import { wantedCSVs } from './pin.js';
import { operatorPinStatus, type OperatorPinStatus } from './pin-status.js';

/** Field manager of InstallPlan approvals, apart from the platform's own `groundwork`. */
const APPROVER_MANAGER = 'groundwork-approver';

const OLM = 'operators.coreos.com/v1alpha1';

interface Pin {
  sub: string;
  namespace: string;
  package: string;
  channel: string;
  pin: string;
}

/**
 * The subscriptions stage's hook: Groundwork plays the InstallPlan approver for pinned operators
 * (Manual approval with a `startingCSV`), approving exactly the plans whose CSVs are all on their
 * operator's path to its pin, and waits until every pinned operator sits at its pin.
 *
 * The path comes from the repository's catalog files when they carry the package (OLM's rules,
 * see upgrade-path.ts); otherwise a CSV is on the path when it belongs to the package and its
 * version is newer than the installed one and not newer than the pin (OLM only offers graph hops).
 * An unreachable pin refuses the apply before anything is written.
 */
export function olmApprovalHook(opts: {
  catalogs: readonly Catalog[];
  /** Told, on every check, what was decided for each pinned operator (the agent publishes it in its status). */
  publish?: (pins: OperatorPinStatus[]) => void;
}): StageHook {
  const catalogFor = (pkg: string) => opts.catalogs.find((c) => c.packages.has(pkg));
  const dependencies = dependencyLookup(opts.catalogs);
  const named = opts.catalogs.map((catalog, i) => ({ name: `catalog ${i + 1}`, catalog }));
  return {
    async preflight(ctx) {
      const problems = pinsOf(ctx.items.map((i) => i.desired!)).flatMap((p) => {
        const catalog = catalogFor(p.package);
        if (!catalog) return [];
        const r = wantedCSVs(
          catalog,
          { package: p.package, channel: p.channel, pin: p.pin, startingCSV: p.pin, installed: undefined },
          `Subscription/${p.namespace}/${p.sub}`,
        );
        return r.ok || r.path.ok
          ? []
          : [`Subscription/${p.namespace}/${p.sub}: pin ${p.pin} unreachable: ${r.path.message}`];
      });
      return problems.length ? problems.join('; ') : undefined;
    },
    async duringWait(ctx) {
      for (const report of await approvals(ctx, catalogFor, dependencies)) {
        for (const name of report.toApprove) {
          await ctx.target.apply(
            {
              apiVersion: OLM,
              kind: 'InstallPlan',
              metadata: { name, namespace: report.namespace },
              spec: { approved: true },
            },
            { force: true, fieldManager: APPROVER_MANAGER },
          );
          ctx.notice(
            `approved InstallPlan ${report.namespace}/${name}: ${report.verdicts.find((v) => v.installPlan === name)?.message ?? ''}`,
          );
        }
      }
    },
    async check(ctx) {
      const reports = await approvals(ctx, catalogFor, dependencies);
      if (opts.publish) {
        const pins = pinsOf(ctx.items.map((i) => i.desired!));
        const subscriptions: SubscriptionLike[] = [];
        for (const namespace of [...new Set(pins.map((p) => p.namespace))])
          subscriptions.push(...(await ctx.target.list(OLM, 'Subscription', namespace)).map(toSubscription));
        opts.publish(operatorPinStatus(pins, subscriptions, reports));
      }
      return pinnedCheck(ctx, reports, named);
    },
  };
}

/** The pinned Subscriptions among the desired objects (each checked with the Subscription schema). */
function pinsOf(objects: readonly K8sObject[]): Pin[] {
  return objects
    .filter((o) => o.kind === 'Subscription')
    .map(toSubscription)
    .flatMap(({ metadata, spec }) =>
      isManualApproval(spec.installPlanApproval) && spec.startingCSV && spec.channel
        ? [
            {
              sub: metadata.name,
              namespace: metadata.namespace ?? '',
              package: spec.name,
              channel: spec.channel,
              pin: spec.startingCSV,
            },
          ]
        : [],
    );
}

async function approvals(
  ctx: StageContext,
  catalogFor: (pkg: string) => Catalog | undefined,
  dependencies: DependencyLookup,
): Promise<ApprovalReport[]> {
  const pins = pinsOf(ctx.items.map((i) => i.desired!));
  const reports: ApprovalReport[] = [];
  for (const namespace of [...new Set(pins.map((p) => p.namespace))].sort()) {
    const subscriptions = (await ctx.target.list(OLM, 'Subscription', namespace)).map(toSubscription);
    const installPlans = (await ctx.target.list(OLM, 'InstallPlan', namespace)).map(toInstallPlan);
    const wanted = new Map<string, Set<string>>();
    for (const p of pins.filter((x) => x.namespace === namespace)) {
      const live = subscriptions.find((s) => s.metadata.name === p.sub);
      wanted.set(
        p.sub,
        wantedFor(
          p,
          live,
          installPlans.flatMap((ip) => ip.spec.clusterServiceVersionNames),
          catalogFor(p.package),
        ),
      );
    }
    reports.push(decideApprovals({ namespace, installPlans, subscriptions, wanted, dependencies }));
  }
  return reports;
}

/** The CSVs on the way from the installed CSV to the pin. */
function wantedFor(
  p: Pin,
  live: SubscriptionLike | undefined,
  offered: readonly string[],
  catalog: Catalog | undefined,
): Set<string> {
  const installed = live?.status?.installedCSV;
  if (catalog) {
    const r = wantedCSVs(
      catalog,
      { package: p.package, channel: p.channel, pin: p.pin, startingCSV: p.pin, installed },
      `Subscription/${p.namespace}/${p.sub}`,
    );
    return r.ok ? new Set(r.wanted) : new Set();
  }
  const pinVersion = versionOf(p.pin);
  const from = installed ? versionOf(installed) : undefined;
  return new Set(
    offered.filter((csv) => {
      if (csv === p.pin) return true;
      const v = versionOf(csv);
      return (
        csv.startsWith(`${p.package}.`) &&
        v !== undefined &&
        pinVersion !== undefined &&
        semver.lte(v, pinVersion) &&
        (from === undefined || semver.gt(v, from))
      );
    }),
  );
}

function versionOf(csv: string): string | undefined {
  const m = /\.v?(\d+\.\d+\.\d+[^\s]*)$/.exec(csv);
  return m ? (semver.valid(m[1]!) ?? undefined) : undefined;
}

/**
 * Done when every Subscription's CSV Succeeded and every pinned one sits at its pin; a blocked plan
 * fails. A pinned Subscription a dependency keeps from its pin fails at once, without waiting for
 * the timeout. @throws DependencyUnresolvableError (see `unresolvableDependency`)
 */
async function pinnedCheck(
  ctx: StageContext,
  reports: readonly ApprovalReport[],
  catalogs: readonly NamedCatalog[],
): Promise<WaitCheck> {
  const pending: string[] = [];
  for (const r of reports) {
    const blocked = r.verdicts.find((v) => v.decision === 'blocked' || v.decision === 'failed');
    if (blocked)
      return {
        done: false,
        pending,
        failed: `InstallPlan ${r.namespace}/${blocked.installPlan}: ${blocked.message}${blocked.fix ? ` (fix: ${blocked.fix})` : ''}`,
      };
  }
  const pinned = new Map(pinsOf(ctx.items.map((i) => i.desired!)).map((p) => [`${p.namespace}/${p.sub}`, p]));
  for (const item of ctx.items) {
    const subscriptions = await ctx.target.list(OLM, 'Subscription', item.ref.namespace);
    const found = subscriptions.find((s) => s.metadata.name === item.ref.name);
    const live = found && toSubscription(found);
    const installed = live?.status?.installedCSV;
    const p = pinned.get(`${item.ref.namespace}/${item.ref.name}`);
    const pin = p?.pin;
    if (live && p && installed !== p.pin) {
      const csvs = await ctx.target.list(OLM, 'ClusterServiceVersion', item.ref.namespace);
      const why = unresolvableDependency({
        live,
        pinned: p,
        catalogs,
        namespaceCSVs: csvs.map((c) => c.metadata.name),
        namespaceSubscriptions: subscriptions.map(toSubscription),
      });
      if (why) throw new DependencyUnresolvableError(describeRef(item.ref), why);
    }
    if (!installed) {
      pending.push(
        `${describeRef(item.ref)}: no CSV installed yet (${live?.status?.state ?? 'not resolved'})`,
      );
      continue;
    }
    if (pin && installed !== pin) {
      pending.push(`${describeRef(item.ref)}: at ${installed}, walking to pin ${pin}`);
      continue;
    }
    const csv = (await ctx.target.list(OLM, 'ClusterServiceVersion', item.ref.namespace)).find(
      (c) => c.metadata.name === installed,
    );
    const phase = csv && toClusterServiceVersion(csv).status?.phase;
    if (phase !== 'Succeeded')
      pending.push(`${describeRef(item.ref)}: CSV ${installed} ${phase ?? 'not created yet'}`);
  }
  if (pending.length > 0 && !ctx.wait) return { done: false, pending, deferred: pending.join('; ') };
  return { done: pending.length === 0, pending };
}
