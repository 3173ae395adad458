import type { Bundle, ChannelEntry } from './model.js';
import { apiOf, isSemverRange, isStrictSemver, type BundleApi, type BundleDependency } from './schema.js';

/**
 * What the parser keeps of a valid blob: the fields the model needs, nothing else (a raw
 * bundle's icons, related images and other properties become garbage at once).
 */
export interface PackageDecl {
  readonly name: string;
  readonly defaultChannel: string | undefined;
}

export interface ChannelDecl {
  readonly package: string;
  readonly name: string;
  /** Entries as the model holds them: `skips` defaulted to `[]`, `""` read as absent. */
  readonly entries: ChannelEntry[];
}

/**
 * Cheap checks for the common shape of the three blob schemas, in one pass over each blob
 * with no copy of it (issue 19, item 7: zod's parse of every blob of a 100k-entry catalog, and
 * the copy of every blob it returns, which the GC then had to move and collect).
 *
 * Contract: each returns a value only when the blob passes the zod schema of the same name
 * in `schema.ts` (the same checks: lengths, `""` as absent, the semver rules, exactly one
 * `olm.package` property naming the bundle's package), and then the value equals what the
 * parser builds from zod's output. `undefined` means "not sure": the caller runs zod, which
 * accepts the blob or says what is wrong with it in its own words. So these never produce a
 * message, and a blob they do not understand costs only the slow path.
 */
export function quickPackage(v: Record<string, unknown>): PackageDecl | undefined {
  const { name, defaultChannel } = v;
  if (!isName(name)) return undefined;
  if (defaultChannel !== undefined && typeof defaultChannel !== 'string') return undefined;
  return { name, defaultChannel: defaultChannel === '' ? undefined : defaultChannel };
}

/** See `quickPackage`. */
export function quickChannel(v: Record<string, unknown>): ChannelDecl | undefined {
  const { package: pkg, name, entries } = v;
  if (!isName(pkg) || !isName(name) || !Array.isArray(entries)) return undefined;
  const out: ChannelEntry[] = new Array<ChannelEntry>(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const e: unknown = entries[i];
    if (!isObject(e)) return undefined;
    const { name: entry, replaces, skips, skipRange } = e;
    if (!isName(entry)) return undefined;
    if (replaces !== undefined && typeof replaces !== 'string') return undefined;
    if (skipRange !== undefined && typeof skipRange !== 'string') return undefined;
    if (skips !== undefined && !isNameArray(skips)) return undefined;
    const range = skipRange === '' ? undefined : skipRange;
    if (range !== undefined && !isSemverRange(range)) return undefined;
    // The key order of the model's entries, as parseCatalog built them from zod's output.
    out[i] = {
      name: entry,
      ...(replaces === undefined || replaces === '' ? {} : { replaces }),
      skips: skips ?? [],
      ...(range === undefined ? {} : { skipRange: range }),
    };
  }
  return { package: pkg, name, entries: out };
}

/** See `quickPackage`: the bundle as the model holds it. */
export function quickBundle(v: Record<string, unknown>): Bundle | undefined {
  const { name, package: pkg, image, properties } = v;
  if (!isName(name) || !isName(pkg) || !Array.isArray(properties)) return undefined;
  if (image !== undefined && typeof image !== 'string') return undefined;
  let version: string | undefined;
  for (const p of properties as unknown[]) {
    // zod wants `value` present on every property (z.unknown() in an object is not optional).
    if (!isObject(p) || !isName(p['type']) || p['value'] === undefined) return undefined;
    if (p['type'] !== 'olm.package') continue;
    if (version !== undefined) return undefined; // a second olm.package property
    const value = p['value'];
    if (!isObject(value) || value['packageName'] !== pkg) return undefined;
    const ver = value['version'];
    if (typeof ver !== 'string' || !isStrictSemver(ver)) return undefined;
    version = ver;
  }
  if (version === undefined) return undefined;
  return bundleModel({ name, package: pkg, version, image, properties });
}

/**
 * The model of a bundle whose blob passed validation: its APIs and dependencies read from its
 * properties in one pass (a property of the wrong shape is not an API or a dependency).
 */
export function bundleModel(b: {
  name: string;
  package: string;
  version: string;
  image: string | undefined;
  properties: readonly unknown[];
}): Bundle {
  const provides: BundleApi[] = [];
  const dependencies: BundleDependency[] = [];
  for (const p of b.properties as readonly { type: string; value?: unknown }[]) {
    if (p.type === 'olm.gvk') {
      const api = apiOf(p.value);
      if (api) provides.push(api);
    } else if (p.type === 'olm.gvk.required') {
      const api = apiOf(p.value);
      if (api) dependencies.push({ type: 'gvk', ...api });
    } else if (p.type === 'olm.package.required') {
      const v = p.value as { packageName?: unknown; versionRange?: unknown } | null;
      if (!v || typeof v.packageName !== 'string') continue;
      const versionRange = typeof v.versionRange === 'string' ? v.versionRange : '*';
      dependencies.push({ type: 'package', packageName: v.packageName, versionRange });
    }
  }
  return { name: b.name, package: b.package, version: b.version, image: b.image, provides, dependencies };
}

/** zod's `z.string().min(1)`. */
const isName = (x: unknown): x is string => typeof x === 'string' && x.length > 0;

/** What zod's object schemas accept: any non-null, non-array object. */
const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

function isNameArray(xs: unknown): xs is string[] {
  if (!Array.isArray(xs)) return false;
  for (const x of xs as unknown[]) if (!isName(x)) return false;
  return true;
}
