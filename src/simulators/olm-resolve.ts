import { updatesFor } from './fbc.js';
import type { SimulatorCatalog } from './olm-catalog.js';
import type { ResolvedOperator } from './olm-manifests.js';

/** The parts of a Subscription that resolution reads. */
export interface SubscriptionSpec {
  readonly name: string;
  readonly package: string;
  /** Empty: the package's default channel. */
  readonly channel: string;
  readonly source: string;
  readonly sourceNamespace: string;
  readonly startingCSV: string | undefined;
}

/** The CSV a Subscription has installed (a CSV object exists), with its version for `skipRange`. */
export interface InstalledOperator {
  readonly csv: string;
  readonly version: string | undefined;
}

/** One Subscription's outcome: the CSV OLM wants installed, or why it cannot resolve. */
export type SubscriptionResolution =
  | { readonly kind: 'resolved'; readonly operator: ResolvedOperator }
  | { readonly kind: 'installed'; readonly csv: string }
  | { readonly kind: 'failed'; readonly reason: string };

/**
 * Resolves one Subscription the way OLM's resolver filters its catalog cache
 * (operator-lifecycle-manager `pkg/controller/registry/resolver/resolver.go`):
 *
 * - no package at all from the CatalogSource, the package, the channel, or the `startingCSV` in the
 *   channel missing: a failure with OLM's message (`no operators found ...`);
 * - an installed CSV: the update candidate nearest the channel head (`replaces`, `skips`,
 *   `skipRange`, see `updatesFor`), or `installed` when there is none;
 * - not installed: `startingCSV`, else the channel head.
 *
 * Pure. Ignores dependencies (`olm.gvk.required`, `olm.package.required`) and OpenShift version
 * limits, which the real solver also weighs.
 */
export function resolveSubscription(
  sub: SubscriptionSpec,
  served: SimulatorCatalog | undefined,
  installed: InstalledOperator | undefined,
): SubscriptionResolution {
  const fail = (reason: string): SubscriptionResolution => ({ kind: 'failed', reason });
  const catalog = served?.catalog;
  if (!catalog || catalog.packages.size === 0) {
    return fail(
      `no operators found from catalog ${sub.source} in namespace ${sub.sourceNamespace} referenced by subscription ${sub.name}`,
    );
  }
  const pkg = catalog.packages.get(sub.package);
  if (!pkg)
    return fail(
      `no operators found in package ${sub.package} in the catalog referenced by subscription ${sub.name}`,
    );
  const channelName = sub.channel || pkg.defaultChannel || '';
  const channel = pkg.channels.get(channelName);
  if (!channel) {
    return fail(
      `no operators found in channel ${sub.channel} of package ${sub.package} in the catalog referenced by subscription ${sub.name}`,
    );
  }

  let target: string | undefined;
  if (installed) {
    target = updatesFor(channel, { csv: installed.csv, version: installed.version })[0]?.name;
    if (!target) return { kind: 'installed', csv: installed.csv };
  } else if (sub.startingCSV) {
    if (!channel.entries.some((e) => e.name === sub.startingCSV)) {
      return fail(
        `no operators found with name ${sub.startingCSV} in channel ${sub.channel} of package ${sub.package} in the catalog referenced by subscription ${sub.name}`,
      );
    }
    target = sub.startingCSV;
  } else {
    target = channel.head;
    if (!target) {
      return fail(
        `no operators found in channel ${channelName} of package ${sub.package} in the catalog referenced by subscription ${sub.name}: ${channel.problem ?? 'the channel has no entries'}`,
      );
    }
  }
  const entry = channel.entries.find((e) => e.name === target);
  return {
    kind: 'resolved',
    operator: {
      csv: target,
      version: pkg.bundles.get(target)?.version ?? '0.0.0',
      package: sub.package,
      channel: channelName,
      source: sub.source,
      sourceNamespace: sub.sourceNamespace,
      replaces: installed?.csv ?? entry?.replaces,
      skips: entry?.skips ?? [],
      skipRange: entry?.skipRange,
      ownedCRDs: served?.ownedCRDs.get(target) ?? [],
    },
  };
}

/**
 * The message OLM puts on `ResolutionFailed` for a namespace whose solver found a Subscription it
 * cannot satisfy (the unsatisfiable constraints, then the subscription's mandatory one).
 */
export function resolutionFailedMessage(subscription: string, reason: string): string {
  return `constraints not satisfiable: ${reason}, subscription ${subscription} exists`;
}
