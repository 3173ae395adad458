import { z } from 'zod';
import type { Manifest } from '../synth/manifest.js';
import type { PostSynthContext } from '../synth/post-synth-checks.js';
import type { ValidationIssue } from '../synth/validation.js';
import { loadCatalog } from './catalog/index.js';
import type { Catalog } from './catalog/model.js';
import { wantedCSVs } from './pin.js';

/**
 * Synth-time check of every Subscription against the catalogs listed in groundwork.yaml: the
 * channel must exist and a pinned `startingCSV` must be installable from it. Packages absent from
 * the catalog files are not judged (the cluster's catalogs may carry them).
 */
export async function checkPinsAgainstCatalogs(ctx: PostSynthContext): Promise<ValidationIssue[]> {
  if (ctx.config.catalogs.length === 0) return [];
  const catalogs = await Promise.all(ctx.config.catalogs.map((c) => loadCatalog(c, { root: ctx.dir })));
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

function checkSubscription(m: Manifest, catalogs: readonly Catalog[]): ValidationIssue[] {
  const parsed = pinFields.safeParse(m.object.spec ?? {});
  if (!parsed.success) return [];
  const spec = parsed.data;
  const path = m.source.replace(/\/Subscription$/, '');
  const catalog = catalogs.find((c) => spec.name !== undefined && c.packages.has(spec.name));
  if (!catalog || !spec.name) return [];
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
  if (result.ok || result.path.ok) return [];
  const fix = result.path.fix;
  return [{ path, field: 'pin', message: result.path.message, ...(fix ? { fix } : {}), severity: 'error' }];
}
