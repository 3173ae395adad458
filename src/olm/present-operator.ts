import semver from 'semver';
import { updateCandidates } from './candidates.js';
import type { Bundle, Catalog } from './catalog/model.js';
import type { BundleApi, BundleDependency } from './catalog/schema.js';

/** A catalog with the name people know it by (its file in groundwork.yaml, the `-f` path). */
export interface NamedCatalog {
  readonly name: string;
  readonly catalog: Catalog;
}

/** The Subscription a present operator is installed by: the channel it follows, in a catalog. */
export interface OperatorSubscription {
  readonly channel: string;
  /** The name of the catalog the Subscription resolves from; undefined: the first that has the channel. */
  readonly catalog: string | undefined;
}

/** An operator already in the namespace (or installed by an earlier hop). */
export interface PresentOperator {
  readonly csv: string;
  readonly package: string;
  readonly version: string;
  readonly provides: readonly BundleApi[];
  /**
   * The Subscription that references it (its `status.installedCSV`), which alone may move it:
   * OLM replaces an installed CSV only with one of its Subscription's update candidates. Undefined
   * for a CSV no Subscription references, which OLM keeps in every solution (`Mandatory`).
   */
  readonly subscription: OperatorSubscription | undefined;
}

/** A bundle as an operator in the namespace, installed by `subscription` (or by none). */
export function presentOf(b: Bundle, subscription: OperatorSubscription | undefined): PresentOperator {
  return { csv: b.name, package: b.package, version: b.version, provides: b.provides, subscription };
}

/** A CSV that may replace a present operator: one of its Subscription's update candidates. */
export interface Successor {
  readonly csv: string;
  readonly channel: string;
  readonly catalog: string;
}

/**
 * The CSVs OLM may replace `op` with, nearest the channel head first: the update candidates of
 * its Subscription's channel (entries that replace or skip it, or whose `skipRange` holds its
 * version: one hop, never further), as OLM's `getSubscriptionVariables` lists them for an
 * installed CSV (operator-lifecycle-manager `pkg/controller/registry/resolver/resolver.go`). None
 * for a CSV without a Subscription (`NewBundleVariableFromOperator` makes it mandatory) or whose
 * channel no catalog has. Pure.
 */
export function successorsOf(op: PresentOperator, catalogs: readonly NamedCatalog[]): Successor[] {
  const sub = op.subscription;
  if (!sub) return [];
  const named =
    catalogs.find((c) => c.name === sub.catalog && c.catalog.packages.has(op.package)) ??
    catalogs.find((c) => c.catalog.packages.get(op.package)?.channels.has(sub.channel));
  const channel = named?.catalog.packages.get(op.package)?.channels.get(sub.channel);
  if (!named || !channel) return [];
  return updateCandidates(channel, { csv: op.csv, version: op.version }).map((c) => ({
    csv: c.entry.name,
    channel: sub.channel,
    catalog: named.name,
  }));
}

/**
 * Why `op` keeps a candidate out: `etcdoperator.v0.6.1 is installed and no Subscription references
 * it, so OLM keeps it`, or what its Subscription may move it to.
 */
export function describeHold(op: PresentOperator, successors: readonly Successor[]): string {
  if (!op.subscription) return `${op.csv} is installed and no Subscription references it, so OLM keeps it`;
  const to =
    successors.length > 0 ? successors.map((s) => s.csv).join(', ') : 'nothing (no update edge from it)';
  return `${op.csv} is installed and its Subscription (channel ${op.subscription.channel}) can move it only to ${to}`;
}

/**
 * The longest version range `heldRequirementMeets` compares: `semver.subset` takes time in the
 * product of the two ranges' `||` clauses, and catalogs come from the repository (real ranges are
 * a few dozen characters). A longer range is never taken as met this way.
 */
export const MAX_COMPARED_RANGE = 256;

/**
 * Whether a requirement that held when an installed CSV was installed (`held`) guarantees `req`:
 * the same API, or the same package with a range inside `req`'s (every version the held range
 * allows is in `req`'s, `semver.subset`). The operators that met the installed CSV's requirements
 * are in the namespace, whether or not a catalog shows them. False for a range longer than
 * `MAX_COMPARED_RANGE` or one that does not parse. Pure.
 */
export function heldRequirementMeets(held: BundleDependency, req: BundleDependency): boolean {
  if (held.type === 'gvk' || req.type === 'gvk') {
    return (
      held.type === 'gvk' &&
      req.type === 'gvk' &&
      held.group === req.group &&
      held.version === req.version &&
      held.kind === req.kind
    );
  }
  if (held.packageName !== req.packageName) return false;
  if (held.versionRange.length > MAX_COMPARED_RANGE || req.versionRange.length > MAX_COMPARED_RANGE)
    return false;
  const opts = { includePrerelease: true };
  if (
    semver.validRange(held.versionRange, opts) === null ||
    semver.validRange(req.versionRange, opts) === null
  )
    return false;
  return semver.subset(held.versionRange, req.versionRange, opts);
}
