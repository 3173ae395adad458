import type { Command } from 'commander';
import { KubeClient } from '../../cluster/client.js';
import { Discovery } from '../../cluster/discovery.js';
import { listAll } from '../../cluster/list.js';
import { GroundworkError } from '../../core/errors.js';
import { catalogFromPackageManifests } from '../../olm/catalog/from-package-manifests.js';
import { listChannels, listPackages, loadCatalog, type Catalog } from '../../olm/catalog/index.js';
import { upgradePath } from '../../olm/upgrade-path.js';
import { ExitCode } from '../exit-code.js';
import type { CommandModule } from './command-module.js';
import { outputOf, render, withOutput } from '../output.js';

interface SourceFlags {
  file?: string;
  kubeconfig?: string;
  context?: string;
  format: string;
}

/** `groundwork catalog packages | channels | path`: inspect OLM catalogs and upgrade paths. */
export const registerCatalog: CommandModule = (program: Command, setExitCode) => {
  const catalog = program
    .command('catalog')
    .description('inspect OLM catalogs: packages, channels, upgrade paths');
  const source = (cmd: Command) =>
    cmd
      .option('-f, --file <path>', 'file-based catalog: a file or a directory')
      .option('--kubeconfig <file>', 'read live PackageManifests from this cluster instead')
      .option('--context <name>', 'kubeconfig context');
  const source2 = (cmd: Command) => withOutput(source(cmd), ['text', 'json', 'yaml'], 'text');

  source2(catalog.command('packages'))
    .description('list packages with their default channel and channels')
    .action(async (flags: SourceFlags) => {
      const packages = listPackages(await load(flags));
      print(flags, packages, () =>
        packages
          .map(
            (p) =>
              `${p.name.padEnd(40)} default ${p.defaultChannel ?? '-'}   channels ${p.channels.join(', ')}`,
          )
          .join('\n'),
      );
    });

  source2(catalog.command('channels <package>'))
    .description("list a package's channels: head and versions in update order")
    .action(async (pkg: string, flags: SourceFlags) => {
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
    });

  source2(catalog.command('path <package>'))
    .description('the InstallPlans (one per hop) from an installed CSV to a target, under OLM rules')
    .option(
      '--channel <channel>',
      "channel the Subscription follows (default: the package's default channel)",
    )
    .requiredOption('--to <csv>', 'target CSV (the pin)')
    .option('--from <csv>', 'installed CSV (omit for a fresh install)')
    .action(async (pkg: string, flags: SourceFlags & { channel?: string; to: string; from?: string }) => {
      const catalog = await load(flags);
      const channel = flags.channel ?? defaultChannelOf(catalog, pkg);
      if (!flags.channel) process.stderr.write(`channel: ${channel} (the default channel of ${pkg})\n`);
      const result = upgradePath(catalog, { package: pkg, channel, from: flags.from, to: flags.to });
      print(flags, result, () => result.toString());
      setExitCode(result.ok ? ExitCode.Ok : ExitCode.Error);
    });
};

async function load(flags: SourceFlags): Promise<Catalog> {
  if (flags.file) return loadCatalog(flags.file);
  if (!flags.kubeconfig && !process.env.KUBECONFIG) {
    throw new GroundworkError({
      code: 'NoCatalog',
      message: 'no catalog given',
      fix: 'pass --file <catalog> or --kubeconfig to read PackageManifests',
    });
  }
  const client = await KubeClient.load({
    ...(flags.kubeconfig ? { kubeconfig: flags.kubeconfig } : {}),
    ...(flags.context ? { context: flags.context } : {}),
  });
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

function print(flags: SourceFlags, data: object, text: () => string): void {
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
