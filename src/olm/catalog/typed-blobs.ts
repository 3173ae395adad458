import type { z } from 'zod';
import { isPlainObject } from '../../core/object.js';
import { splitBlobs, type BlobRef, type CatalogFile, type CatalogProblem } from './blobs.js';
import {
  bundleBlobSchema,
  channelBlobSchema,
  packageBlobSchema,
  type BundleBlob,
  type ChannelBlob,
  type PackageBlob,
} from './schema.js';

/** A validated blob and where it came from. */
export interface Located<T> {
  readonly ref: BlobRef;
  /** `blob 3 (line 40, olm.bundle foo.v0.2.0)`, for messages. */
  readonly label: string;
  readonly blob: T;
}

interface TypedBlobs {
  readonly packages: Located<PackageBlob>[];
  readonly channels: Located<ChannelBlob>[];
  readonly bundles: Located<BundleBlob>[];
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
 * and `olm.bundle` ones with zod. Blobs of other schemas are skipped, like
 * `opm` skips schemas it does not know. Collects problems instead of throwing.
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
    const { blobs, problems } = splitBlobs(file);
    for (const p of problems) out.problems.push(p); // a spread of 100k+ problems overflows the stack
    for (const { ref, value } of blobs) {
      const where = `blob ${ref.index} (line ${ref.line})`;
      if (!isPlainObject(value)) {
        out.problems.push({ file: ref.file, blob: where, message: 'a catalog blob must be an object' });
        continue;
      }
      const schema = value['schema'];
      if (typeof schema !== 'string' || schema === '') {
        out.problems.push({
          file: ref.file,
          blob: where,
          path: 'schema',
          message: 'missing: every blob needs a schema',
        });
        continue;
      }
      const name = typeof value['name'] === 'string' ? ` ${value['name']}` : '';
      const label = `blob ${ref.index} (line ${ref.line}, ${schema}${name})`;
      const check = <S extends z.ZodType>(s: S): z.infer<S> | undefined => {
        const r = s.safeParse(value);
        if (r.success) return r.data;
        for (const issue of r.error.issues) {
          out.problems.push({
            file: ref.file,
            blob: label,
            path: issue.path.map(String).join('.'),
            message: issue.message,
          });
        }
        return undefined;
      };
      if (schema === 'olm.package') {
        const blob = check(packageBlobSchema);
        if (blob) out.packages.push({ ref, label, blob });
        else if (name) out.rejected.packages.add(name.trim());
      } else if (schema === 'olm.channel') {
        const blob = check(channelBlobSchema);
        if (blob) out.channels.push({ ref, label, blob });
        else if (typeof value['package'] === 'string') out.rejected.channelsOf.add(value['package']);
      } else if (schema === 'olm.bundle') {
        const blob = check(bundleBlobSchema);
        if (blob) out.bundles.push({ ref, label, blob });
        else if (name) out.rejected.bundles.add(name.trim());
      }
    }
  }
  return out;
}
