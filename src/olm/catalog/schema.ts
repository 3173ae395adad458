import semver from 'semver';
import { z } from 'zod';

/**
 * zod schemas for the three FBC blob schemas Groundwork reads. Unknown fields
 * are kept (FBC blobs carry icons, descriptions, related images, properties we
 * do not need); other schemas (`olm.deprecations`, custom ones) are ignored by
 * the parser, as `opm` does.
 */

/**
 * True for a strict semantic version as OLM parses it (blang/semver `Parse`):
 * no `v` prefix, no surrounding spaces.
 */
export function isStrictSemver(v: string): boolean {
  return semver.valid(v) !== null && /^\d/.test(v) && v.trim() === v;
}

/**
 * True for a semver range OLM could read. Parsed with node-semver; blang/semver
 * (which OLM uses) accepts the same `>=1.0.0 <2.0.0 || 3.x` forms used in catalogs.
 * The usual skipRange form `>=a.b.c <d.e.f` is recognised by one regular expression
 * first: node-semver parses a range in about 14 µs, 1.4 s for the 100,000 distinct
 * ranges of a large index (issue 19, item 7). Everything else goes to node-semver.
 */
export function isSemverRange(r: string): boolean {
  return PLAIN_SKIP_RANGE.test(r) || semver.validRange(r, { loose: false }) !== null;
}

/** A version number node-semver accepts: no leading zero, at most 15 digits (below 2^53). */
const NUM = '(?:0|[1-9]\\d{0,14})';
const PLAIN_SKIP_RANGE = new RegExp(`^>=${NUM}\\.${NUM}\\.${NUM} <${NUM}\\.${NUM}\\.${NUM}$`);

/** An optional string where `""` means absent, as `opm render` sometimes writes it. */
const optionalName = z
  .string()
  .optional()
  .transform((s) => (s === '' ? undefined : s));

export const packageBlobSchema = z.looseObject({
  schema: z.literal('olm.package'),
  name: z.string().min(1),
  defaultChannel: optionalName,
});

const channelEntrySchema = z.looseObject({
  name: z.string().min(1),
  replaces: optionalName,
  skips: z.array(z.string().min(1)).optional(),
  skipRange: optionalName.refine((r) => r === undefined || isSemverRange(r), 'not a semver range'),
});

export const channelBlobSchema = z.looseObject({
  schema: z.literal('olm.channel'),
  package: z.string().min(1),
  name: z.string().min(1),
  entries: z.array(channelEntrySchema),
});

const packagePropertyValue = z.looseObject({
  packageName: z.string().min(1),
  version: z.string().refine(isStrictSemver, 'not a semantic version (blang/semver, no "v" prefix)'),
});

export const bundleBlobSchema = z
  .looseObject({
    schema: z.literal('olm.bundle'),
    name: z.string().min(1),
    package: z.string().min(1),
    image: z.string().optional(),
    properties: z.array(z.looseObject({ type: z.string().min(1), value: z.unknown() })),
  })
  .superRefine((blob, ctx) => {
    const found = blob.properties.flatMap((p, i) => (p.type === 'olm.package' ? [i] : []));
    if (found.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['properties'],
        message: `want exactly one olm.package property (it carries the version), found ${found.length}`,
      });
      return;
    }
    const i = found[0] as number;
    const parsed = packagePropertyValue.safeParse(blob.properties[i]?.value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        ctx.addIssue({
          code: 'custom',
          path: ['properties', i, 'value', ...issue.path],
          message: issue.message,
        });
      }
    } else if (parsed.data.packageName !== blob.package) {
      ctx.addIssue({
        code: 'custom',
        path: ['properties', i, 'value', 'packageName'],
        message: `is ${parsed.data.packageName} but the bundle's package is ${blob.package}`,
      });
    }
  });

export type PackageBlob = z.infer<typeof packageBlobSchema>;
export type ChannelBlob = z.infer<typeof channelBlobSchema>;
export type BundleBlob = z.infer<typeof bundleBlobSchema>;

/** The version from a bundle blob that passed `bundleBlobSchema`. */
export function bundleVersion(blob: BundleBlob): string {
  const prop = blob.properties.find((p) => p.type === 'olm.package');
  return (prop?.value as { version: string }).version;
}

/** An API (group, version, kind) a bundle provides (`olm.gvk`) or requires (`olm.gvk.required`). */
export interface BundleApi {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** A dependency a bundle declares: `olm.package.required` or `olm.gvk.required`. */
export type BundleDependency =
  | { readonly type: 'package'; readonly packageName: string; readonly versionRange: string }
  | ({ readonly type: 'gvk' } & BundleApi);

/** The API a `olm.gvk` or `olm.gvk.required` property's value names, if it has that shape. */
export function apiOf(value: unknown): BundleApi | undefined {
  const v = value as Partial<Record<'group' | 'version' | 'kind', unknown>> | null;
  return v && typeof v.group === 'string' && typeof v.version === 'string' && typeof v.kind === 'string'
    ? { group: v.group, version: v.version, kind: v.kind }
    : undefined;
}
