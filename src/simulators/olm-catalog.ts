import { z } from 'zod';
import { GroundworkError } from '../core/errors.js';
import { isPlainObject } from '../core/object.js';
import type { CatalogFile } from '../olm/catalog/blobs.js';
import { buildChannel } from '../olm/catalog/channel-graph.js';
import { readCatalogFiles } from '../olm/catalog/load-catalog.js';
import type { Bundle, Catalog, CatalogPackage, Channel } from '../olm/catalog/model.js';
import { parseCatalog } from '../olm/catalog/parse-catalog.js';
import { typedBlobs } from '../olm/catalog/typed-blobs.js';

/** A CustomResourceDefinition a CSV owns, as the OLM simulator installs it. */
export interface OwnedCRD {
  readonly group: string;
  readonly kind: string;
  /** Plural resource name; the CRD is named `<plural>.<group>`. */
  readonly plural: string;
  /** Served versions; the highest by Kubernetes version priority is the storage version. */
  readonly versions: readonly string[];
}

/**
 * What the OLM simulator serves from one CatalogSource: the catalog model (upgrade graph) plus the
 * CRDs each bundle owns, which the model does not carry. Keyed by CSV name.
 */
export interface SimulatorCatalog {
  readonly catalog: Catalog;
  readonly ownedCRDs: ReadonlyMap<string, readonly OwnedCRD[]>;
}

/** One CSV of a synthetic package. */
export interface SyntheticCSV {
  readonly name: string;
  readonly version: string;
  readonly replaces?: string;
  readonly skips?: readonly string[];
  readonly skipRange?: string;
  readonly ownedCRDs?: readonly OwnedCRD[];
}

/**
 * A package without an FBC file (e.g. `openshift-gitops-operator` owning `argocds.argoproj.io`):
 * one channel and its CSVs, with the same `replaces`/`skips`/`skipRange` edges as FBC entries.
 */
export interface SyntheticPackage {
  readonly package: string;
  readonly channel: string;
  /** @default the first channel given for the package */
  readonly defaultChannel?: string;
  readonly csvs: readonly SyntheticCSV[];
}

const ownedCrdSchema = z.object({
  group: z.string().min(1),
  kind: z.string().min(1),
  plural: z.string().min(1),
  versions: z.array(z.string().min(1)).min(1),
});

const syntheticSchema = z.array(
  z.object({
    package: z.string().min(1),
    channel: z.string().min(1),
    defaultChannel: z.string().min(1).optional(),
    csvs: z
      .array(
        z.object({
          name: z.string().min(1),
          version: z.string().min(1),
          replaces: z.string().min(1).optional(),
          skips: z.array(z.string().min(1)).optional(),
          skipRange: z.string().min(1).optional(),
          ownedCRDs: z.array(ownedCrdSchema).optional(),
        }),
      )
      .min(1),
  }),
);

/** Synthetic packages that do not validate; lists every problem with its path. */
export class SyntheticCatalogInvalidError extends GroundworkError {
  constructor(problems: readonly string[]) {
    super({
      code: 'SyntheticCatalogInvalid',
      subject: 'synthetic packages',
      message: problems.join('; '),
      fix: 'give each package a name, a channel and CSVs with name and version',
    });
  }
}

/**
 * The plural OLM would find in the bundle's CRD manifest. FBC `olm.gvk` properties do not carry it:
 * taken from an `olm.bundle.object` CRD of the same group and kind when the bundle has one, else
 * the lowercase kind plus `s` (`ArgoCD` → `argocds`), which is what most operators use. Kinds with
 * irregular plurals need the CRD object in the catalog or a synthetic package.
 */
export function defaultPlural(kind: string): string {
  return `${kind.toLowerCase()}s`;
}

/**
 * Reads FBC files into a `SimulatorCatalog`: `parseCatalog` for the model and upgrade graph, and the
 * bundles' `olm.gvk` properties (grouped by group and kind) for their owned CRDs.
 *
 * @throws CatalogInvalidError from `parseCatalog`.
 * @example
 * const served = catalogFromFiles([{ path: 'index.yaml', text }]);
 * served.ownedCRDs.get('bar.v1.0.0'); // [{ group: 'test.bar', kind: 'Bar', plural: 'bars', versions: ['v1', 'v1alpha1'] }]
 */
export function catalogFromFiles(files: readonly CatalogFile[]): SimulatorCatalog {
  const catalog = parseCatalog(files);
  const ownedCRDs = new Map<string, OwnedCRD[]>();
  for (const { blob } of typedBlobs(files).bundles) {
    const plurals = new Map<string, string>();
    const gvks: { group: string; kind: string; version: string }[] = [];
    for (const p of blob.properties) {
      if (p.type === 'olm.gvk' && isGvk(p.value)) gvks.push(p.value);
      if (p.type === 'olm.bundle.object') {
        const crd = decodeBundleObject(p.value);
        if (crd) plurals.set(`${crd.group}/${crd.kind}`, crd.plural);
      }
    }
    const byKind = new Map<string, OwnedCRD>();
    for (const g of gvks) {
      const key = `${g.group}/${g.kind}`;
      const seen = byKind.get(key);
      byKind.set(key, {
        group: g.group,
        kind: g.kind,
        plural: plurals.get(key) ?? defaultPlural(g.kind),
        versions: [...new Set([...(seen?.versions ?? []), g.version])],
      });
    }
    ownedCRDs.set(blob.name, [...byKind.values()]);
  }
  return { catalog, ownedCRDs };
}

/** Reads an FBC file or directory (see `loadCatalog`) into a `SimulatorCatalog`. */
export async function loadSimulatorCatalog(path: string): Promise<SimulatorCatalog> {
  return catalogFromFiles(await readCatalogFiles(path));
}

/**
 * Builds a catalog from synthetic packages; several entries for one package add channels to it.
 * The channel graph follows OLM's rules exactly as for FBC (`buildChannel`).
 *
 * @throws SyntheticCatalogInvalidError listing every problem.
 * @example
 * syntheticCatalog([{ package: 'openshift-gitops-operator', channel: 'latest', csvs: [
 *   { name: 'openshift-gitops-operator.v1.12.0', version: '1.12.0',
 *     ownedCRDs: [{ group: 'argoproj.io', kind: 'ArgoCD', plural: 'argocds', versions: ['v1beta1'] }] } ] }]);
 */
export function syntheticCatalog(packages: readonly SyntheticPackage[]): SimulatorCatalog {
  const parsed = syntheticSchema.safeParse(packages);
  if (!parsed.success) {
    throw new SyntheticCatalogInvalidError(
      parsed.error.issues.map((i) => `${i.path.map(String).join('.')}: ${i.message}`),
    );
  }
  const pkgs = new Map<
    string,
    { defaultChannel: string; channels: Map<string, Channel>; bundles: Map<string, Bundle> }
  >();
  const ownedCRDs = new Map<string, readonly OwnedCRD[]>();
  for (const p of parsed.data) {
    const pkg = pkgs.get(p.package) ?? {
      defaultChannel: p.defaultChannel ?? p.channel,
      channels: new Map<string, Channel>(),
      bundles: new Map<string, Bundle>(),
    };
    pkgs.set(p.package, pkg);
    const entries = p.csvs.map((c) => ({
      name: c.name,
      ...(c.replaces === undefined ? {} : { replaces: c.replaces }),
      skips: c.skips ?? [],
      ...(c.skipRange === undefined ? {} : { skipRange: c.skipRange }),
    }));
    pkg.channels.set(p.channel, buildChannel(p.package, p.channel, entries));
    for (const c of p.csvs) {
      pkg.bundles.set(c.name, { name: c.name, package: p.package, version: c.version, image: undefined });
      ownedCRDs.set(c.name, c.ownedCRDs ?? []);
    }
  }
  const catalog: Catalog = {
    packages: new Map(
      [...pkgs].map(([name, p]): [string, CatalogPackage] => [
        name,
        { name, defaultChannel: p.defaultChannel, channels: p.channels, bundles: p.bundles },
      ]),
    ),
  };
  return { catalog, ownedCRDs };
}

/** A plain `Catalog` (no owned CRDs known) or a `SimulatorCatalog`, as the simulator accepts them. */
export type CatalogInput = Catalog | SimulatorCatalog;

export function toSimulatorCatalog(input: CatalogInput): SimulatorCatalog {
  return 'catalog' in input ? input : { catalog: input, ownedCRDs: new Map() };
}

/** Both catalogs' packages; a package in both is taken from `b`. */
export function mergeCatalogs(a: SimulatorCatalog, b: SimulatorCatalog): SimulatorCatalog {
  return {
    catalog: { packages: new Map([...a.catalog.packages, ...b.catalog.packages]) },
    ownedCRDs: new Map([...a.ownedCRDs, ...b.ownedCRDs]),
  };
}

function isGvk(v: unknown): v is { group: string; kind: string; version: string } {
  return (
    isPlainObject(v) &&
    typeof v.group === 'string' &&
    typeof v.kind === 'string' &&
    typeof v.version === 'string'
  );
}

/** The group, kind and plural of a CRD carried as an `olm.bundle.object` (base64 JSON), if it is one. */
function decodeBundleObject(value: unknown): { group: string; kind: string; plural: string } | undefined {
  if (!isPlainObject(value) || typeof value.data !== 'string') return undefined;
  try {
    const obj = JSON.parse(Buffer.from(value.data, 'base64').toString('utf8')) as {
      kind?: string;
      spec?: { group?: string; names?: { kind?: string; plural?: string } };
    };
    const { group } = obj.spec ?? {};
    const { kind, plural } = obj.spec?.names ?? {};
    return obj.kind === 'CustomResourceDefinition' && group && kind && plural
      ? { group, kind, plural }
      : undefined;
  } catch {
    return undefined;
  }
}
