import { z } from 'zod';
import type { K8sObject } from '../../core/object.js';
import { parseWith } from '../olm-objects.js';
import { buildChannel } from './channel-graph.js';
import type { Bundle, Catalog, CatalogPackage, Channel, ChannelEntry } from './model.js';

/** What the package server writes into a PackageManifest's status, as far as the catalog reads it. */
const packageManifestSchema = z.looseObject({
  metadata: z.looseObject({ name: z.string().min(1), namespace: z.string().optional() }),
  status: z
    .looseObject({
      packageName: z.string().optional(),
      defaultChannel: z.string().optional(),
      channels: z
        .array(
          z.looseObject({
            name: z.string(),
            currentCSV: z.string().optional(),
            currentCSVDesc: z
              .looseObject({
                version: z.string().optional(),
                replaces: z.string().optional(),
                skips: z.array(z.string()).nullish(),
                annotations: z.record(z.string(), z.string()).nullish(),
              })
              .optional(),
            entries: z.array(z.looseObject({ name: z.string(), version: z.string().optional() })).nullish(),
          }),
        )
        .nullish(),
    })
    .optional(),
});

/**
 * A catalog model from live `packages.operators.coreos.com/v1` PackageManifests (what OpenShift's
 * package server offers). A PackageManifest lists each channel's entries head first, with versions,
 * but carries the upgrade edges (`replaces`, `skips`, `olm.skipRange`) of the head only: older
 * entries are taken to replace the next older one. Use a file-based catalog for exact paths.
 * @throws OlmObjectInvalidError naming a PackageManifest whose status fields have other types.
 */
export function catalogFromPackageManifests(manifests: readonly K8sObject[]): Catalog {
  const packages = new Map<string, CatalogPackage>();
  for (const raw of manifests) {
    const pm = parseWith(packageManifestSchema, 'PackageManifest', raw);
    const status = pm.status ?? {};
    const name = status.packageName ?? pm.metadata.name;
    const bundles = new Map<string, Bundle>();
    const channels = new Map<string, Channel>();
    for (const ch of status.channels ?? []) {
      const listed = ch.entries?.length
        ? ch.entries
        : ch.currentCSV
          ? [{ name: ch.currentCSV, version: ch.currentCSVDesc?.version }]
          : [];
      const entries: ChannelEntry[] = listed.map((e, i) => {
        const older = listed[i + 1]?.name;
        const head = i === 0 ? ch.currentCSVDesc : undefined;
        const replaces = head?.replaces ?? older;
        const skipRange = head?.annotations?.['olm.skipRange'];
        return {
          name: e.name,
          ...(replaces ? { replaces } : {}),
          skips: head?.skips ?? [],
          ...(skipRange ? { skipRange } : {}),
        };
      });
      for (const e of listed)
        bundles.set(e.name, {
          name: e.name,
          package: name,
          version: e.version ?? versionOf(e.name),
          image: undefined,
          // Package manifests name no properties; dependencies live in the bundle images.
          provides: [],
          dependencies: [],
        });
      channels.set(ch.name, buildChannel(name, ch.name, entries));
    }
    packages.set(name, { name, defaultChannel: status.defaultChannel, channels, bundles });
  }
  return { packages };
}

function versionOf(csv: string): string {
  return /\.v?(\d+\.\d+\.\d+.*)$/.exec(csv)?.[1] ?? '0.0.0';
}
