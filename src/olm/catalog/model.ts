import type { BundleApi, BundleDependency } from './schema.js';

/**
 * The in-memory model of an OLM file-based catalog (FBC): what `opm` calls
 * `alpha/model`, reduced to what Groundwork needs to reason about upgrades.
 *
 * Built by `parseCatalog`/`loadCatalog`; every value is already validated, so
 * functions that take these types trust them.
 */

/** One entry of an `olm.channel` blob: the upgrade edges into `name`. */
export interface ChannelEntry {
  /** CSV (bundle) name, e.g. `foo.v0.2.0`. */
  readonly name: string;
  /** The CSV this entry replaces, if any. */
  readonly replaces?: string;
  /** CSVs this entry may be installed over directly. */
  readonly skips: readonly string[];
  /** A semver range (blang/semver syntax); any installed CSV whose version is in it may update to this entry. */
  readonly skipRange?: string;
}

/** Why an entry is missing from a channel's update order (see `Channel.order`). */
export interface ExcludedEntry {
  readonly name: string;
  /** `skipped`: listed in another entry's `skips`; `off-chain`: not on the replaces chain from the head. */
  readonly why: 'skipped' | 'off-chain';
  /** For `skipped`: the entries that skip it. */
  readonly by: readonly string[];
}

/**
 * A channel of a package with its upgrade graph.
 *
 * `head` and `order` follow OLM's resolver (`sortChannel` in
 * operator-lifecycle-manager `pkg/controller/registry/resolver/resolver.go`):
 * the head is the one entry that no other entry replaces or skips; `order` walks
 * `replaces` from the head and drops every entry another entry skips. Entries not
 * in `order` are never offered as an update (only as a fresh install).
 */
export interface Channel {
  readonly package: string;
  readonly name: string;
  /** Entries as written in the catalog. */
  readonly entries: readonly ChannelEntry[];
  /** The channel head; undefined when the graph has no single head (see `problems`). */
  readonly head: string | undefined;
  /** The update order, head first (nearest the head = newest). Empty when `problems` is not. */
  readonly order: readonly string[];
  /** Entries that are not in `order`, with the reason. */
  readonly excluded: readonly ExcludedEntry[];
  /** Graph problems that make OLM refuse to resolve in this channel (several heads, a cycle). */
  readonly problems: readonly string[];
}

/** An `olm.bundle` blob: one CSV and its version (from the `olm.package` property). */
export interface Bundle {
  readonly name: string;
  readonly package: string;
  /** Semantic version, from the bundle's `olm.package` property. */
  readonly version: string;
  readonly image: string | undefined;
  /** APIs the bundle provides (`olm.gvk`). */
  readonly provides: readonly BundleApi[];
  /** Dependencies the bundle declares (`olm.package.required`, `olm.gvk.required`). */
  readonly dependencies: readonly BundleDependency[];
}

/** An `olm.package` blob with its channels and bundles. */
export interface CatalogPackage {
  readonly name: string;
  readonly defaultChannel: string | undefined;
  /** Channels by name, in the order they appear in the catalog. */
  readonly channels: ReadonlyMap<string, Channel>;
  /** Bundles by CSV name. */
  readonly bundles: ReadonlyMap<string, Bundle>;
}

/** A whole catalog: packages by name, in the order they appear. */
export interface Catalog {
  readonly packages: ReadonlyMap<string, CatalogPackage>;
}
