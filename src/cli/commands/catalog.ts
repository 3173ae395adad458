import type { Command } from 'commander';
import type { CatalogPathFlags, CatalogSourceFlags as SourceFlags } from '../actions/catalog.js';
import { withOutput } from '../output.js';
import type { CommandModule } from './command-module.js';

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
    .action(async (flags: SourceFlags) => (await import('../actions/catalog.js')).runCatalogPackages(flags));

  source2(catalog.command('channels <package>'))
    .description("list a package's channels: head and versions in update order")
    .action(async (pkg: string, flags: SourceFlags) =>
      (await import('../actions/catalog.js')).runCatalogChannels(pkg, flags),
    );

  source2(catalog.command('path <package>'))
    .description(
      'the InstallPlans (one per hop) from an installed CSV to a target, under OLM rules, with the dependencies each brings (exit 2 when there is no path or a hop cannot be planned)',
    )
    .option(
      '--channel <channel>',
      "channel the Subscription follows (default: the package's default channel)",
    )
    .requiredOption('--to <csv>', 'target CSV (the pin)')
    .option('--from <csv>', 'installed CSV (omit for a fresh install)')
    .option(
      '--installed <csv...>',
      'other operators in the namespace, installed by a Subscription: <csv> (default channel) or <csv>@<channel>',
    )
    .option(
      '--unsubscribed <csv...>',
      'CSVs in the namespace that no Subscription references (OLM keeps them)',
    )
    .action(async (pkg: string, flags: CatalogPathFlags) =>
      (await import('../actions/catalog.js')).runCatalogPath(pkg, flags, setExitCode),
    );
};
