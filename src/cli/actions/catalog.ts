import { KubeClient } from '../../cluster/client.js';
import { Discovery } from '../../cluster/discovery.js';
import { listAll } from '../../cluster/list.js';
import { GroundworkError } from '../../core/errors.js';
import { catalogFromPackageManifests } from '../../olm/catalog/from-package-manifests.js';
import {
  listChannels,
  listPackages,
  loadCatalog,
  USER_CATALOG_MAX_BYTES,
  type Catalog,
} from '../../olm/catalog/index.js';
import { pathDependencies, renderPathDependencies } from '../../olm/path-dependencies.js';
import { presentOf, type NamedCatalog, type PresentOperator } from '../../olm/present-operator.js';
import { upgradePath } from '../../olm/upgrade-path.js';
import type { SetExitCode } from '../commands/command-module.js';
import { connectionOf } from '../cluster-flags.js';
import { ExitCode } from '../exit-code.js';
import { outputOf } from '../output.js';
import { render } from '../render.js';

/** Where a catalog command reads its catalog: a file-based catalog, or a cluster's PackageManifests. */
export interface CatalogSourceFlags {
  file?: string;
  kubeconfig?: string;
  context?: string;
  format: string;
}

export interface CatalogPathFlags extends CatalogSourceFlags {
  channel?: string;
  to: string;
  from?: string;
  /** CSVs installed by a Subscription: `<csv>` (its package's default channel) or `<csv>@<channel>`. */
  installed?: string[];
  /** CSVs in the namespace that no Subscription references. */
  unsubscribed?: string[];
}

/** `catalog packages`: every package with its default channel and channels. */
export async function runCatalogPackages(flags: CatalogSourceFlags): Promise<void> {
  const packages = listPackages(await load(flags));
  print(flags, packages, () =>
    packages
      .map(
        (p) => `${p.name.padEnd(40)} default ${p.defaultChannel ?? '-'}   channels ${p.channels.join(', ')}`,
      )
      .join('\n'),
  );
}

/** `catalog channels <package>`: each channel's head and versions in update order. */
export async function runCatalogChannels(pkg: string, flags: CatalogSourceFlags): Promise<void> {
  const channels = listChannels(await load(flags), pkg);
  if (channels.length === 0)
    throw new GroundworkError({ code: 'UnknownPackage', subject: pkg, message: 'not in the catalog' });
  print(flags, channels, () =>
    channels
      .map((c) =>
        [
          `${c.name}${c.isDefault ? ' (default)' : ''}: head ${c.head ?? '-'}`,
          `  update order: ${c.versions.map((v) => v.version).join(' → ')}`,
          ...(c.excluded.length
            ? [`  install-only (never offered as update): ${c.excluded.join(', ')}`]
            : []),
          ...c.problems.map((p) => `  problem: ${p}`),
        ].join('\n'),
      )
      .join('\n'),
  );
}

/**
 * `catalog path <package>`: the InstallPlans from `--from` to `--to`. Exit 2 (and `"ok": false`)
 * when there is no path, or when OLM cannot plan a hop of it for a dependency.
 */
export async function runCatalogPath(
  pkg: string,
  flags: CatalogPathFlags,
  setExitCode: SetExitCode,
): Promise<void> {
  const catalog = await load(flags);
  const channel = flags.channel ?? defaultChannelOf(catalog, pkg);
  if (!flags.channel) process.stderr.write(`channel: ${channel} (the default channel of ${pkg})\n`);
  const named = { name: flags.file ?? 'PackageManifests', catalog };
  const present = namespaceOperators(named, flags);
  const result = upgradePath(catalog, { package: pkg, channel, from: flags.from, to: flags.to });
  const dependencies = result.ok
    ? pathDependencies({
        package: pkg,
        hops: result.hops,
        catalog: named,
        catalogs: [named],
        channel,
        present,
        ...(flags.from ? { installed: flags.from } : {}),
      })
    : [];
  const blocked = dependencies.find((h) => h.unmet.length > 0);
  const ok = result.ok && !blocked;
  const data = {
    ...result,
    ok,
    ...(blocked ? { reason: 'dependency-unresolvable', message: `OLM cannot plan ${blocked.csv}` } : {}),
    dependencies,
  };
  print(flags, data, () => [result.toString(), ...renderPathDependencies(dependencies)].join('\n'));
  setExitCode(ok ? ExitCode.Ok : ExitCode.Error);
}

/**
 * The operators `--installed` (`<csv>` in its package's default channel, or `<csv>@<channel>`) and
 * `--unsubscribed` name, as bundles of the catalog.
 * @throws GroundworkError `InvalidFlag` for a CSV or channel the catalog does not have.
 */
function namespaceOperators(named: NamedCatalog, flags: CatalogPathFlags): PresentOperator[] {
  const find = (flag: string, value: string, csv: string) => {
    for (const p of named.catalog.packages.values()) {
      const bundle = p.bundles.get(csv);
      if (bundle) return { bundle, pkg: p };
    }
    throw new GroundworkError({
      code: 'InvalidFlag',
      subject: `${flag} ${value}`,
      message: `no bundle ${csv} in the catalog`,
      fix: 'name a CSV of the catalog (groundwork catalog channels <package> lists them)',
    });
  };
  const subscribed = (flags.installed ?? []).map((value) => {
    const [csv = '', wanted] = value.split('@');
    const { bundle, pkg } = find('--installed', value, csv);
    const channel = wanted ?? pkg.defaultChannel;
    if (!channel || !pkg.channels.has(channel))
      throw new GroundworkError({
        code: 'InvalidFlag',
        subject: `--installed ${value}`,
        message: `package ${pkg.name} has no channel ${channel ?? '(no default channel)'}`,
        fix: `write <csv>@<channel>, one of: ${[...pkg.channels.keys()].join(', ')}`,
      });
    return presentOf(bundle, { channel, catalog: named.name });
  });
  const alone = (flags.unsubscribed ?? []).map((csv) =>
    presentOf(find('--unsubscribed', csv, csv).bundle, undefined),
  );
  return [...subscribed, ...alone];
}

async function load(flags: CatalogSourceFlags): Promise<Catalog> {
  if (flags.file) return loadCatalog(flags.file, { maxBytes: USER_CATALOG_MAX_BYTES });
  if (!flags.kubeconfig && !process.env.KUBECONFIG) {
    throw new GroundworkError({
      code: 'NoCatalog',
      message: 'no catalog given',
      fix: 'pass --file <catalog> or --kubeconfig to read PackageManifests',
    });
  }
  const client = await KubeClient.load(connectionOf(flags));
  try {
    const info = await new Discovery(client).tryResolve(
      'packages.operators.coreos.com/v1',
      'PackageManifest',
    );
    if (!info)
      throw new GroundworkError({
        code: 'NoPackageServer',
        message: 'this cluster serves no PackageManifests (no OLM package server)',
        fix: 'pass --file <catalog>',
      });
    return catalogFromPackageManifests(await listAll(client, info, undefined));
  } finally {
    client.close();
  }
}

function print(flags: CatalogSourceFlags, data: object, text: () => string): void {
  process.stdout.write(render(data, outputOf(flags), { text }));
}

/** A package's default channel (FBC `olm.package` defaultChannel, or a PackageManifest's), or an error. */
function defaultChannelOf(catalog: Catalog, pkg: string): string {
  const found = catalog.packages.get(pkg);
  if (!found) {
    throw new GroundworkError({
      code: 'UnknownPackage',
      subject: pkg,
      message: 'not in the catalog',
      fix: `use one of: ${[...catalog.packages.keys()].join(', ')}`,
    });
  }
  if (!found.defaultChannel) {
    throw new GroundworkError({
      code: 'NoDefaultChannel',
      subject: pkg,
      message: 'the package names no default channel',
      fix: `pass --channel, one of: ${[...found.channels.keys()].join(', ')}`,
    });
  }
  return found.defaultChannel;
}
