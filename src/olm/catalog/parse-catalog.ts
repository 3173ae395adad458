import { buildChannel } from './channel-graph.js';
import type { CatalogFile, CatalogProblem } from './blobs.js';
import { CatalogInvalidError } from './errors.js';
import type { Bundle, Catalog, CatalogPackage, Channel } from './model.js';
import type { ChannelDecl, PackageDecl } from './quick-check.js';
import { typedBlobs, type Located } from './typed-blobs.js';

export interface ParseCatalogOptions {
  /** Names the catalog in the error; @default the first file's path */
  readonly subject?: string;
}

/**
 * Builds the catalog model from FBC file contents. Pure: the caller reads the files.
 *
 * Checks, besides each blob's shape: no duplicate package, channel (per package)
 * or bundle; channels and bundles belong to a declared package; every channel
 * entry has a bundle and every bundle is in some channel; `defaultChannel`, when
 * set, names a channel. Channel graph problems (several heads, a cycle) do not
 * fail the load: they are kept in `Channel.problems`, because OLM reports them
 * only when it resolves in that channel.
 *
 * @throws CatalogInvalidError with every problem found, each naming file and blob.
 * @example
 * const catalog = parseCatalog([{ path: 'index.yaml', text }]);
 * catalog.packages.get('foo')?.channels.get('beta')?.head; // 'foo.v0.3.1'
 */
export function parseCatalog(files: readonly CatalogFile[], options: ParseCatalogOptions = {}): Catalog {
  const typed = typedBlobs(files);
  const problems: CatalogProblem[] = [...typed.problems];
  const report = (l: Located<unknown>, message: string, path?: string): void => {
    problems.push({ file: l.ref.file, blob: l.label, ...(path === undefined ? {} : { path }), message });
  };
  const firstSeen = (l: Located<unknown>): string => `${l.ref.file} ${l.label}`;

  const pkgs = new Map<string, Located<PackageDecl>>();
  for (const p of typed.packages) {
    const seen = pkgs.get(p.blob.name);
    if (seen) report(p, `package ${p.blob.name} is already declared at ${firstSeen(seen)}`, 'name');
    else pkgs.set(p.blob.name, p);
  }

  const channels = new Map<string, Map<string, Located<ChannelDecl>>>();
  for (const c of typed.channels) {
    if (!pkgs.has(c.blob.package)) {
      if (!typed.rejected.packages.has(c.blob.package))
        report(c, `package ${c.blob.package} has no olm.package blob`, 'package');
      continue;
    }
    const inPkg = channels.get(c.blob.package) ?? new Map<string, Located<ChannelDecl>>();
    channels.set(c.blob.package, inPkg);
    const seen = inPkg.get(c.blob.name);
    if (seen) report(c, `channel ${c.blob.name} is already declared at ${firstSeen(seen)}`, 'name');
    else inPkg.set(c.blob.name, c);
  }

  const bundles = new Map<string, Map<string, Located<Bundle>>>();
  for (const b of typed.bundles) {
    if (!pkgs.has(b.blob.package)) {
      if (!typed.rejected.packages.has(b.blob.package))
        report(b, `package ${b.blob.package} has no olm.package blob`, 'package');
      continue;
    }
    const inPkg = bundles.get(b.blob.package) ?? new Map<string, Located<Bundle>>();
    bundles.set(b.blob.package, inPkg);
    const seen = inPkg.get(b.blob.name);
    if (seen) report(b, `bundle ${b.blob.name} is already declared at ${firstSeen(seen)}`, 'name');
    else inPkg.set(b.blob.name, b);
  }

  for (const [name, p] of pkgs) {
    const pkgChannels = channels.get(name) ?? new Map<string, Located<ChannelDecl>>();
    const pkgBundles = bundles.get(name) ?? new Map<string, Located<Bundle>>();
    // With a channel blob already rejected, "no channel" and "in no channel" would only repeat that problem.
    const channelRejected = typed.rejected.channelsOf.has(name);
    if (pkgChannels.size === 0 && !channelRejected) report(p, `package ${name} has no olm.channel blob`);
    const def = p.blob.defaultChannel;
    if (def !== undefined && pkgChannels.size > 0 && !channelRejected && !pkgChannels.has(def)) {
      report(p, `default channel ${def} is not a channel of package ${name}`, 'defaultChannel');
    }
    const listed = new Set<string>();
    for (const c of pkgChannels.values()) {
      const { entries } = c.blob;
      for (let i = 0; i < entries.length; i++) {
        const e = entries[i]!;
        listed.add(e.name);
        if (!pkgBundles.has(e.name) && !typed.rejected.bundles.has(e.name)) {
          report(c, `entry ${e.name} has no olm.bundle blob`, `entries.${i}.name`);
        }
      }
    }
    for (const b of pkgBundles.values()) {
      if (!listed.has(b.blob.name) && !channelRejected)
        report(b, `bundle ${b.blob.name} is in no channel of package ${name}`);
    }
  }

  if (problems.length > 0) {
    throw new CatalogInvalidError(options.subject ?? files[0]?.path ?? '(catalog)', problems);
  }
  return { packages: new Map([...pkgs].map(([name, p]) => [name, toPackage(p.blob, channels, bundles)])) };
}

function toPackage(
  p: PackageDecl,
  channels: ReadonlyMap<string, ReadonlyMap<string, Located<ChannelDecl>>>,
  bundles: ReadonlyMap<string, ReadonlyMap<string, Located<Bundle>>>,
): CatalogPackage {
  const chans = new Map<string, Channel>();
  for (const { blob } of channels.get(p.name)?.values() ?? []) {
    chans.set(blob.name, buildChannel(p.name, blob.name, blob.entries));
  }
  const bs = new Map<string, Bundle>();
  for (const { blob } of bundles.get(p.name)?.values() ?? []) bs.set(blob.name, blob);
  return { name: p.name, defaultChannel: p.defaultChannel, channels: chans, bundles: bs };
}
