import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import semver from 'semver';
import { parseAllDocuments } from 'yaml';
import { GroundworkError } from '../../core/errors.js';
import { isPlainObject } from '../../core/object.js';

/**
 * The OLM simulator's own reading of file-based catalogs (FBC), written from operator-framework's
 * `alpha/declcfg` format and OLM's resolver cache (`pkg/controller/registry/resolver/cache`), not
 * from Groundwork's catalog model, which it checks.
 *
 * Blobs: `olm.package` (name, defaultChannel), `olm.channel` (package, entries with `replaces`,
 * `skips`, `skipRange`) and `olm.bundle` (package, image, properties). A bundle's version is its
 * `olm.package` property; what it provides is its `olm.gvk` properties; what it needs is its
 * `olm.package.required` and `olm.gvk.required` properties. Files are YAML streams or JSON streams
 * (`opm render` writes concatenated JSON objects).
 */

export interface FbcFile {
  readonly path: string;
  readonly text: string;
}

interface FbcEntry {
  readonly name: string;
  readonly replaces?: string;
  readonly skips: readonly string[];
  readonly skipRange?: string;
}

/** A dependency a bundle declares. */
export type FbcRequirement =
  | { readonly type: 'package'; readonly packageName: string; readonly versionRange: string }
  | ({ readonly type: 'gvk' } & FbcGvk);

export interface FbcGvk {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

export interface FbcBundle {
  readonly name: string;
  readonly package: string;
  readonly version: string;
  readonly image: string | undefined;
  readonly provides: readonly FbcGvk[];
  readonly requires: readonly FbcRequirement[];
  /** CRDs carried as `olm.bundle.object`: `group/kind` → plural. */
  readonly plurals: ReadonlyMap<string, string>;
}

/**
 * One channel as OLM's resolver sees it: its head (the one entry nothing replaces or skips) and
 * the replaces chain from the head (`order`). Skipped entries off the chain are never installed.
 */
export interface FbcChannel {
  readonly name: string;
  readonly entries: readonly FbcEntry[];
  readonly head: string | undefined;
  readonly order: readonly string[];
  /** Why there is no head (several heads, a cycle); OLM fails resolution in that channel. */
  readonly problem: string | undefined;
}

export interface FbcPackage {
  readonly name: string;
  readonly defaultChannel: string | undefined;
  readonly channels: ReadonlyMap<string, FbcChannel>;
  readonly bundles: ReadonlyMap<string, FbcBundle>;
}

export interface FbcCatalog {
  readonly packages: ReadonlyMap<string, FbcPackage>;
}

/** A catalog file the simulator cannot read. */
class FbcUnreadableError extends GroundworkError {
  constructor(subject: string, message: string) {
    super({
      code: 'FbcUnreadable',
      subject,
      message,
      fix: 'give the simulator file-based catalog blobs (olm.package, olm.channel, olm.bundle) in YAML or JSON',
    });
  }
}

/** Every document of a YAML stream or a JSON object stream. */
function fbcDocuments(file: FbcFile): unknown[] {
  const trimmed = file.text.trimStart();
  if (file.path.endsWith('.json') || trimmed.startsWith('{')) return jsonStream(file);
  const docs = parseAllDocuments(file.text);
  const out: unknown[] = [];
  for (const doc of docs) {
    if (doc.errors.length > 0) throw new FbcUnreadableError(file.path, doc.errors[0]!.message);
    const value: unknown = doc.toJS();
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

function jsonStream(file: FbcFile): unknown[] {
  const out: unknown[] = [];
  const text = file.text;
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') {
      if (depth === 0) start = i;
      depth++;
    } else if (c === '}') {
      depth--;
      if (depth === 0) {
        try {
          out.push(JSON.parse(text.slice(start, i + 1)));
        } catch (err) {
          throw new FbcUnreadableError(file.path, (err as Error).message);
        }
      }
    } else if (depth === 0 && !/\s/.test(c!)) {
      throw new FbcUnreadableError(file.path, `unexpected ${JSON.stringify(c)} between JSON objects`);
    }
  }
  if (depth !== 0 || inString) throw new FbcUnreadableError(file.path, 'unterminated JSON object');
  return out;
}

/**
 * The channel's head and update order, as OLM's resolver `sortChannel`
 * (operator-lifecycle-manager `pkg/controller/registry/resolver/resolver.go`) computes them:
 * an entry named by another entry's `replaces` or `skips` (within the channel) is replaced; the
 * head is the one entry nothing replaces (none, or several chains, is an error); the order walks
 * `replaces` from the head, leaving out every entry some entry skips but walking on through it;
 * coming back to an entry is a cycle.
 */
export function channelOf(name: string, entries: readonly FbcEntry[]): FbcChannel {
  const byName = new Map(entries.map((e) => [e.name, e]));
  const replaced = new Set<string>();
  const skipped = new Set<string>();
  for (const e of entries) {
    if (e.replaces && byName.has(e.replaces)) replaced.add(e.replaces);
    for (const s of e.skips) {
      if (!byName.has(s)) continue;
      replaced.add(s);
      skipped.add(s);
    }
  }
  const heads = [...byName.keys()].filter((n) => !replaced.has(n));
  const none = (problem: string): FbcChannel => ({ name, entries, head: undefined, order: [], problem });
  if (heads.length === 0)
    return none(`no channel heads (entries not replaced by another entry) found in channel ${name}`);
  const chains: string[][] = [];
  for (const head of heads) {
    const chain: string[] = [];
    const visited = new Set<string>();
    for (let cur: string | undefined = head; cur !== undefined;) {
      visited.add(cur);
      if (!skipped.has(cur)) chain.push(cur);
      const next: string | undefined = byName.get(cur)?.replaces;
      if (next === undefined || !byName.has(next)) break;
      if (visited.has(next))
        return none(`a cycle exists in the chain of replacement beginning with ${head} in channel ${name}`);
      cur = next;
    }
    chains.push(chain);
  }
  if (chains.length > 1) {
    return none(
      `a unique replacement chain within a channel is required, but ${chains.length} were found in channel ${name}: ${heads.join(', ')}`,
    );
  }
  return { name, entries, head: heads[0], order: chains[0]!, problem: undefined };
}

/**
 * The channel entries that update `installed`, nearest the head first: an entry on the replaces
 * chain that replaces it, skips it, or whose `skipRange` holds its version (OLM's
 * `ReplacesPredicate` and `SkipRangeIncludesPredicate`; pre-releases included, as blang/semver does).
 */
export function updatesFor(
  channel: FbcChannel,
  installed: { csv: string; version: string | undefined },
): FbcEntry[] {
  const byName = new Map(channel.entries.map((e) => [e.name, e]));
  return channel.order
    .map((n) => byName.get(n)!)
    .filter(
      (e) =>
        e.name !== installed.csv &&
        (e.replaces === installed.csv ||
          e.skips.includes(installed.csv) ||
          (e.skipRange !== undefined &&
            installed.version !== undefined &&
            semver.satisfies(installed.version, e.skipRange, { includePrerelease: true }))),
    );
}

/**
 * Reads FBC files into the simulator's catalog. Blobs of other schemas are ignored, as `opm` does;
 * a bundle without a `olm.package` property version gets `0.0.0`.
 *
 * @throws FbcUnreadableError for a file that is neither YAML nor a JSON stream.
 */
export function readFbc(files: readonly FbcFile[]): FbcCatalog {
  const pkgs = new Map<string, { defaultChannel?: string }>();
  const channels = new Map<string, Map<string, FbcEntry[]>>();
  const bundles = new Map<string, Map<string, FbcBundle>>();
  for (const file of files) {
    for (const blob of fbcDocuments(file)) {
      if (!isPlainObject(blob) || typeof blob.schema !== 'string') continue;
      if (blob.schema === 'olm.package' && typeof blob.name === 'string') {
        pkgs.set(blob.name, {
          ...(str(blob.defaultChannel) ? { defaultChannel: blob.defaultChannel as string } : {}),
        });
      } else if (blob.schema === 'olm.channel' && str(blob.package) && str(blob.name)) {
        const byChannel = channels.get(blob.package as string) ?? new Map<string, FbcEntry[]>();
        channels.set(blob.package as string, byChannel);
        const entries = Array.isArray(blob.entries) ? blob.entries.filter(isPlainObject) : [];
        byChannel.set(
          blob.name as string,
          entries
            .filter((e) => str(e.name))
            .map((e) => ({
              name: e.name as string,
              ...(str(e.replaces) ? { replaces: e.replaces as string } : {}),
              skips: Array.isArray(e.skips) ? e.skips.filter(str) : [],
              ...(str(e.skipRange) ? { skipRange: e.skipRange as string } : {}),
            })),
        );
      } else if (blob.schema === 'olm.bundle' && str(blob.package) && str(blob.name)) {
        const bundle = bundleOf(blob);
        const byName = bundles.get(bundle.package) ?? new Map<string, FbcBundle>();
        bundles.set(bundle.package, byName);
        byName.set(bundle.name, bundle);
      }
    }
  }
  const names = new Set([...pkgs.keys(), ...channels.keys(), ...bundles.keys()]);
  const packages = new Map<string, FbcPackage>();
  for (const name of names) {
    packages.set(name, {
      name,
      defaultChannel: pkgs.get(name)?.defaultChannel,
      channels: new Map([...(channels.get(name) ?? [])].map(([c, entries]) => [c, channelOf(c, entries)])),
      bundles: bundles.get(name) ?? new Map(),
    });
  }
  return { packages };
}

function bundleOf(blob: Record<string, unknown>): FbcBundle {
  const props = (Array.isArray(blob.properties) ? blob.properties : []).filter(isPlainObject);
  let version = '0.0.0';
  const provides: FbcGvk[] = [];
  const requires: FbcRequirement[] = [];
  const plurals = new Map<string, string>();
  for (const p of props) {
    const v = p.value;
    if (!isPlainObject(v)) continue;
    if (p.type === 'olm.package' && str(v.version)) version = v.version as string;
    else if (p.type === 'olm.gvk' && str(v.group) && str(v.kind) && str(v.version)) {
      provides.push({ group: v.group as string, version: v.version as string, kind: v.kind as string });
    } else if (p.type === 'olm.gvk.required' && str(v.group) && str(v.kind) && str(v.version)) {
      requires.push({
        type: 'gvk',
        group: v.group as string,
        version: v.version as string,
        kind: v.kind as string,
      });
    } else if (p.type === 'olm.package.required' && str(v.packageName)) {
      requires.push({
        type: 'package',
        packageName: v.packageName as string,
        versionRange: str(v.versionRange) ? (v.versionRange as string) : '*',
      });
    } else if (p.type === 'olm.bundle.object' && str(v.data)) {
      const crd = crdInBundleObject(v.data as string);
      if (crd) plurals.set(`${crd.group}/${crd.kind}`, crd.plural);
    }
  }
  return {
    name: blob.name as string,
    package: blob.package as string,
    version,
    image: str(blob.image) ? (blob.image as string) : undefined,
    provides,
    requires,
    plurals,
  };
}

/** The group, kind and plural of a CRD carried base64-encoded in an `olm.bundle.object`. */
function crdInBundleObject(data: string): { group: string; kind: string; plural: string } | undefined {
  try {
    const obj = JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as {
      kind?: string;
      spec?: { group?: string; names?: { kind?: string; plural?: string } };
    };
    const group = obj.spec?.group;
    const { kind, plural } = obj.spec?.names ?? {};
    return obj.kind === 'CustomResourceDefinition' && group && kind && plural
      ? { group, kind, plural }
      : undefined;
  } catch {
    return undefined;
  }
}

function str(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0;
}

/** The FBC files under `path` (or `path` itself): `.yaml`, `.yml` and `.json`, sorted, dot-files skipped. */
export async function readFbcFiles(path: string): Promise<FbcFile[]> {
  if (!(await stat(path)).isDirectory()) return [{ path, text: await readFile(path, 'utf8') }];
  const out: FbcFile[] = [];
  for (const name of (await readdir(path)).filter((n) => !n.startsWith('.')).sort()) {
    const child = join(path, name);
    if ((await stat(child)).isDirectory()) out.push(...(await readFbcFiles(child)));
    else if (/\.(ya?ml|json)$/.test(name)) out.push({ path: child, text: await readFile(child, 'utf8') });
  }
  return out;
}
