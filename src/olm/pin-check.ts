import { z } from 'zod';
import type { Manifest } from '../render/synth/manifest.js';
import type { PostSynthContext } from '../render/synth/post-synth-checks.js';
import type { ValidationIssue } from '../render/synth/validation.js';
import { loadCatalog } from './catalog/index.js';
import type { NamedCatalog } from './present-operator.js';
import { pathDependencies } from './path-dependencies.js';
import { wantedCSVs } from './pin.js';
import type { Hop } from './upgrade-path-result.js';

/**
 * Synth-time check of every Subscription against the catalogs listed in groundwork.yaml: the
 * channel must exist and a pinned `startingCSV` must be installable from it. Packages absent from
 * the catalog files are not judged (the cluster's catalogs may carry them). A requirement
 * (`olm.package.required`, `olm.gvk.required`) of a bundle on the way to the pin that no bundle of
 * the catalog files satisfies is a warning: OLM will not plan that hop unless the cluster's
 * catalogs carry the dependency.
 */
export async function checkPinsAgainstCatalogs(ctx: PostSynthContext): Promise<ValidationIssue[]> {
  if (ctx.config.catalogs.length === 0) return [];
  const catalogs = await Promise.all(
    ctx.config.catalogs.map(async (name) => ({ name, catalog: await loadCatalog(name, { root: ctx.dir }) })),
  );
  return ctx.manifests
    .filter((m) => m.object.kind === 'Subscription')
    .flatMap((m) => checkSubscription(m, catalogs));
}

/** The pin fields of a desired Subscription; fields of other types are `checkSubscriptions`' to report. */
const pinFields = z.looseObject({
  name: z.string().optional(),
  channel: z.string().optional(),
  startingCSV: z.string().optional(),
});

function checkSubscription(m: Manifest, catalogs: readonly NamedCatalog[]): ValidationIssue[] {
  const parsed = pinFields.safeParse(m.object.spec ?? {});
  if (!parsed.success) return [];
  const spec = parsed.data;
  const path = m.source.replace(/\/Subscription$/, '');
  const named = catalogs.find((c) => spec.name !== undefined && c.catalog.packages.has(spec.name));
  if (!named || !spec.name) return [];
  const catalog = named.catalog;
  const pkg = catalog.packages.get(spec.name)!;
  if (!spec.channel || !pkg.channels.has(spec.channel)) {
    return [
      {
        path,
        field: 'channel',
        message: `package ${spec.name} has no channel ${JSON.stringify(spec.channel)} in the catalog`,
        fix: `use one of: ${[...pkg.channels.keys()].join(', ')}`,
        severity: 'error',
      },
    ];
  }
  if (!spec.startingCSV) return [];
  const result = wantedCSVs(
    catalog,
    {
      package: spec.name,
      channel: spec.channel,
      pin: spec.startingCSV,
      startingCSV: spec.startingCSV,
      installed: undefined,
    },
    path,
  );
  if (result.ok)
    return unmetOnTheWay(
      path,
      { package: spec.name, pin: spec.startingCSV },
      result.path.hops,
      named,
      catalogs,
    );
  if (result.path.ok) return [];
  const fix = result.path.fix;
  return [{ path, field: 'pin', message: result.path.message, ...(fix ? { fix } : {}), severity: 'error' }];
}

/** One warning per hop on the way to the pin whose requirements the catalog files cannot meet. */
function unmetOnTheWay(
  path: string,
  { package: pkg, pin }: { package: string; pin: string },
  hops: readonly Hop[],
  named: NamedCatalog,
  catalogs: readonly NamedCatalog[],
): ValidationIssue[] {
  return pathDependencies({ package: pkg, hops, catalog: named, catalogs }).flatMap((h) =>
    h.unmet.map((u) => ({
      path,
      field: 'pin',
      message: `on the way to pin ${pin}, ${u.message}, and no bundle of the catalog files (${catalogs.map((c) => c.name).join(', ')}) satisfies it: OLM will not install ${h.csv} unless a catalog of the cluster does`,
      fix: `add the catalog that carries it to groundwork.yaml catalogs, or pin a CSV before ${h.csv}`,
      severity: 'warning' as const,
    })),
  );
}
