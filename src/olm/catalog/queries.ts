import type { Bundle, Catalog, CatalogPackage, Channel } from './model.js';

/** A package as listed to people: name, default channel and channel names. */
export interface PackageSummary {
  readonly name: string;
  readonly defaultChannel: string | undefined;
  readonly channels: readonly string[];
}

/** A channel as listed to people: its head and its versions in update order. */
export interface ChannelSummary {
  readonly package: string;
  readonly name: string;
  readonly isDefault: boolean;
  readonly head: string | undefined;
  /** OLM's update order, oldest first, ending with the head; skipped entries are not in it. */
  readonly versions: readonly { readonly csv: string; readonly version: string }[];
  /** Entries never offered as updates (skipped, or off the replaces chain); installable only fresh. */
  readonly excluded: readonly string[];
  readonly problems: readonly string[];
}

/** Packages in catalog order. */
export function listPackages(catalog: Catalog): PackageSummary[] {
  return [...catalog.packages.values()].map((p) => ({
    name: p.name,
    defaultChannel: p.defaultChannel,
    channels: [...p.channels.keys()],
  }));
}

/** Channels of a package in catalog order; empty for an unknown package. */
export function listChannels(catalog: Catalog, pkg: string): ChannelSummary[] {
  const p = catalog.packages.get(pkg);
  return p ? [...p.channels.values()].map((c) => summarizeChannel(p, c)) : [];
}

/** Looks a channel up; undefined when the package or channel is unknown. */
export function findChannel(catalog: Catalog, pkg: string, channel: string): Channel | undefined {
  return catalog.packages.get(pkg)?.channels.get(channel);
}

/** Looks a bundle (CSV) of a package up by name. */
export function findBundle(catalog: Catalog, pkg: string, csv: string): Bundle | undefined {
  return catalog.packages.get(pkg)?.bundles.get(csv);
}

function summarizeChannel(p: CatalogPackage, c: Channel): ChannelSummary {
  return {
    package: p.name,
    name: c.name,
    isDefault: p.defaultChannel === c.name,
    head: c.head,
    versions: [...c.order].reverse().map((csv) => ({ csv, version: p.bundles.get(csv)?.version ?? '?' })),
    excluded: c.excluded.map((e) => e.name),
    problems: c.problems,
  };
}
