import type { z } from 'zod';
import { isPlainObject } from '../../core/object.js';
import { blobLabel, readBlobs, type BlobRef, type CatalogFile, type CatalogProblem } from './blobs.js';
import type { Bundle } from './model.js';
import {
  bundleModel,
  quickBundle,
  quickChannel,
  quickPackage,
  type ChannelDecl,
  type PackageDecl,
} from './quick-check.js';
import { bundleBlobSchema, bundleVersion, channelBlobSchema, packageBlobSchema } from './schema.js';

/** A validated blob and where it came from. */
export interface Located<T> {
  readonly ref: BlobRef;
  /** `blob 3 (line 40, olm.bundle foo.v0.2.0)`, for messages. */
  readonly label: string;
  readonly blob: T;
}

/** The label is built only for a message: most blobs of a large catalog never need one. */
class LocatedBlob<T extends { readonly name: string }> implements Located<T> {
  constructor(
    readonly ref: BlobRef,
    private readonly schema: string,
    readonly blob: T,
  ) {}
  get label(): string {
    return `blob ${this.ref.index} (line ${this.ref.line}, ${this.schema} ${this.blob.name})`;
  }
}

interface TypedBlobs {
  readonly packages: Located<PackageDecl>[];
  readonly channels: Located<ChannelDecl>[];
  /** Bundles as the model holds them. */
  readonly bundles: Located<Bundle>[];
  readonly problems: CatalogProblem[];
  /**
   * Names of `olm.package` and `olm.bundle` blobs that failed validation, so
   * that cross-blob checks do not report them a second time as missing.
   */
  readonly rejected: {
    readonly packages: Set<string>;
    readonly bundles: Set<string>;
    /** Packages with a channel blob that failed validation. */
    readonly channelsOf: Set<string>;
  };
}

/**
 * Reads every file into blobs and validates the `olm.package`, `olm.channel`
 * and `olm.bundle` ones against the zod schemas of `schema.ts`, keeping of each
 * only what the model needs. Blobs of other schemas are skipped, like `opm`
 * skips schemas it does not know. Collects problems instead of throwing: a
 * file's syntax problems first, then its blobs' problems in file order.
 *
 * A blob of the usual shape is checked by `quick-check.ts` (the same rules,
 * without zod's copy of the blob); any other goes through zod, which either
 * accepts it or words the problems.
 */
export function typedBlobs(files: readonly CatalogFile[]): TypedBlobs {
  const out: TypedBlobs = {
    packages: [],
    channels: [],
    bundles: [],
    problems: [],
    rejected: { packages: new Set(), bundles: new Set(), channelsOf: new Set() },
  };
  for (const file of files) {
    const found: CatalogProblem[] = [];
    const visit = (ref: BlobRef, value: unknown): void => typeBlob(ref, value, out, found);
    // push, not a spread: a spread of 100k+ problems overflows the stack
    for (const p of readBlobs(file, visit)) out.problems.push(p);
    for (const p of found) out.problems.push(p);
  }
  return out;
}

function typeBlob(ref: BlobRef, value: unknown, out: TypedBlobs, problems: CatalogProblem[]): void {
  if (!isPlainObject(value)) {
    problems.push({ file: ref.file, blob: blobLabel(ref), message: 'a catalog blob must be an object' });
    return;
  }
  const schema = value['schema'];
  if (typeof schema !== 'string' || schema === '') {
    problems.push({
      file: ref.file,
      blob: blobLabel(ref),
      path: 'schema',
      message: 'missing: every blob needs a schema',
    });
    return;
  }
  if (schema === 'olm.package') {
    const blob = quickPackage(value) ?? slowCheck(packageBlobSchema, ref, value, problems);
    if (blob) out.packages.push(new LocatedBlob(ref, schema, blob));
    else if (typeof value['name'] === 'string') out.rejected.packages.add(value['name'].trim());
  } else if (schema === 'olm.channel') {
    const blob = quickChannel(value) ?? slowChannel(ref, value, problems);
    if (blob) out.channels.push(new LocatedBlob(ref, schema, blob));
    else if (typeof value['package'] === 'string') out.rejected.channelsOf.add(value['package']);
  } else if (schema === 'olm.bundle') {
    const blob = quickBundle(value) ?? slowBundle(ref, value, problems);
    if (blob) out.bundles.push(new LocatedBlob(ref, schema, blob));
    else if (typeof value['name'] === 'string') out.rejected.bundles.add(value['name'].trim());
  }
}

/** zod's verdict on a blob the quick check was not sure of; its issues become problems. */
function slowCheck<S extends z.ZodType>(
  s: S,
  ref: BlobRef,
  value: Record<string, unknown>,
  problems: CatalogProblem[],
): z.infer<S> | undefined {
  const r = s.safeParse(value);
  if (r.success) return r.data;
  const name = typeof value['name'] === 'string' ? ` ${value['name']}` : '';
  const blob = `blob ${ref.index} (line ${ref.line}, ${String(value['schema'])}${name})`;
  for (const issue of r.error.issues) {
    problems.push({ file: ref.file, blob, path: issue.path.map(String).join('.'), message: issue.message });
  }
  return undefined;
}

function slowChannel(
  ref: BlobRef,
  value: Record<string, unknown>,
  problems: CatalogProblem[],
): ChannelDecl | undefined {
  const c = slowCheck(channelBlobSchema, ref, value, problems);
  if (!c) return undefined;
  const entries = c.entries.map((e) => ({
    name: e.name,
    ...(e.replaces === undefined ? {} : { replaces: e.replaces }),
    skips: e.skips ?? [],
    ...(e.skipRange === undefined ? {} : { skipRange: e.skipRange }),
  }));
  return { package: c.package, name: c.name, entries };
}

function slowBundle(
  ref: BlobRef,
  value: Record<string, unknown>,
  problems: CatalogProblem[],
): Bundle | undefined {
  const b = slowCheck(bundleBlobSchema, ref, value, problems);
  return (
    b &&
    bundleModel({
      name: b.name,
      package: b.package,
      version: bundleVersion(b),
      image: b.image,
      properties: b.properties,
    })
  );
}
